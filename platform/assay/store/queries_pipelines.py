"""Pipeline runs and what they quarantined."""

from __future__ import annotations

from typing import Any

import pandas as pd

from assay.store._read import PathLike, _in, read


def pipeline_names(db: PathLike) -> list[str]:
    df = read(db, "SELECT DISTINCT pipeline FROM pipeline_runs WHERE pipeline IS NOT NULL ORDER BY 1")
    return df["pipeline"].tolist()


def pipeline_runs(db: PathLike, pipelines: list[str] | None = None, limit: int = 200) -> pd.DataFrame:
    """Pipeline runs, newest first, with their rate in documents per second."""
    where, params = ("", []) if not pipelines else (f"WHERE pipeline IN {_in(pipelines)}", list(pipelines))
    return read(
        db,
        f"""
        SELECT pipeline_run_id, pipeline, status, n_in, n_ok, n_quarantined, started_at, finished_at,
               coalesce(seconds, epoch(finished_at) - epoch(started_at)) AS seconds,
               n_ok / nullif(coalesce(seconds, epoch(finished_at) - epoch(started_at)), 0) AS docs_per_s
        FROM pipeline_runs {where}
        ORDER BY started_at DESC NULLS LAST LIMIT ?""",
        [*params, int(limit)],
    )


def _quarantine_where(pipeline_run_ids: list[str] | None, level: str | None) -> tuple[str, list[Any]]:
    clauses, params = [], []
    if pipeline_run_ids:
        clauses.append(f"pipeline_run_id IN {_in(pipeline_run_ids)}")
        params += list(pipeline_run_ids)
    if level:
        clauses.append("coalesce(level, 'input') = ?")
        params.append(level)
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", params


def quarantine_reasons(
    db: PathLike, pipeline_run_ids: list[str] | None = None, level: str | None = None
) -> pd.DataFrame:
    """Quarantined inputs grouped by operator and the first line of the error."""
    where, params = _quarantine_where(pipeline_run_ids, level)
    return read(
        db,
        f"""
        SELECT operator, left(split_part(coalesce(error, ''), chr(10), 1), 200) AS reason,
               coalesce(level, 'input') AS level, count(*) AS inputs, max("at") AS last_seen
        FROM quarantine {where} GROUP BY ALL ORDER BY inputs DESC, operator""",
        params,
    )


def quarantined_inputs(
    db: PathLike, pipeline_run_ids: list[str] | None = None, level: str | None = None, limit: int = 500
) -> pd.DataFrame:
    where, params = _quarantine_where(pipeline_run_ids, level)
    return read(
        db,
        f"""
        SELECT q.pipeline_run_id, p.pipeline, q.source_uri, q.operator, q.error,
               coalesce(q.level, 'input') AS level, q."at"
        FROM quarantine q LEFT JOIN pipeline_runs p USING (pipeline_run_id) {where}
        ORDER BY q."at" DESC NULLS LAST LIMIT ?""",
        [*params, int(limit)],
    )


def runs_of_pipeline_run(db: PathLike, pipeline_run_id: str) -> pd.DataFrame:
    """The runs one pipeline run wrote (``source_uri``, ``framework``, ``config``), through the documents it
    read: what each log it read gave, for the per-file table ``assay run`` prints after it."""
    return read(
        db,
        "SELECT r.source_uri, r.framework, r.config FROM runs r JOIN documents d ON d.doc_id = r.doc_id "
        "WHERE d.pipeline_run_id = ?",
        [pipeline_run_id],
    )


def files_given_nothing(db: PathLike, pipeline_run_id: str) -> pd.DataFrame:
    """The inputs of one pipeline run quarantined whole (``source_uri``, ``error``): a file that could not be
    read, or was read to nothing (level ``file`` or ``input``; a record's own quarantine is left out)."""
    return read(
        db,
        "SELECT source_uri, error FROM quarantine WHERE pipeline_run_id = ? AND level IN ('file', 'input')",
        [pipeline_run_id],
    )
