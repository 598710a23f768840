"""Read helpers shared by the store's query modules (``queries_*``): one read-only query per call.

Each query opens the file read-only and closes it (the pipelines and the scheduler write the same file
meanwhile; see docs/architecture.md), takes user text only as query parameters, and returns a pandas
DataFrame, a dict or a small dataclass. Queries read the ``current_*`` views (see ``_versions``): a
superseded version of a document is kept in the tables but left out of what is shown and checked.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from assay.errors import AssayError
from assay.store._connection import connect, default_db_path
from assay.store._versions import missing_views, plain

PathLike = str | os.PathLike[str] | None

#: How long a dashboard query waits for a writer to let go of the file; writers hold it for about a second.
READ_TIMEOUT_S = float(os.environ.get("ASSAY_DASHBOARD_LOCK_TIMEOUT", "20"))
#: Longest search text passed to a query; longer input is cut (it cannot match anything useful anyway).
MAX_SEARCH_CHARS = 200


class NoDatabase(AssayError, FileNotFoundError):
    """The dashboard was pointed at a file that does not exist (it never creates one)."""

    code = "E051"


def _path(db: PathLike) -> Path:
    path = Path(db) if db is not None else default_db_path()
    if not path.exists():
        raise NoDatabase(f"no database at {path}")
    return path


def read(db: PathLike, query: str, params: list[Any] | dict[str, Any] | None = None) -> pd.DataFrame:
    """Run one read-only query; the file is open only while it runs."""
    with connect(_path(db), read_only=True, timeout_s=READ_TIMEOUT_S) as con:
        return execute(con, query, params).df()


def execute(
    con: duckdb.DuckDBPyConnection, query: str, params: list[Any] | dict[str, Any] | None = None
) -> duckdb.DuckDBPyConnection:
    """Run a query over the ``current_*`` views (the knowledge without superseded document versions); on a
    file from before them (schema < 4, read as it is: readers never migrate) the same query over the tables,
    tried only when the first fails, so the common case runs once."""
    try:
        return con.execute(query, params if params is not None else [])
    except duckdb.CatalogException as exc:
        if not missing_views(exc):
            raise
        return con.execute(plain(query), params if params is not None else [])


def _in(values: list[Any] | tuple[Any, ...]) -> str:
    """Placeholders for an IN list (the values go in as parameters); an empty list matches nothing."""
    return "(" + ", ".join("?" for _ in values) + ")" if values else "(NULL)"


def _search(text: str | None) -> str:
    return (text or "").strip()[:MAX_SEARCH_CHARS]


def normalise(name: Any) -> str:
    """A name as compared across papers and logs: case-folded, letters and digits only (Megatron-LM ==
    megatron_lm); empty for missing values."""
    return re.sub(r"[\W_]+", "", str(name).casefold()) if isinstance(name, str) else ""


def _aliases(value: Any) -> list[str]:
    """An aliases cell (a list, an array or null: None, NaN or pandas' NA) as a list of non-empty strings."""
    if isinstance(value, str):
        return [value] if value else []
    try:
        return [a for a in value if isinstance(a, str) and a]
    except TypeError:  # a null of any kind
        return []


def text_of(value: Any) -> str:
    """A cell as text: SQL NULL arrives as None or as a float NaN in pandas, and both mean no text."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return str(value)
