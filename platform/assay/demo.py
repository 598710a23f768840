"""The main job on embedded defaults: what ``make demo`` and ``assay demo`` run.

Every stage uses the real parts: the papers and logs pipelines on embedded Ray over the bundled samples,
data-, pipeline- and tensor-parallel training jobs (when the ``train`` extra is installed), the cost model
fitted from the runs that landed, the claims checked against those runs and the model (and one layout
claim reproduced through the live scheduler), and the scheduling policies replayed on a Philly-shaped trace
and on Pollux's workload 6.

Run again on the same database it adds nothing: what was run is keyed, not appended. The pipelines' rows
have content ids, a training job whose very spec already completed there is reused, the checks replace
their rows, the reproduction is reused when the claim already has one, and the simulations are keyed by
what was run (``scheduler.simulator._store``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import time
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

Echo = Callable[[str], None]


def samples_dir(kind: str) -> Path:
    return Path(str(files("assay.pipelines") / "samples" / kind))


def run_demo(db: str | os.PathLike[str], *, train_steps: int = 20, echo: Echo = print) -> dict[str, Any]:
    """Fill ``db`` with the demo's knowledge graph, runs, jobs and simulations; returns the table counts."""
    from assay.ray_session import ensure_ray, shutdown_ray

    db = str(db)
    started, startup = ensure_ray(None, num_cpus=max(4, os.cpu_count() or 1))
    echo(f"[demo] embedded Ray up in {startup:.1f}s; database {db}")
    try:
        _pipelines(db, echo)
        trained, reused = _training(db, train_steps, echo)
        _cost_model(db, echo, reuse=reused)
        _checks(db, trained, echo)
        _simulations(db, echo)
    finally:
        if started:
            shutdown_ray()
    from assay.store.queries import counts

    return counts(db)


def _pipelines(db: str, echo: Echo) -> None:
    from assay.dsl import load_pipeline
    from assay.runtime import run_pipeline

    for name in ("papers", "logs"):
        t0 = time.perf_counter()
        if _ingested(db, samples_dir(name)):
            echo(f"[demo] {name}: every sample is in the database already (same content); not run again")
            continue
        s = run_pipeline(load_pipeline(name), [samples_dir(name)], db=db, progress=False)
        echo(f"[demo] {name}: {s.headline} ({time.perf_counter() - t0:.1f}s)")


#: The demo's reproduction: its rounds stop here (about a minute a round idle, several on a busy machine).
REPRODUCTION_BUDGET_S = 360.0
#: The demo's jobs: one per kind of parallelism on two workers; the sample paper Sprocket compares them.
DEMO_JOBS = (("gpt-dp", "dp=2"), ("gpt-pp", "pp=2"), ("gpt-tp", "tp=2"))


def _training(db: str, steps: int, echo: Echo) -> tuple[bool, bool]:
    """(whether the jobs trained or were there, whether every one of them was there already)."""
    if importlib.util.find_spec("torch") is None:
        echo("[demo] training jobs skipped: install the train extra (pip install 'assay[train]')")
        return False, False
    from assay.jobs import load_spec, run

    reused = 0
    for name, layout in DEMO_JOBS:
        t0 = time.perf_counter()
        spec = load_spec(name, [f"steps={steps}", f"checkpoint_every={max(1, steps // 2)}"])
        done = _completed_job(db, spec.to_json())
        if done is not None:
            echo(f"[demo] training job {name} ({layout}, {steps} steps): reused {done}, which ran this very spec")
            reused += 1
            continue
        sup = run(spec, db)
        echo(f"[demo] training job {name} ({layout}, {steps} steps): {getattr(sup, 'state', 'done')} "
             f"({time.perf_counter() - t0:.1f}s)")
    return True, reused == len(DEMO_JOBS)


def _checks(db: str, reproduce: bool, echo: Echo) -> None:
    """Every performance claim against the runs and the cost model; the first claim that compares two
    layouts also reproduced through the live scheduler (it needs the training extra)."""
    from assay.checks import ClaimSetting, check_claims, layout_sides, reproduce
    from assay.store.queries_checks import claims_to_check

    t0 = time.perf_counter()
    report = check_claims(db)
    echo(f"[demo] {report.summary().splitlines()[0]}")
    if not reproduce:
        return
    layout_claims = [s.claim_id for s in map(ClaimSetting.from_row, claims_to_check(db).to_dict("records"))
                     if layout_sides(s) is not None]
    if layout_claims:
        claim_id = layout_claims[0]
        before = _stored_reproduction(db, claim_id)
        if before is not None:
            echo(f"[demo] reproduced claim {claim_id} (reused: it was reproduced on this database before): "
                 f"{_verdict_line(before)}")
            echo(f"[demo] claims checked in {time.perf_counter() - t0:.1f}s")
            return
        # gpt-tiny alone: each round of the demo's reproduction takes about half a minute instead of three.
        reproduced = check_claims(db, [claim_id], reproduce=True, echo=echo,
                                  reproducer=lambda database, setting: reproduce(
                                      database, setting, echo=echo, models=("gpt-tiny",), max_rounds=3,
                                      timeout_s=REPRODUCTION_BUDGET_S))
        verdict = next(c for c in reproduced.checks if c.kind == "reproduction")
        echo(f"[demo] reproduced claim {verdict.claim_id}: " + _verdict_line(vars(verdict)))
    echo(f"[demo] claims checked in {time.perf_counter() - t0:.1f}s")


