"""A file that is a table of numbers, one row a line, columns apart by spaces or tabs: a training loop's
``results.txt`` (a row per epoch: ``3/299  7.38G  0.0862  0.0587 ...``, no header, four columns or more, one of them counting the rows) or a loss
history dump (``# step loss_train loss_test`` over its rows). With a header, each column is named by it; without
one, a column is ``column_<k>`` (its place, counted from 1), its numbers kept rather than lost. A header with no
``#`` is the line reader's table.

The step is a header's step key (or its ``epoch``), else the first column where it counts: a position with
its total (``3/299``, the 3) or a whole number that never goes down. Text in the file other than the table
(a blank line aside) makes it no such file: a log with prose lines goes to the line reader."""

from __future__ import annotations

import re

from assay.operators.logs._base import LogParser, head_lines, register_parser
from assay.operators.logs._losses import pick_loss
from assay.operators.logs._names import extra_metric_name, is_step_key, key_slug, metric_name
from assay.operators.logs._numbers import parse_quantity

#: A cell: a number, perhaps with a size's or a unit's letters (``7.38G``, ``640``, ``1e-05``), or a position with
#: its total (``3/299``).
_CELL = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)(?:[A-Za-z%]{1,3})?|\d+/\d+|nan|inf|-inf", re.I)
#: A header's cell: a key.
_KEY = re.compile(r"[A-Za-z_][\w/.@\-]*")
_MIN_ROWS = 3
_MIN_COLUMNS = 3
#: Columns a table with no header has at least: a row of a loop's results, not a line of a few numbers.
_MIN_BARE_COLUMNS = 4


def _cells(line: str) -> list[str]:
    return line.split()


def _header(line: str) -> list[str] | None:
    """A header's keys behind a comment's mark (``# step loss_train``), else None. A header without one is the
    line reader's (its tables know a total column and the units of a header's cells)."""
    if not line.lstrip().startswith("#"):
        return None
    keys = _cells(line.lstrip().lstrip("#"))
    return keys if len(keys) >= _MIN_COLUMNS and all(_KEY.fullmatch(k) for k in keys) else None


def _row(line: str) -> list[str] | None:
    cells = _cells(line)
    return cells if len(cells) >= _MIN_COLUMNS and all(_CELL.fullmatch(c) for c in cells) else None


def _step_of(cell: str) -> int | None:
    done = cell.split("/", 1)[0]
    return int(done) if done.isdigit() else None


def step_column(header: list[str] | None, rows: list[list[str]]) -> int | None:
    """Where the step is: a header's step key or epoch, else the first column of whole numbers (or positions
    with their totals) that never go down."""
    if header:
        named = [i for i, k in enumerate(header) if is_step_key(k)] or [
            i for i, k in enumerate(header) if key_slug(k) == "epoch"
        ]
        return named[0] if named else None
    for i in range(len(rows[0])):
        steps = [_step_of(row[i]) for row in rows]
        if None not in steps and all(a <= b for a, b in zip(steps, steps[1:], strict=False)) and len(set(steps)) > 1:
            return i
    return None


@register_parser
class NumberTableParser(LogParser):
    """A file of numeric rows, with or without a header of keys."""

    name = "number_table"
    framework = None
    chunkable = False
    priority = 11

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        lines = head_lines(head, 30, _MIN_ROWS)
        if lines and _header(lines[0]) is not None:
            width = len(_header(lines[0]) or [])
            lines = lines[1:]
        else:
            width = None
        rows = [_row(ln) for ln in lines]
        if len(rows) < _MIN_ROWS or None in rows:
            return 0.0
        widths = {len(r) for r in rows if r is not None}
        if len(widths) != 1 or (width is not None and widths != {width}):
            return 0.0
        if width is None and (widths.pop() < _MIN_BARE_COLUMNS or step_column(None, rows) is None):
            return 0.0  # a few bare numbers a line (``1 3 7``) may be anything; a results table counts its rows
        return 0.85

    def parse_file(self, path: str) -> None:
        out = self.out
        with open(path, encoding="utf-8", errors="replace") as f:
            numbered = [(n, ln) for n, ln in enumerate(f, start=1) if ln.strip()]
        if not numbered:
            return
        header = _header(numbered[0][1])
        if header is not None:
            numbered = numbered[1:]
        rows = []
        for line_no, text in numbered:
            row = _row(text)
            if row is None or (rows and len(row) != len(rows[0][1])):
                out.issue("not a row of the table's numbers", line_no)
                continue
            rows.append((line_no, row))
        if not rows:
            return
        width = len(rows[0][1])
        header = header if header is not None and len(header) == width else None
        step_at = step_column(header, [r for _, r in rows])
        words = {i: header[i] if header else f"column_{i + 1}" for i in range(width) if i != step_at}
        names = {i: (metric_name(w) or extra_metric_name(w)) if header else w for i, w in words.items()}
        names = {i: n for i, n in names.items() if n}
        pick_loss(names, words)
        for line_no, row in rows:
            step = _step_of(row[step_at]) if step_at is not None else None
            for i, name in names.items():
                parsed = parse_quantity(row[i])
                if parsed is not None:
                    out.metric(name, step, parsed[0], line_no)
