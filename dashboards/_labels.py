"""What a reader sees where a value is missing or a name is wanted: words that say what is missing (never
`nan`/`None`), run names, table cells, event kinds, and which runs a comparison opens with.

Kept apart from _frames (shaping numbers) because every view reads its labels through it: one place decides
how a missing name reads.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from assay.store import text_of

#: Cell texts that are a missing value printed by pandas or Python, never a name.
_MISSING_WORDS = frozenset({"", "nan", "NaN", "None", "<NA>", "NaT", "null"})


def name_or(value: Any, missing: str) -> str:
    """``value`` as a label, or ``missing`` (words saying what is missing: ``no metric``) when it is SQL NULL,
    NaN, blank, or the text a missing value prints as (``nan``, ``None``): a reader never sees those words as
    a name."""
    try:
        if value is None or (np.ndim(value) == 0 and pd.isna(value)):
            return missing
    except (TypeError, ValueError):
        pass
    text = str(value).strip()
    return missing if text in _MISSING_WORDS else text


def run_label(row: pd.Series | dict[str, Any]) -> str:
    """A short, readable name for a run: framework and model, its layout where known, the start of its id.

    A run imported from a log often has no framework or model: it is then ``unnamed run`` with its file's
    name, and a layout with no known degree (``dp?·tp?·pp?``) is left out rather than shown as question marks.
    """
    get = row.get
    name = " · ".join(p for p in (name_or(get("framework"), ""), name_or(get("model"), "")) if p)
    if not name:
        source = name_or(get("source_uri"), "").rstrip("/").rsplit("/", 1)[-1]
        name = f"unnamed run ({source})" if source else "unnamed run"
    degrees = {k: name_or(get(k), "?") for k in ("dp", "tp", "pp")}
    degrees = {k: v[:-2] if v.endswith(".0") else v for k, v in degrees.items()}
    layout = "·".join(f"{k}{v}" for k, v in degrees.items()) if set(degrees.values()) != {"?"} else ""
    if not layout and name_or(get("layout"), "") and "?" not in str(get("layout")):
        layout = str(get("layout"))
    parts = [name, layout, name_or(get("run_id"), "")[:6]]
    return " · ".join(p for p in parts if p)


def readable(df: pd.DataFrame) -> pd.DataFrame:
    """The frame as a table shows it: a missing text cell reads "—", not "None" or "nan"; numbers stay
    numbers (so they still sort and format) unless one is missing: then the column is text, each number to 4
    significant digits and the missing ones "—". An empty text stays empty (a view may mean "not checked")."""
    out = df.copy()
    for column in out.columns:
        values = out[column]
        if values.dtype == object or pd.api.types.is_string_dtype(values):
            out[column] = values.map(_cell_text)
        elif (
            pd.api.types.is_numeric_dtype(values)
            and not pd.api.types.is_bool_dtype(values)
            and values.isna().any()
        ):
            # A grid draws a missing number as "None": the column becomes text, its numbers written out.
            out[column] = values.map(lambda v: "—" if pd.isna(v) else f"{v:.4g}")
    return out


def _cell_text(value: Any) -> Any:
    """A table cell: "—" for a missing value; an empty text stays empty (a view may mean "not checked")."""
    if isinstance(value, list | tuple | dict | set | np.ndarray) or (isinstance(value, str) and not value):
        return value
    return "—" if name_or(value, "") == "" else value


#: How an event kind reads where a kind's stored name would read as a missing value (kind `nan`: a loss or
#: gradient that was not a number). Other kinds read as stored, underscores as spaces.
EVENT_KIND_NAMES = {"nan": "non-finite value"}


def event_kind_label(kind: Any) -> str:
    """``non-finite value`` for the stored kind ``nan``, ``skipped step`` for ``skipped_step``."""
    text = text_of(kind)
    return EVENT_KIND_NAMES.get(text, text.replace("_", " ") or "unknown event")


def origin(row: pd.Series | dict[str, Any]) -> str:
    """Where a run came from: ``job`` (the scheduler ran it) or ``log`` (imported from a training log)."""
    return "job" if name_or(row.get("job_id"), "") else "log"


def default_runs(runs: pd.DataFrame, n: int = 3) -> list[str]:
    """The runs a comparison opens with: the newest of each origin in turn (an imported log, a scheduler
    job, ...), so a database holding both never opens on scheduler jobs only. ``runs`` is newest first."""
    if runs.empty:
        return []
    queues = [
        g["run_id"].tolist()
        for _, g in runs.assign(_origin=[origin(r) for r in runs.to_dict("records")]).groupby(
            "_origin", sort=True
        )
    ]
    picked: list[str] = []
    while len(picked) < n and any(queues):
        for q in queues:
            if q and len(picked) < n:
                picked.append(q.pop(0))
    return picked



