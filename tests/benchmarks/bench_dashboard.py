"""Dashboard speed on a large database: 10 million metric rows and 100,000 claims.

Builds the database with set-based DuckDB SQL (tests/dashboard_data.py ``fill_large``), then for each view
times (a) the read queries the view runs with its default choices, uncached, and (b) a full AppTest render
with an empty cache. The obvious alternative for the heaviest part, the metric curves, is measured in the
same run: fetch every sample of the picked runs into pandas, average ranks per step there and draw every
step, versus bucketing in SQL. Prints the figures and the ratio; target: every view under 2 s.

    python tests/benchmarks/bench_dashboard.py [--quick] [--keep DB]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for dashboard_data

import dashboard_data as dd  # noqa: E402

from assay.store import (  # noqa: E402
    queries_checks,
    queries_claims,
    queries_knowledge,
    queries_pipelines,
    queries_runs,
    queries_scheduler,
)
from assay.store.queries import sql  # noqa: E402

TARGET_S = 2.0


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    """Median wall time of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def view_queries(db: Path) -> dict[str, Callable[[], object]]:
    """What each view asks the database for with its default choices (as in dashboards/views/*.py)."""
    runs = queries_runs.runs(db)
    picked = runs["run_id"].head(3).tolist()
    megatron = queries_knowledge.search_entities(db, "megatron")["entity_id"].iloc[0]
    claim = queries_claims.claims(db, limit=1)["claim_id"].iloc[0]
    jobs = queries_scheduler.job_queue(db)["job_id"].head(40).tolist()

    def overview():
        queries_knowledge.table_counts(db), queries_knowledge.entity_types(db), queries_knowledge.documents_by_kind(db)
        ids = queries_pipelines.pipeline_runs(db, limit=10)["pipeline_run_id"].tolist()
        queries_pipelines.quarantined_inputs(db, ids, limit=50)

    def knowledge():
        queries_knowledge.search_entities(db, ""), queries_knowledge.entity(db, megatron), queries_knowledge.entity_claims(db, megatron)
        queries_knowledge.entity_neighbours(db, megatron), queries_knowledge.entity_runs(db, megatron)

    def claims():
        flt = queries_claims.ClaimFilter()
        queries_claims.claim_facets(db), queries_claims.claims_count(db, flt), queries_claims.claims(db, flt, limit=1000)
        queries_checks.checks_of(db, claim)

    def runs_view():
        queries_runs.run_facets(db), queries_runs.runs(db), queries_runs.metric_names(db, picked)
        queries_runs.metric_curves(db, picked, "loss", "step", 400), queries_runs.run_events(db, picked)
        queries_runs.run_summaries(db, runs["run_id"].head(300).tolist()), queries_runs.run_configs(db, picked)

    def scheduler():
        queries_scheduler.job_states(db), queries_scheduler.job_queue(db), queries_scheduler.allocation_segments(db, jobs)
        wl = queries_scheduler.sim_workloads(db)
        sims = queries_scheduler.sim_runs(db, wl[:1])
        queries_scheduler.sim_jct(db, sims.loc[~sims["published"], "sim_id"].tolist())

    def pipelines():
        ids = queries_pipelines.pipeline_runs(db, limit=500)["pipeline_run_id"].tolist()
        queries_pipelines.pipeline_names(db), queries_pipelines.quarantine_reasons(db, ids), queries_pipelines.quarantined_inputs(db, ids)

    return {
        "overview": overview,
        "knowledge": knowledge,
        "claims": claims,
        "runs": runs_view,
        "scheduler": scheduler,
        "pipelines": pipelines,
    }


def render_times(db: Path) -> dict[str, float]:
    """A full AppTest run of each page with an empty query cache."""
    os.environ["ASSAY_DB"] = str(db)
    from streamlit.testing.v1 import AppTest

    from assay.dashboards import _ui

    app = str(Path(_ui.__file__).resolve().parent / "app.py")
    out = {}
    at = AppTest.from_file(app, default_timeout=120).run()  # warms imports
    for view in view_queries(db):
        _ui.refresh()
        t = time.perf_counter()
        if view == "overview":
            at = AppTest.from_file(app, default_timeout=120).run()
        else:
            at.switch_page(f"views/{view}.py").run()
        out[view] = time.perf_counter() - t
        if at.exception:
            raise RuntimeError(f"{view}: {at.exception[0].value}")
    return out


