"""Tables of a header row and rows of numbers under it (``step  loss  lr`` then ``10  2.31  3e-4``): which
line is a header, its column names, and a row's values as metric rows at the row's step.

Why a module of its own: a table is read by its layout (where the columns stand), not by the line templates
the general reader mines, so its rules are apart from the miner's."""

from __future__ import annotations

import re

from assay.operators.logs._collect import Collector
from assay.operators.logs._fields import loss_by_ending, pick_loss, series_name
from assay.operators.logs._names import is_step_key, key_slug, metric_name
from assay.operators.logs._numbers import memory_of, parse_quantity

#: A table's header row (``step  loss  lr``) and its rows of numbers.
_COLUMN = r"[A-Za-z_][\w/.\-():%]*"
HEADER = re.compile(rf"^\s*{_COLUMN}(?:(?:\s{{2,}}|\t|\s*[|,]\s*){_COLUMN}(?: {_COLUMN})*)+\s*$")
_BAR_TAIL = re.compile(r"\s\d{1,3}%\|")


def column_of_a_log(column: str) -> bool:
    """A header's column that says the table is a training log's: a step, an epoch, a metric, a loss term."""
    slug = key_slug(column)
    return is_step_key(column) or slug == "epoch" or bool(metric_name(column)) or bool(loss_by_ending(slug))


_ROW_SPLIT = re.compile(r"\s*[|,\t]\s*|\s+")
#: Between the columns of a header whose names are several words (``Step<TAB>Training Loss``).
_WIDE_SPLIT = re.compile(r"\s*[|,\t]\s*|\s{2,}")


def columns(header: str) -> list[str]:
    """A header's column names: split where the header puts its wide separators (a tab, ``|``, two spaces)
    when it has them, so that ``Training Loss`` stays one column; else at every space."""
    wide = [c for c in _WIDE_SPLIT.split(header.strip()) if c]
    return wide if len(wide) > 1 else [c for c in _ROW_SPLIT.split(header.strip()) if c]


#: A row of numbers under a header; a cell may be a counter with its total (``3/50``) or carry a unit (``4.1G``),
#: and the row may end in a progress bar (``640: 100%|###| 32/32 [...]``).
_CELL = r"[-+]?(?:\d|\.\d)[\d.eE+\-]*(?:/\d+|[KMGT]i?B?|%)?"
NUMBER_ROW = rf"^\s*{_CELL}(?:(?:\s+|\s*[|,]\s*)(?:{_CELL}|nan|inf))+(?::?\s+\d{{1,3}}%\|.*)?\s*$"


def table_row(
    out: Collector, header: list[str], text: str, line_no: int, rank: int | None, current: int | None
) -> bool:
    """``text`` read as a row of the table under ``header``: its values as metric rows (at the step its step
    column says, else at ``current``, the step of the lines before); False when it is no row of that table."""
    bar = _BAR_TAIL.search(text)  # a row that ends in its batch bar (``... 640: 100%|####| 32/32 [...]``)
    cells = [c.rstrip(":") for c in _ROW_SPLIT.split(text[: bar.start()].strip() if bar else text.strip()) if c]
    if len(cells) != len(header):
        return False
    values = [parse_quantity(c) for c in cells]
    if any(v is None for v in values):
        return False
    # the step column: a step key, else the epoch of a table with one row per epoch (YOLOv5's results.csv)
    at = next((i for i, c in enumerate(header) if is_step_key(c)), None)
    if at is None:
        at = next((i for i, c in enumerate(header) if key_slug(c) == "epoch"), None)
    step = int(values[at][0]) if at is not None and float(values[at][0]).is_integer() else None
    if step is None:
        step = current
    metrics = {i: name for i, column in enumerate(header) if i != at and (name := series_name(column))}
    pick_loss(metrics, dict(enumerate(header)))
    _total_as_loss(header, [v[0] for v in values], metrics)
    for i, name in metrics.items():
        value = memory_of(cells[i]) if name == "memory_mb" else values[i][0]
        if value is not None:
            out.metric(name, step, value, line_no, rank)
    return True


def _total_as_loss(header: list[str], values: list[float], metrics: dict[int, str]) -> None:
    """A table's ``total`` column that is the sum of the two or more columns right before it (YOLO's ``box obj
    cls total``) is the objective those terms add up to: the loss, when no column is named the loss."""
    if "loss" in metrics.values():
        return
    for i, column in enumerate(header):
        if key_slug(column) not in ("total", "sum", "total_loss") or i < 2:
            continue
        for start in range(i - 2, -1, -1):
            parts = values[start:i]
            if all(v >= 0 for v in parts) and abs(sum(parts) - values[i]) <= 1e-3 * max(abs(values[i]), 1e-9) + 5e-5:
                metrics[i] = "loss"
                return
