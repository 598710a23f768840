"""What the scheduler decided and simulated: the job queue, job states, allocations over time, simulations."""

from __future__ import annotations

import pandas as pd

from assay.store._read import PathLike, _in, read
from assay.store.job_state import ACTIVE_STATES, WAITING_STATES, JobState

#: Jobs nobody runs yet: ``waiting`` (the scheduler holds them back, or their workers are being placed)
#: beside the queued and preempted ones.
_WAITING = (JobState.WAITING, *WAITING_STATES)


def job_queue(
    db: PathLike, states: list[str] | None = None, limit: int = 500, job_ids: list[str] | None = None
) -> pd.DataFrame:
    """Jobs, active ones first (a driver runs them), then waiting ones, each by priority; then the rest
    (finished, or a state this version does not know) newest first. ``states``, ``job_ids``: only these."""
    clauses, params = [], []
    for column, values in (("state", states), ("job_id", job_ids)):
        if values:
            clauses.append(f"{column} IN {_in(values)}")
            params += list(values)
    where = ("WHERE " + " AND ".join(clauses)) if clauses else ""
    return read(
        db,
        f"""
        SELECT job_id, name, state, priority, workers, min_workers, max_workers, attempts, submitted_at,
               started_at, finished_at, error
        FROM jobs {where}
        ORDER BY CASE WHEN state IN {_in(ACTIVE_STATES)} THEN 0 WHEN state IN {_in(_WAITING)} THEN 1 ELSE 2 END,
                 priority DESC NULLS LAST, submitted_at DESC NULLS LAST LIMIT ?""",
        [*params, *ACTIVE_STATES, *_WAITING, int(limit)],
    )


def job_states(db: PathLike) -> pd.DataFrame:
    return read(
        db,
        "SELECT coalesce(state, 'unknown') AS state, count(*) AS jobs FROM jobs GROUP BY 1 ORDER BY 2 DESC",
    )


def allocation_segments(db: PathLike, job_ids: list[str] | None = None) -> pd.DataFrame:
    """Each allocation as an interval: from its time to the job's next decision (or the job's end, or the
    latest time the scheduler recorded, for a job still running), with the GPU type its workers sat on
    (``gpu_type``: NULL on a one-type cluster, and in a file from before schema 6, read as it is)."""
    where, params = ("", []) if not job_ids else (f"WHERE a.job_id IN {_in(job_ids)}", list(job_ids))
    typed = not read(db, "SELECT 1 FROM information_schema.columns WHERE table_name = 'allocations' "
                         "AND column_name = 'gpu_type'").empty
    gpu_type = "a.gpu_type" if typed else "CAST(NULL AS VARCHAR) AS gpu_type"
    return read(
        db,
        f"""
        WITH latest AS (SELECT greatest(max(a."at"), (SELECT max(finished_at) FROM jobs),
                                        (SELECT max(heartbeat_at) FROM jobs)) AS t FROM allocations a)
        SELECT a.job_id, coalesce(j.name, a.job_id) AS name, j.state, a."at" AS start,
               coalesce(lead(a."at") OVER (PARTITION BY a.job_id ORDER BY a."at"), j.finished_at,
                        (SELECT t FROM latest)) AS finish,
               a.workers, a.reason, a.plan, {gpu_type}
        FROM allocations a LEFT JOIN jobs j USING (job_id) {where}
        ORDER BY a.job_id, a."at\"""",
        params,
    )


def sim_workloads(db: PathLike) -> list[str]:
    return read(db, "SELECT DISTINCT workload FROM sim_runs WHERE workload IS NOT NULL ORDER BY 1")[
        "workload"
    ].tolist()


def sim_runs(db: PathLike, workloads: list[str] | None = None) -> pd.DataFrame:
    """Simulated policies (and the published reference rows, policy ``published:<name>``) per workload."""
    where, params = ("", []) if not workloads else (f"WHERE workload IN {_in(workloads)}", list(workloads))
    return read(
        db,
        f"""
        SELECT sim_id, workload, policy, starts_with(policy, 'published:') AS published, gpus, n_jobs,
               avg_jct, p50_jct, p99_jct, makespan, utilization, fairness, created_at, wall_s, params
        FROM sim_runs {where} ORDER BY workload, published, avg_jct NULLS LAST""",
        params,
    )


def sim_jct(db: PathLike, sim_ids: list[str]) -> pd.DataFrame:
    return read(
        db,
        f"""SELECT sim_id, job_id, model, jct, queueing, num_gpus, restarts FROM sim_jobs
                        WHERE sim_id IN {_in(sim_ids)} AND jct IS NOT NULL""",
        list(sim_ids),
    )


def sim_allocations(db: PathLike, sim_ids: list[str]) -> pd.DataFrame:
    """Every allocation decision of the simulations ``sim_ids`` (job, time in seconds, workers, GPU type).

    ``gpu_type`` is null on a one-type cluster and absent from a file older than schema 5 (then an empty
    column is returned): the Scheduler page draws allocation per GPU type only where it is set.
    """
    columns = ["sim_id", "job_id", "t", "workers", "gpu_type"]
    if not sim_ids:
        return pd.DataFrame(columns=columns)
    df = read(db, f"SELECT * FROM sim_allocations WHERE sim_id IN {_in(sim_ids)} ORDER BY sim_id, t", list(sim_ids))
    if "gpu_type" not in df.columns:
        df = df.assign(gpu_type=None)
    return df[columns]