def _ingested(db: str, folder: Path) -> bool:
    """Whether every file of ``folder`` is a document of ``db`` with its present content (a document's id is
    the hash of its bytes), so running the pipeline again would add nothing but another pipeline run."""
    if not Path(db).exists():
        return False
    from assay.ids import content_id
    from assay.store.queries import sql

    files = [p for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.startswith(".")]
    if not files:
        return False
    try:
        docs = sql(db, "SELECT doc_id, uri, ingested_at FROM current_documents")
    except Exception:  # a file from before the documents' views: run the pipeline
        return False
    have = set(docs["doc_id"])
    # A file of several records (a JSON-lines collection, a CSV of abstracts) is one document per record,
    # at ``<path>#<n>``: it is in when its records are, ingested after the file last changed.
    records: dict[str, Any] = {}
    for uri, at in zip(docs["uri"], docs["ingested_at"], strict=True):
        if isinstance(uri, str) and "#" in uri and at is not None and at == at:
            path = uri.rsplit("#", 1)[0]
            records[path] = min(records.get(path, at), at)

    def ingested(p: Path) -> bool:
        if content_id(p.read_bytes()) in have:
            return True
        at = records.get(str(p))
        return at is not None and at.timestamp() >= p.stat().st_mtime

    return all(ingested(p) for p in files)


def _completed_job(db: str, spec_json: str) -> str | None:
    """The id of a completed job of exactly this spec in ``db``, if there is one."""
    if not Path(db).exists():
        return None
    from assay.store.queries_jobs import jobs

    done = jobs(db, ["completed"])
    want = json.loads(spec_json)
    return next((str(r.job_id) for r in done.itertuples() if isinstance(r.spec, str) and json.loads(r.spec) == want),
                None)


def _stored_reproduction(db: str, claim_id: str) -> dict[str, Any] | None:
    """The claim's reproduction verdict already in ``db`` (not an untestable one), or None."""
    if not Path(db).exists():
        return None
    from assay.store.queries_checks import checks_of

    rows = checks_of(db, claim_id)
    rows = rows[(rows.kind == "reproduction") & (rows.verdict != "untestable")]
    return rows.iloc[0].to_dict() if len(rows) else None


def _verdict_line(check: dict[str, Any]) -> str:
    """``inconclusive: measured 1.21x, 95% interval 0.94-1.60x, claimed 1.70x (the reason)``."""
    def number(key: str) -> float | None:
        v = check.get(key)
        return float(v) if isinstance(v, int | float) and v == v else None

    figures = []
    observed, low, high, claimed = number("observed"), number("low"), number("high"), number("claimed")
    if observed is not None and low is not None and high is not None:
        figures.append(f"measured {observed:.2f}x, 95% interval {low:.2f}-{high:.2f}x")
    if claimed is not None:
        figures.append(f"claimed {claimed:.2f}x")
    return f"{check['verdict']}: {', '.join(figures)} ({check['reason']})"


def _cost_model(db: str, echo: Echo, *, reuse: bool = False) -> None:
    """Fit the cost model on the runs; with ``reuse`` (every training job was there already) the latest
    fit is kept: the runs the demo added since (its reproduction's) would only make it another row."""
    from assay.scheduler.cost_model import fit_from_db
    from assay.store.queries_costmodel import latest_fit

    if reuse and (fit := latest_fit(db)) is not None:
        echo(f"[demo] cost model: fit {fit['fit_id']} of this database's runs reused ({fit['n_runs']} runs)")
        return

    _, report = fit_from_db(db, default_hardware="cpu")
    if not report.n_runs:
        echo("[demo] cost model: no measured runs to fit; analytic defaults")
        return
    echo(f"[demo] cost model fitted on {report.n_runs} runs: MAPE {report.mape:.1f}%, "
         f"hold-out {report.holdout_mape:.1f}%")


def _simulations(db: str, echo: Echo) -> None:
    from assay.scheduler.simulator import simulate, write_published, write_result
    from assay.scheduler.workloads import adaptdl_workload, philly_workload

    for label, workload in (("philly:160", philly_workload(160, seed=0)), ("adaptdl:6", adaptdl_workload(6))):
        figures = []
        for policy in ("fifo", "tiresias", "goodput"):
            result = simulate(workload, policy, gpus=64)
            write_result(result, db)
            figures.append(f"{policy} {result.summary['avg_jct']:,.0f}s")
        echo(f"[demo] simulated {label} on 64 GPUs, average JCT: " + ", ".join(figures))
    write_published(db)