def curves_naive_vs_sql(db: Path, picked: list[str]) -> tuple[float, float, int, int]:
    """Seconds and figure bytes: every sample through pandas into the chart, vs SQL buckets."""
    from assay.dashboards import _figures, _frames

    def naive() -> int:
        raw = sql(
            db,
            f"SELECT run_id, step, value FROM metrics WHERE name = 'loss' AND run_id IN "
            f"({', '.join('?' * len(picked))})",
            picked,
        )
        finite = raw[raw["value"].notna()]
        per_step = finite.groupby(["run_id", "step"])["value"].agg(["mean", "min", "max"]).reset_index()
        per_step = per_step.rename(columns={"min": "lo", "max": "hi"}).assign(
            x=lambda d: d["step"], n_nan=0, n=1
        )
        fig = _figures.curves_figure(
            _frames.smooth_curves(per_step, 0.6),
            per_step.iloc[:0].assign(kind=[], detail=[]),
            {},
            "loss",
            "step",
        )
        return len(fig.to_json())

    def bucketed() -> int:
        curves = queries_runs.metric_curves(db, picked, "loss", "step", 400)
        fig = _figures.curves_figure(
            _frames.smooth_curves(curves, 0.6), curves.iloc[:0].assign(kind=[], detail=[]), {}, "loss", "step"
        )
        return len(fig.to_json())

    naive_bytes, sql_bytes = naive(), bucketed()
    return timed(naive), timed(bucketed), naive_bytes, sql_bytes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2M metric rows, 20k claims (about 30 s)")
    parser.add_argument("--keep", type=Path, help="build the database here and keep it")
    args = parser.parse_args(argv)
    n_metrics, n_claims = (2_000_000, 20_000) if args.quick else (10_000_000, 100_000)

    with tempfile.TemporaryDirectory() as tmp:
        db = args.keep or Path(tmp) / "bench.duckdb"
        if db.exists():
            db.unlink()
        t = time.perf_counter()
        dd.fill_sample(db)
        sizes = dd.fill_large(db, n_metrics, n_claims)
        build_s = time.perf_counter() - t
        print(
            f"database: {sizes['metrics']:,} metric rows, {sizes['claims']:,} claims, {sizes['runs']} runs, "
            f"{db.stat().st_size / 2**20:.0f} MiB, built in {build_s:.1f}s"
        )

        queries = {view: timed(fn) for view, fn in view_queries(db).items()}
        renders = render_times(db)
        print(f"\n{'view':<10} {'queries (s)':>12} {'AppTest render (s)':>19}  target {TARGET_S:.0f} s")
        for view in queries:
            worst = max(queries[view], renders[view])
            print(
                f"{view:<10} {queries[view]:>12.3f} {renders[view]:>19.3f}  "
                f"{'ok' if worst < TARGET_S else 'SLOW'}"
            )

        picked = queries_runs.runs(db)["run_id"].head(3).tolist()
        naive_s, sql_s, naive_b, sql_b = curves_naive_vs_sql(db, picked)
        n_samples = int(queries_runs.metric_curves(db, picked, "loss")["n"].sum())
        print(f"\nmetric curves of 3 runs ({n_samples:,} loss samples):")
        print(
            f"  naive (all samples -> pandas -> every step drawn): {naive_s:.3f}s, "
            f"figure {naive_b / 1e6:.1f} MB"
        )
        print(
            f"  SQL buckets (400 per run, min/max/avg):            {sql_s:.3f}s, figure {sql_b / 1e6:.2f} MB"
        )
        print(f"  ratio: {naive_s / sql_s:.1f}x faster, {naive_b / sql_b:.0f}x less to send to the browser")
    return 0


if __name__ == "__main__":
    sys.exit(main())
