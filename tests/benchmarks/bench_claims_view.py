"""Claims view speed with verdicts: 100,000 claims and about 285,000 checks.

Builds the database through ``assay.store.write_rows`` (the sample of tests/dashboard_data.py, then bulk
claims and one check per claim and kind for 95% of them, as ``assay check`` writes them), then times
(a) the page query the Claims view runs (count + first 1,000 rows with a verdict per kind, joined in SQL),
with no filter, filtered by a verdict and sorted by verdict, against the obvious alternative in the same
run: every check into pandas, pivoted per claim there and merged with the claims; and the page-then-pandas
variant (the first 1,000 claims, then their checks pivoted with ``queries_checks.verdicts_of``), which can
neither filter nor sort by verdict; (b) every query of the view with its default choices, uncached; (c) a
full AppTest render of the Claims and the Overview page with an empty cache. Target: each under 2 s.

    python tests/benchmarks/bench_claims_view.py [--quick] [--keep DB]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for dashboard_data

import dashboard_data as dd  # noqa: E402
import pandas as pd  # noqa: E402
from bench_dashboard import timed  # noqa: E402 (this folder is on sys.path when run as a script)

from assay.ids import stable_id  # noqa: E402
from assay.store import (  # noqa: E402
    queries_checks,
    queries_claims,
    queries_knowledge,
    queries_runs,
    queries_scheduler,
    write_rows,
)
from assay.store.queries import sql  # noqa: E402

TARGET_S = 2.0
PAGE = 1000  # rows the view shows (dashboards/views/claims.py SHOWN)
SYSTEMS = ["Megatron-LM", "DeepSpeed", "PyTorch DDP", "Pollux", "Ray Train"]
METRICS = ["throughput", "MFU", "step time", "memory", "speedup"]
SETTINGS = [
    f"{m}, {g} A100 GPUs, TP={tp}" for m in ("GPT-3 1.3B", "LLaMA-7B") for g in (8, 16, 64) for tp in (1, 2)
]


def build(db: Path, n_claims: int) -> dict[str, int]:
    """The sample, then ``n_claims`` claims and their checks, all through ``write_rows``."""
    sample = dd.fill_sample(db, checks=False)
    doc = sample.doc_ids[0]
    ids = [f"bench-claim-{i}" for i in range(n_claims)]
    claims = {
        "claim_id": ids,
        "doc_id": [doc] * n_claims,
        "subject": [SYSTEMS[i % len(SYSTEMS)] for i in range(n_claims)],
        "metric": [METRICS[(i // 7) % len(METRICS)] for i in range(n_claims)],
        "value": [1 + (i % 40) / 10 for i in range(n_claims)],
        "unit": ["x"] * n_claims,
        "versus": [SYSTEMS[(i + 1) % len(SYSTEMS)] for i in range(n_claims)],
        "setting": [SETTINGS[(i // 11) % len(SETTINGS)] for i in range(n_claims)],
        "text": [f"{1 + (i % 40) / 10}x higher throughput" for i in range(n_claims)],
        "confidence": [0.5 + (i % 50) / 100 for i in range(n_claims)],
        "operator": ["bench"] * n_claims,
    }
    runs_ev = json.dumps(
        {
            "metric": "tokens_per_s",
            "runs": [
                {"run_id": sample.run_ids["meg-gpt-16a"], "role": "claimed system"},
                {"run_id": sample.run_ids["ds-gpt-16"], "role": "baseline"},
            ],
            "groups": [{"model": "gpt3-1.3b", "world_size": 16, "ratio": 1.39}],
        }
    )
    plan_ev = json.dumps(
        {
            "plan": {"subject": {"dp": 8, "tp": 2}, "baseline": {"dp": 16, "tp": 1}},
            "predicted": {"ratio": 1.4},
        }
    )
    repro_ev = json.dumps({"jobs": {"subject": ["job-elastic"], "baseline": ["job-bert"]}, "runs": []})
    evidence = {"runs": runs_ev, "cost_model": plan_ev, "reproduction": repro_ev}
    checks: dict[str, list] = {
        c: []
        for c in (
            "check_id",
            "claim_id",
            "kind",
            "verdict",
            "claimed",
            "observed",
            "unit",
            "reason",
            "evidence",
            "checked_at",
        )
    }
    at = datetime(2025, 6, 1)
    for i, claim in enumerate(ids):
        if i % 20 == 0:
            continue  # 5% never checked
        for k, kind in enumerate(queries_checks.CHECK_KINDS):
            verdict = queries_checks.VERDICTS[(i * 7 + k * 3) % 11 % 4]
            checks["check_id"].append(stable_id("claim_check", claim, kind))
            checks["claim_id"].append(claim)
            checks["kind"].append(kind)
            checks["verdict"].append(verdict)
            checks["claimed"].append(1 + (i % 40) / 10)
            checks["observed"].append(None if verdict == "untestable" else 1 + (i % 37) / 10)
            checks["unit"].append("x")
            checks["reason"].append(f"bench {verdict}")
            checks["evidence"].append(evidence[kind])
            checks["checked_at"].append(at + timedelta(seconds=i))
    write_rows(db, {"claims": claims})
    write_rows(db, {"claim_checks": checks}, upsert=["claim_checks"])
    return {"claims": n_claims + len(sample.claim_ids), "checks": len(checks["check_id"])}


def page_in_sql(db: Path, flt: queries_claims.ClaimFilter, sort: str) -> pd.DataFrame:
    queries_claims.claims_count(db, flt)
    return queries_claims.claims(db, flt, sort, True, limit=PAGE)


def page_in_pandas(db: Path, flt: queries_claims.ClaimFilter, sort: str) -> pd.DataFrame:
    """The obvious way: every claim and every check into pandas, pivot there, then filter, sort and cut."""
    claims = queries_claims.claims(db, queries_claims.ClaimFilter(), "confidence", True, limit=None)
    claims = claims.drop(columns=[c for c in claims.columns if c.startswith("verdict")])
    checks = sql(db, "SELECT claim_id, kind, verdict, checked_at FROM claim_checks")
    latest = checks.sort_values("checked_at").drop_duplicates(["claim_id", "kind"], keep="last")
    wide = latest.pivot(index="claim_id", columns="kind", values="verdict").add_prefix("verdict_")
    severity = {v: len(queries_checks.SEVERITY) - i for i, v in enumerate(queries_checks.SEVERITY)}
    ranks = latest.assign(severity=latest["verdict"].map(severity)).groupby("claim_id")["severity"].max()
    df = claims.merge(wide, left_on="claim_id", right_index=True, how="left")
    df = df.merge(ranks.rename("severity"), left_on="claim_id", right_index=True, how="left")
    if flt.verdicts:
        kinds = flt.kinds or queries_checks.CHECK_KINDS
        df = df[df[[f"verdict_{k}" for k in kinds]].isin(flt.verdicts).any(axis=1)]
    key = "severity" if sort == "verdict" else "confidence"
    df = df.sort_values([key, "claim_id"], ascending=[False, True], na_position="last")
    len(df)  # the count
    return df.head(PAGE)


def page_then_pivot(db: Path) -> pd.DataFrame:
    """The first page in SQL, then its claims' checks pivoted in pandas (no verdict filter or sort possible)."""
    page = queries_claims.claims(db, queries_claims.ClaimFilter(), "confidence", True, limit=PAGE)
    verdicts = queries_checks.verdicts_of(db, page["claim_id"].tolist())
    return page.merge(verdicts, on="claim_id", how="left")


