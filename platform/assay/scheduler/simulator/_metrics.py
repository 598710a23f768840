"""The figures a simulation is judged by."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def summarize(jobs: Sequence[dict], gpus: int) -> dict[str, float | int | None]:
    """avg/p50/p99 JCT, makespan, utilization and finish-time fairness of finished jobs.

    ``fairness`` is the mean finish-time fairness rho = JCT / (run time alone at the requested size) of
    Themis (Mahajan et al., NSDI'20): 1 is as good as having the cluster to oneself, lower is better.
    ``utilization`` is allocated GPU-seconds over GPUs x makespan.
    """
    done = [j for j in jobs if j.get("finish_time") is not None]
    out: dict[str, float | int | None] = {"n_jobs": len(jobs), "finished": len(done),
                                          "unfinished": len(jobs) - len(done)}
    if not done:
        out.update(avg_jct=None, p50_jct=None, p99_jct=None, makespan=None, utilization=None, fairness=None,
                   max_ftf=None, avg_queueing=None, restarts=None)
        return out
    jct = np.array([j["jct"] for j in done], dtype=float)
    first = min(j["submit_time"] for j in jobs)
    last = max(j["finish_time"] for j in done)
    makespan = last - first
    ftf = np.array([j["jct"] / j["isolated_s"] for j in done if j.get("isolated_s")], dtype=float)
    busy = sum(j.get("allocated_s", 0.0) for j in jobs)
    out.update(
        avg_jct=float(jct.mean()),
        p50_jct=float(np.percentile(jct, 50)),
        p99_jct=float(np.percentile(jct, 99)),
        makespan=float(makespan),
        utilization=float(busy / (gpus * makespan)) if makespan > 0 else None,
        fairness=float(ftf.mean()) if len(ftf) else None,
        max_ftf=float(ftf.max()) if len(ftf) else None,
        avg_queueing=float(np.mean([j["queueing"] for j in done])),
        restarts=int(sum(max(j.get("restarts", 0), 0) for j in jobs)),
    )
    return out
