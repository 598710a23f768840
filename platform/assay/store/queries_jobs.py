"""Queries over parallel-training jobs: the ``jobs`` queue, a job's run, metrics and allocations.

Each query opens the database read-only for one query. Writes (a rewind after a restart, a conditional state
change) are the writer's: ``assay.store.rewind_run`` and ``assay.store.set_state_if``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

import pandas as pd

from assay.store._connection import connect

PathLike = str | os.PathLike[str] | None



def jobs(db: PathLike, states: Iterable[str] | None = None) -> pd.DataFrame:
    """Jobs, oldest first; only those in ``states`` when given."""
    with connect(db, read_only=True) as con:
        if states:
            states = list(states)
            marks = ", ".join("?" for _ in states)
            return con.execute(f"SELECT * FROM jobs WHERE state IN ({marks}) ORDER BY submitted_at, job_id",
                               states).df()
        return con.execute("SELECT * FROM jobs ORDER BY submitted_at, job_id").df()


def job_last_steps(db: PathLike) -> dict[str, int]:
    """Each job's last step with a metric (over all its runs: a restarted job's newest), by job id."""
    with connect(db, read_only=True) as con:
        rows = con.execute("SELECT r.job_id, max(m.step) FROM metrics m JOIN runs r USING (run_id) "
                           "WHERE r.job_id IS NOT NULL GROUP BY r.job_id").fetchall()
    return {job_id: int(step) for job_id, step in rows if step is not None}


def job_rows(db: PathLike, states: Iterable[str]) -> list[dict[str, Any]]:
    """Jobs in ``states`` as plain dicts (Python datetimes, None for nulls), oldest first."""
    states = list(states)
    marks = ", ".join("?" for _ in states)
    with connect(db, read_only=True) as con:
        cur = con.execute(f"SELECT * FROM jobs WHERE state IN ({marks}) ORDER BY submitted_at, job_id", states)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def job(db: PathLike, job_id: str) -> dict[str, Any] | None:
    """One job's row as a dict (None if there is no such job)."""
    with connect(db, read_only=True) as con:
        cur = con.execute("SELECT * FROM jobs WHERE job_id = ?", [job_id])
        names = [d[0] for d in cur.description]
        rows = cur.fetchall()
    return dict(zip(names, rows[0], strict=True)) if rows else None


def find_jobs(db: PathLike, prefix: str) -> list[str]:
    """Job ids equal to or starting with ``prefix`` (so a CLI user can type a short id)."""
    with connect(db, read_only=True) as con:
        rows = con.execute("SELECT job_id FROM jobs WHERE job_id = ? OR starts_with(job_id, ?) ORDER BY job_id",
                           [prefix, prefix]).fetchall()
    return [r[0] for r in rows]


def job_metrics(db: PathLike, job_id: str, names: Iterable[str] | None = None) -> pd.DataFrame:
    """Metric rows of a job's run(s), by step."""
    query = ("SELECT m.* FROM metrics m JOIN runs r USING (run_id) WHERE r.job_id = ?")
    params: list[Any] = [job_id]
    if names:
        names = list(names)
        query += f" AND m.name IN ({', '.join('?' for _ in names)})"
        params += names
    with connect(db, read_only=True) as con:
        return con.execute(query + " ORDER BY m.name, m.step", params).df()


def job_events(db: PathLike, job_id: str) -> pd.DataFrame:
    with connect(db, read_only=True) as con:
        return con.execute("SELECT e.* FROM events e JOIN runs r USING (run_id) WHERE r.job_id = ? "
                           "ORDER BY e.ts, e.step", [job_id]).df()


def allocations(db: PathLike, job_id: str | None = None) -> pd.DataFrame:
    with connect(db, read_only=True) as con:
        if job_id:
            return con.execute('SELECT * FROM allocations WHERE job_id = ? ORDER BY "at"', [job_id]).df()
        return con.execute('SELECT * FROM allocations ORDER BY "at"').df()


def user_requests(db: PathLike, job_ids: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Resize and cancel requests (``allocations`` rows with ``source = 'user'``) not yet answered: newer
    than the job's latest allocation from any other source. Newest first per job."""
    query = """
        SELECT u.job_id, u."at", u.workers, u.plan, u.reason FROM allocations u
        WHERE u.source = 'user' AND u."at" > coalesce(
            (SELECT max(a."at") FROM allocations a WHERE a.job_id = u.job_id AND a.source IS DISTINCT FROM 'user'),
            TIMESTAMP '1970-01-01')
    """
    params: list[Any] = []
    if job_ids is not None:
        job_ids = list(job_ids)
        if not job_ids:
            return []
        query += f" AND u.job_id IN ({', '.join('?' for _ in job_ids)})"
        params = job_ids
    with connect(db, read_only=True) as con:
        rows = con.execute(query + ' ORDER BY u.job_id, u."at" DESC', params).fetchall()
    out = []
    for job_id, at, workers, plan, reason in rows:
        try:
            request = json.loads(plan).get("request") if plan else None
        except ValueError:
            request = None
        out.append({"job_id": job_id, "at": at, "workers": workers, "request": request or "resize",
                    "reason": reason})
    return out
