"""Read queries the cost model needs: runs with their layout and measured step time, and stored fits.

Each function opens the database read-only for one query (see ``assay.store._connection``).
"""

from __future__ import annotations

import os
from typing import Any

import pandas as pd

from assay.store._connection import connect
from assay.store._read import execute

PathLike = str | os.PathLike[str] | None

# The median step time per run, leaving out the first two (warm-up) steps when a run has more than three.
_RUNS_FOR_FIT = """
WITH st AS (
    SELECT run_id, value,
           row_number() OVER (PARTITION BY run_id ORDER BY step) AS rn,
           count(*) OVER (PARTITION BY run_id) AS n
    FROM current_metrics
    WHERE name = 'step_time_ms' AND isfinite(value) AND value > 0
), step_times AS (
    SELECT run_id, median(value) AS step_time_ms, count(*) AS n_steps
    FROM st WHERE n <= 3 OR rn > 2 GROUP BY run_id
), rates AS (
    SELECT run_id,
           median(value) FILTER (WHERE name = 'samples_per_s') AS samples_per_s,
           median(value) FILTER (WHERE name = 'tokens_per_s') AS tokens_per_s
    FROM current_metrics
    WHERE name IN ('samples_per_s', 'tokens_per_s') AND isfinite(value) AND value > 0
    GROUP BY run_id
)
SELECT r.run_id, r.model, r.framework, r.status, r.world_size, r.dp, r.tp, r.pp, r.micro_batch_size,
       r.global_batch_size, r.hardware, r.config, r.job_id, j.spec AS job_spec,
       s.step_time_ms, s.n_steps, t.samples_per_s, t.tokens_per_s
FROM current_runs r
LEFT JOIN jobs j ON j.job_id = r.job_id
LEFT JOIN step_times s ON s.run_id = r.run_id
LEFT JOIN rates t ON t.run_id = r.run_id
ORDER BY r.run_id
"""


def runs_for_fit(db: PathLike) -> pd.DataFrame:
    """Every run with its layout, hardware, config, its job's spec and its measured speed (median
    ``step_time_ms`` after warm-up; ``samples_per_s`` / ``tokens_per_s`` where logs report those)."""
    with connect(db, read_only=True) as con:
        return execute(con, _RUNS_FOR_FIT).df()


def latest_fit(db: PathLike) -> dict[str, Any] | None:
    """The most recent row of ``cost_model_fits`` as a dict, or None."""
    with connect(db, read_only=True) as con:
        rows = con.execute(
            "SELECT fit_id, fitted_at, params, n_runs, mape, holdout_mape FROM cost_model_fits "
            "ORDER BY fitted_at DESC, fit_id LIMIT 1"
        ).fetchall()
    if not rows:
        return None
    keys = ("fit_id", "fitted_at", "params", "n_runs", "mape", "holdout_mape")
    return dict(zip(keys, rows[0], strict=True))


def cost_model_fits(db: PathLike, limit: int = 50) -> pd.DataFrame:
    with connect(db, read_only=True) as con:
        return con.execute(
            "SELECT * FROM cost_model_fits ORDER BY fitted_at DESC LIMIT ?", [limit]
        ).df()
