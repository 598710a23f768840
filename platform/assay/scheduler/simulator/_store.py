"""Simulation results into the store (``sim_runs``, ``sim_jobs``, ``sim_allocations``), and the published
Pollux / Optimus / Tiresias figures of the AdaptDL workloads as reference rows beside them. The simulator's
one module that writes, and only through ``assay.store``."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import assay
from assay.clock import utc_now
from assay.ids import stable_id
from assay.scheduler.simulator._clock import SimResult
from assay.scheduler.workloads import DATA_DIR, StoredTypedProfile, fit_typed_profiles
from assay.store import default_db_path, transaction, write_rows
from assay.store.queries_costmodel import runs_for_fit

PUBLISHED_FILE = DATA_DIR / "adaptdl" / "published.json"
PUBLISHED_PREFIX = "published:"


@lru_cache(maxsize=1)
def code_version() -> str:
    """assay's version and a hash of the scheduler's source (policies, simulator, workloads, cost model):
    the same simulation run by other code is another result, kept beside the first."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{assay.__version__}+{digest.hexdigest()[:12]}"


def sim_key(result: SimResult) -> str:
    """The id of what was run: workload (its name carries a generated one's seed), policy, cluster, GPUs,
    the simulator's settings and the code version. A re-run of the same simulation has the same id and
    replaces the first (``write_result``), so nothing adds up twice."""
    settings = json.dumps(result.params, sort_keys=True, default=str)
    return stable_id("sim", result.workload, result.policy, result.params.get("cluster"), result.gpus, settings,
                     code_version())


def result_rows(result: SimResult, created_at: datetime | None = None) -> tuple[str, dict[str, list[dict]]]:
    """(sim_id, rows per table) of one simulation run, under the key of what was run (``sim_key``)."""
    created_at = created_at or utc_now()
    sim_id = sim_key(result)
    params = dict(result.params)
    params["summary"] = {k: v for k, v in result.summary.items()
                         if k not in ("avg_jct", "p50_jct", "p99_jct", "makespan", "utilization", "fairness")}
    params["code_version"] = code_version()
    if result.issues:
        params["issues"] = result.issues[:50]
    params_text = json.dumps(params, sort_keys=True, default=str)
    s = result.summary
    run = {"sim_id": sim_id, "workload": result.workload, "policy": result.policy, "gpus": result.gpus,
           "n_jobs": s.get("n_jobs"), "avg_jct": s.get("avg_jct"), "p50_jct": s.get("p50_jct"),
           "p99_jct": s.get("p99_jct"), "makespan": s.get("makespan"), "utilization": s.get("utilization"),
           "fairness": s.get("fairness"), "params": params_text, "created_at": created_at,
           "wall_s": result.wall_s}
    jobs = [{"sim_id": sim_id, **{k: j[k] for k in ("job_id", "model", "submit_time", "start_time", "finish_time",
                                                   "jct", "queueing", "num_gpus", "restarts")}}
            for j in result.jobs]
    allocations = [{"sim_id": sim_id, **a} for a in result.allocations]
    for row in allocations:
        row["t"] = float(row["t"])
    return sim_id, {"sim_runs": [run], "sim_jobs": jobs, "sim_allocations": allocations}


def write_result(result: SimResult, db: str | os.PathLike[str] | None = None) -> str:
    """Write one run (one transaction), replacing an earlier run of the same simulation (its jobs and
    allocations too); returns its ``sim_id``."""
    sim_id, tables = result_rows(result)
    with transaction(db) as tx:
        for child in ("sim_jobs", "sim_allocations"):
            tx.delete_where(child, "sim_id", [sim_id])
        tx.write(tables, upsert=["sim_runs"])
    return sim_id


@lru_cache(maxsize=1)
def published() -> dict[str, Any]:
    return json.loads(PUBLISHED_FILE.read_text())


def published_rows(workloads: list[str] | None = None) -> list[dict[str, Any]]:
    """Reference ``sim_runs`` rows (policy ``published:<name>``) for AdaptDL workloads such as
    ``adaptdl/workload-6`` (all eight when ``workloads`` is None); deterministic ids, written once."""
    data = published()
    out = []
    for policy, figures in data["policies"].items():
        for key, avg in figures["avg_jct"].items():
            name = f"adaptdl/{key}"
            if workloads is not None and name not in workloads:
                continue
            out.append({
                "sim_id": stable_id("published", name, policy), "workload": name,
                "policy": PUBLISHED_PREFIX + policy, "gpus": 64, "n_jobs": 160, "avg_jct": avg, "p50_jct": None,
                "p99_jct": figures.get("p99_jct", {}).get(key), "makespan": figures.get("makespan", {}).get(key),
                "utilization": None, "fairness": None, "wall_s": figures.get("wall_s", {}).get(key),
                "params": json.dumps({"label": figures["label"], "source": data["source"],
                                      "cluster": data["cluster"]}, sort_keys=True),
                "created_at": None,
            })
    return out


def write_published(db: str | os.PathLike[str] | None = None, workloads: list[str] | None = None) -> int:
    rows = published_rows(workloads)
    if rows:
        write_rows(db, {"sim_runs": rows})
    return len(rows)


def profiles_from_store(db: str | os.PathLike[str] | None, types: tuple[str, ...] | list[str],
                        profiles_dir: Path | None = None) -> dict[str, StoredTypedProfile]:
    """Per-type profiles fitted from the runs in ``db`` (``assay.scheduler.workloads._from_runs``) for a
    heterogeneous replay without measured profiles: every application with a run on one of ``types``.
    None without a database file."""
    path = Path(db) if db is not None else default_db_path()
    if not path.exists():
        return {}
    return fit_typed_profiles(runs_for_fit(path).to_dict("records"), tuple(types), profiles_dir)
