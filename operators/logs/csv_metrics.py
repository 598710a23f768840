"""A metrics table written as CSV by any logger: a header of keys, then one row per record, cells empty where a
record logged nothing (Stable-Baselines3's and rllab's ``progress.csv``, a script's own ``csv.DictWriter``).
Lightning's ``metrics.csv`` keeps its own reader (``lightning``).

Columns whose cells are all text (a ``created_at`` timestamp, a run's name) ride along unread, as long as the
numbers outnumber them.

The step is the column whose key names a counter of the whole run (``time/total_timesteps``, ``global_step``),
else the first whose key names a step (``iteration``, ``n_updates``) and that never goes down, else the epoch's;
with none, a row keeps an unknown step (a row's position counts no step). Every other column with numbers is a series under
its standard name where assay knows it, and the loss is chosen by meaning as in text logs."""

from __future__ import annotations

import csv
import re

from assay.operators.logs._base import LogParser, head_lines, register_parser
from assay.operators.logs._losses import pick_loss
from assay.operators.logs._names import (
    counts_across_epochs,
    extra_metric_name,
    is_step_key,
    key_slug,
    metric_name,
)
from assay.operators.logs._numbers import parse_number
from assay.operators.logs._timestamps import find_timestamp

#: A header cell: a key, with ``/`` sections (``train/loss``), never a number.
_KEY = re.compile(r"[A-Za-z_][\w/.@\-]*")
#: A data cell: a number (or a non-finite one), or nothing.
_CELL = re.compile(r"\s*(?:[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)|nan|inf|-inf|NaN|Inf|-Inf)?\s*")


def _last_part(key: str) -> str:
    return key.rsplit("/", 1)[-1]


def _is_number(cell: str) -> bool:
    return bool(_CELL.fullmatch(cell))


def text_columns(width: int, rows: list[list[str]]) -> set[int]:
    """The columns whose filled cells are all text (a timestamp, a name): a table carries them beside its
    numbers, and they hold no series. A column with no filled cell is no text column."""
    filled = [[row[i].strip() for row in rows if i < len(row) and row[i].strip()] for i in range(width)]
    return {i for i, cells in enumerate(filled) if cells and not any(_is_number(c) for c in cells)}


def step_column(header: list[str], rows: list[list[str]]) -> int | None:
    """The column that holds the step: a run-wide counter first, else the first step key whose whole numbers
    never go down over ``rows``, else the epoch's (a table of one row per epoch)."""
    keyed = [i for i, key in enumerate(header) if is_step_key(_last_part(key))]
    ranked = sorted(keyed, key=lambda i: not counts_across_epochs(_last_part(header[i])))
    ranked += [i for i, key in enumerate(header) if key_slug(_last_part(key)) == "epoch"]  # one row per epoch
    for i in ranked:
        values = [parse_number(row[i]) for row in rows if i < len(row) and row[i].strip()]
        if values and all(v is not None and float(v).is_integer() for v in values) and all(
            a <= b for a, b in zip(values, values[1:], strict=False)
        ):
            return i
    return None


@register_parser
class CSVMetricsParser(LogParser):
    """A CSV table of metrics: header of keys, rows of numbers."""

    name = "csv_metrics"
    framework = None
    chunkable = False
    priority = 12

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        lines = head_lines(head, 12, 2)
        if len(lines) < 2:
            return 0.0
        header, *rows = list(csv.reader(lines))
        if len(header) < 3 or not all(_KEY.fullmatch(cell.strip()) for cell in header):
            return 0.0
        if not all(len(row) == len(header) for row in rows):
            return 0.0
        text = text_columns(len(header), rows)
        numbers = [i for i in range(len(header)) if i not in text]
        if len(numbers) < 2 or len(text) >= len(numbers):
            return 0.0
        if not all(_is_number(row[i]) for row in rows for i in numbers):
            return 0.0
        return 0.9 if any(row[i].strip() for row in rows for i in numbers) else 0.0

    def parse_file(self, path: str) -> None:
        out = self.out
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            reader = csv.reader(f)
            header = [c.strip() for c in next(reader, [])]
            rows = list(reader)
        if not header:
            return
        step_at = step_column(header, rows)
        text = text_columns(len(header), rows)
        names = {
            i: name
            for i, key in enumerate(header)
            if i != step_at and i not in text and (name := metric_name(key) or extra_metric_name(key))
        }
        pick_loss(names, dict(enumerate(header)))
        for line_no, row in enumerate(rows, start=2):
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                out.issue(f"row has {len(row)} fields, the header {len(header)}", line_no)
                continue
            for i in text:  # a row's own time (a ``created_at`` column) dates the run
                out.saw_time(find_timestamp(row[i]))
            step = None
            if step_at is not None and row[step_at].strip():
                number = parse_number(row[step_at])
                step = int(number) if number is not None and number == number else None
            for i, name in names.items():
                cell = row[i].strip()
                if not cell:
                    continue
                value = parse_number(cell)
                if value is None:
                    out.issue(f"not a number in column {header[i]!r}: {cell!r}", line_no)
                    continue
                out.metric(name, step, value, line_no)
