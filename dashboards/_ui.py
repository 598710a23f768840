"""Streamlit glue shared by the views: which database, cached read queries, empty states, charts.

Queries go through ``query(fn, ...)``, ``fn`` a function of a store query module
(``assay.store.queries_<domain>``): each call opens the file read-only for one query (the pipelines and the
scheduler write it meanwhile) and its result is cached for ``ASSAY_DASHBOARD_TTL`` seconds, so paging
around does not re-read and new rows still show up within seconds.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd
import streamlit as st

from assay.dashboards import _labels
from assay.store import DatabaseBusy, NoDatabase, default_db_path
from assay.store.queries_knowledge import database_state

T = TypeVar("T")

TTL_S = float(os.environ.get("ASSAY_DASHBOARD_TTL", "10"))
FIRST_STEPS = {
    "papers": "assay run papers --input path/to/papers/",
    "logs": "assay run logs --input path/to/training/logs/",
    "jobs": "assay jobs submit pipelines/jobs/<spec>.yaml   # then: assay scheduler",
    "simulate": "assay simulate",
    "check": "assay check",
    "demo": "assay demo",
}


def db_path() -> Path:
    """The database: ``--db FILE`` after ``streamlit run app.py --``, else $ASSAY_DB, else ./assay.duckdb."""
    if Path(sys.argv[0]).name == "app.py" and "--db" in sys.argv[1:-1]:
        return Path(sys.argv[sys.argv.index("--db", 1) + 1]).resolve()
    return default_db_path().resolve()


# ``_fn`` is left out of the cache key (a leading underscore tells Streamlit so); ``name`` stands for it.
@st.cache_data(ttl=TTL_S, show_spinner=False, max_entries=512)
def _cached(_fn: Callable[..., Any], name: str, db: str, args: tuple[Any, ...],
            kwargs: tuple[tuple[str, Any], ...]) -> Any:
    return _fn(db, *args, **dict(kwargs))


def query(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(db, *args, **kwargs)`` for a store query ``fn``, cached for a few seconds.

    A database held by a writer for longer than the dashboard waits shows a notice instead of an error.
    """
    name = f"{fn.__module__}.{fn.__qualname__}"
    try:
        return _cached(fn, name, str(db_path()), tuple(args), tuple(sorted(kwargs.items())))
    except DatabaseBusy:
        st.warning(
            "The database is busy (a pipeline or the scheduler is writing a large batch). "
            "This page reloads its data on the next interaction.",
            icon=":material/hourglass:",
        )
        st.stop()
    except NoDatabase:
        empty_state(f"There is no database at `{db_path()}` yet.", "papers")
        st.stop()


def refresh() -> None:
    """Forget cached query results (the sidebar's refresh button)."""
    _cached.clear()


def guard_database() -> bool:
    """Show a first-steps notice and return False when the database is missing or not an assay database."""
    state = query(database_state)
    if state == "ready":
        return True
    if state == "no-schema":
        st.warning(f"`{db_path()}` is not an assay database (no assay tables).", icon=":material/error:")
    empty_state(f"Nothing to show yet: no assay database at `{db_path()}`.", "papers")
    return False


def empty_state(message: str, *steps: str) -> None:
    """A friendly notice with the commands that would fill this page."""
    commands = "\n".join(FIRST_STEPS.get(s, s) for s in steps)
    st.info(
        message + (f"\n\nTo fill it:\n```bash\n{commands}\n```" if commands else ""),
        icon=":material/lightbulb:",
    )


def sidebar() -> None:
    with st.sidebar:
        st.caption(f"Database: `{db_path()}`")
        if st.button("Refresh data", icon=":material/refresh:", help=f"Results are cached for {TTL_S:.0f} s"):
            refresh()


def plot(fig: Any, key: str | None = None) -> None:
    st.plotly_chart(fig, width="stretch", config={"displaylogo": False}, key=key)


def table(df: pd.DataFrame, **kwargs: Any) -> None:
    """A data frame across the page; missing text cells read "—" (never "None"), see ``_labels.readable``."""
    st.dataframe(_labels.readable(df), width="stretch", hide_index=True, **kwargs)


def when(value: Any, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """A timestamp for labels; "—" when missing."""
    return "—" if value is None or pd.isna(value) else pd.Timestamp(value).strftime(fmt)


def options(values: list[Any]) -> list[str]:
    """Filter choices as strings (database values may be numbers or null)."""
    return [str(v) for v in values if v is not None and not (isinstance(v, float) and pd.isna(v))]
