"""Simulation results into the store (``sim_runs``, ``sim_jobs``, ``sim_allocations``), and the published
Pollux / Optimus / Tiresias figures of the AdaptDL workloads as reference rows beside them. The simulator's
one module that writes, and only through ``assay.store``."""

from __future__ import annotations

import json
import os
from datetime import datetime
from functools import lru_cache
from typing import Any

from assay.clock import utc_now
from assay.ids import stable_id
from assay.scheduler.simulator._clock import SimResult
from assay.scheduler.workloads import DATA_DIR
from assay.store import write_rows

PUBLISHED_FILE = DATA_DIR / "adaptdl" / "published.json"
PUBLISHED_PREFIX = "published:"


def result_rows(result: SimResult, created_at: datetime | None = None) -> tuple[str, dict[str, list[dict]]]:
    """(sim_id, rows per table) of one simulation run. Every run gets its own id, so re-runs are kept
    side by side (the dashboards pick the latest per workload and policy)."""
    created_at = created_at or utc_now()
    params = dict(result.params)
    params["summary"] = {k: v for k, v in result.summary.items()
                         if k not in ("avg_jct", "p50_jct", "p99_jct", "makespan", "utilization", "fairness")}
    if result.issues:
        params["issues"] = result.issues[:50]
    params_text = json.dumps(params, sort_keys=True, default=str)
    sim_id = stable_id("sim", result.workload, result.policy, result.gpus, params_text, created_at.isoformat())
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
    """Write one run (one transaction); returns its ``sim_id``."""
    sim_id, tables = result_rows(result)
    write_rows(db, tables)
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