def view_queries(db: Path) -> Callable[[], object]:
    """Every query the Claims view runs with its default choices (dashboards/views/claims.py, _verdicts.py)."""
    flt = queries_claims.ClaimFilter()

    def claims_view() -> None:
        queries_knowledge.table_counts(db), queries_claims.claim_facets(db)
        page = page_in_sql(db, flt, "confidence")
        chosen = page.sort_values(
            "verdict", key=lambda s: s.isin(queries_checks.SEVERITY[:-1]), ascending=False
        )
        checks = queries_checks.checks_of(db, chosen["claim_id"].iloc[0])
        for evidence in checks["evidence"]:
            runs = [r["run_id"] for r in evidence.get("runs", [])]
            if runs:
                (
                    queries_runs.run_summaries(db, runs),
                    queries_runs.metric_curves(db, runs, "tokens_per_s", "step", 200),
                )
            jobs = [j for ids in evidence.get("jobs", {}).values() for j in ids]
            if jobs:
                queries_scheduler.job_queue(db, job_ids=jobs), queries_scheduler.allocation_segments(db, jobs)

    return claims_view


def render_times(db: Path) -> dict[str, float]:
    """Full AppTest runs with an empty query cache: the Claims page, filtered by a verdict, the Overview."""
    os.environ["ASSAY_DB"] = str(db)
    from streamlit.testing.v1 import AppTest

    from assay.dashboards import _ui

    app = str(Path(_ui.__file__).resolve().parent / "app.py")
    at = AppTest.from_file(app, default_timeout=120).run()  # warms imports
    out = {}
    _ui.refresh()
    t = time.perf_counter()
    at.switch_page("views/claims.py").run()
    out["claims"] = time.perf_counter() - t
    _ui.refresh()
    t = time.perf_counter()
    at.multiselect(key="claims_verdicts").select("contradicted").run()
    out["claims, verdict filter"] = time.perf_counter() - t
    _ui.refresh()
    t = time.perf_counter()
    at = AppTest.from_file(app, default_timeout=120).run()
    out["overview"] = time.perf_counter() - t
    if at.exception:
        raise RuntimeError(at.exception[0].value)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 claims")
    parser.add_argument("--keep", type=Path, help="build the database here and keep it")
    args = parser.parse_args(argv)
    n_claims = 20_000 if args.quick else 100_000

    with tempfile.TemporaryDirectory() as tmp:
        db = args.keep or Path(tmp) / "bench.duckdb"
        if db.exists():
            db.unlink()
        t = time.perf_counter()
        sizes = build(db, n_claims)
        print(
            f"database: {sizes['claims']:,} claims, {sizes['checks']:,} checks, "
            f"{db.stat().st_size / 2**20:.0f} MiB, built with write_rows in {time.perf_counter() - t:.1f}s"
        )

        cases = {
            "no filter": (queries_claims.ClaimFilter(), "confidence"),
            "verdict = contradicted": (queries_claims.ClaimFilter(verdicts=("contradicted",)), "confidence"),
            "sorted by verdict": (queries_claims.ClaimFilter(), "verdict"),
        }
        print(f"\npage query (count + first {PAGE:,} rows with verdicts), median of 3:")
        print(f"  {'case':<24} {'SQL join (s)':>12} {'all checks in pandas (s)':>25} {'ratio':>7}")
        for name, (flt, sort) in cases.items():
            fast = page_in_sql(db, flt, sort)
            slow = page_in_pandas(db, flt, sort)
            assert fast["claim_id"].tolist() == slow["claim_id"].tolist(), f"{name}: the two pages differ"
            sql_s, pandas_s = (
                timed(lambda flt=flt, sort=sort: page_in_sql(db, flt, sort)),
                timed(lambda flt=flt, sort=sort: page_in_pandas(db, flt, sort)),
            )
            print(f"  {name:<24} {sql_s:>12.3f} {pandas_s:>25.3f} {pandas_s / sql_s:>6.1f}x")
        pivot_s = timed(lambda: page_then_pivot(db))
        print(
            f"  page in SQL, then its checks pivoted in pandas (no verdict filter/sort possible): {pivot_s:.3f}s"
        )

        queries_s = timed(view_queries(db))
        renders = render_times(db)
        print(f"\nClaims view, all its queries uncached: {queries_s:.3f}s")
        print(f"{'AppTest render, empty cache':<34} {'s':>7}  target {TARGET_S:.0f} s")
        for page, s in renders.items():
            print(f"  {page:<32} {s:>7.3f}  {'ok' if s < TARGET_S else 'SLOW'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
