"""The job's row at the store's boundary: the states of ``jobs.state`` (defined in the domain,
:mod:`assay.domain.job_state`, and re-exported here for the store's queries and their readers), and the one
conversion between a :class:`~assay.domain.job.Job` and its ``jobs`` row, both ways.

Every writer of a job's row passes :func:`job_to_row`'s dict to ``write_rows``; every reader that changes a
job builds it with :func:`job_from_row`. The columns are the data contract (``store/_schema.py``): a job's
fields that are not columns (the pool its workers are bound to) are not stored in its row.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assay.domain.job import COLUMNS, Job
from assay.domain.job_state import (
    ACTIVE_STATES,
    ALL_STATES,
    FINAL_STATES,
    MOVES,
    WAITING_STATES,
    IllegalMove,
    JobState,
    check_move,
)

__all__ = ["ACTIVE_STATES", "ALL_STATES", "COLUMNS", "FINAL_STATES", "MOVES", "WAITING_STATES", "IllegalMove",
           "JobState", "check_move", "job_from_row", "job_to_row"]


def job_to_row(job: Job) -> dict[str, Any]:
    """The ``jobs`` row of ``job``: one value per column, the state as its plain string."""
    row = {column: getattr(job, column) for column in COLUMNS}
    row["state"] = str(job.state)
    return row


def job_from_row(row: Mapping[str, Any]) -> Job:
    """The :class:`Job` a ``jobs`` row holds (columns it lacks are None, other keys are ignored)."""
    values = {column: row.get(column) for column in COLUMNS}
    values["state"] = JobState(values["state"])
    for count in ("priority", "workers", "attempts"):
        values[count] = int(values[count] or 0)
    return Job(**values)
