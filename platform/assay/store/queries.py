"""Read queries: plain functions over a database path, each opening it read-only for one query.

Every function takes the database path first and returns a pandas DataFrame or plain values; user text
is always passed as a parameter, never formatted into SQL.
"""

from __future__ import annotations

import os
from typing import Any

import duckdb
import pandas as pd

from assay.errors import AssayError
from assay.store._connection import connect
from assay.store._read import execute
from assay.store._versions import current

PathLike = str | os.PathLike[str] | None


def sql(db: PathLike, query: str, params: list[Any] | None = None) -> pd.DataFrame:
    """Run one read query and return its result as a DataFrame."""
    with connect(db, read_only=True) as con:
        return con.execute(query, params or []).df()


class QueryError(AssayError, ValueError):
    """A user's SQL that DuckDB refused (a syntax error, an unknown table or column): DuckDB's message."""

    code = "E052"


def user_query(db: PathLike, query: str) -> pd.DataFrame:
    """Run a query a person wrote (``assay query``), read-only; DuckDB's refusal becomes a ``QueryError``."""
    try:
        return sql(db, query)
    except duckdb.Error as exc:
        raise QueryError(" ".join(str(exc).split())) from exc


def counts(db: PathLike) -> dict[str, int]:
    """Rows per table of the knowledge graph, for overviews (superseded document versions left out)."""
    tables = ["documents", "entities", "mentions", "claims", "relations", "runs", "metrics", "events", "jobs",
              "pipeline_runs", "quarantine"]
    with connect(db, read_only=True) as con:
        union = " UNION ALL ".join(f"SELECT '{t}' AS t, count(*) AS n FROM {current(t)}" for t in tables)
        return {t: int(n) for t, n in execute(con, union).fetchall()}


def pipeline_runs(db: PathLike, limit: int = 50) -> pd.DataFrame:
    return sql(db, "SELECT * FROM pipeline_runs ORDER BY started_at DESC LIMIT ?", [limit])


def quarantine(db: PathLike, pipeline_run_id: str | None = None) -> pd.DataFrame:
    if pipeline_run_id:
        return sql(db, "SELECT * FROM quarantine WHERE pipeline_run_id = ? ORDER BY \"at\"", [pipeline_run_id])
    return sql(db, "SELECT * FROM quarantine ORDER BY \"at\" DESC")
