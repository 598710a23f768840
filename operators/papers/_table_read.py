"""The table around a claim's cell, read back from the text: its header (when its top row names columns), its
caption (the ``Table N`` paragraph above it, or below it), and its rows' cells. Every reader leaves a table as
lines of cells joined by `` | `` (``_tables`` says whose each cell's figure is and against what)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from assay.operators.papers._table_units import (
    CAPTION,
    VALUE_CELL,
    caption_above,
    caption_below,
    changed_figure,
    header_line,
)

CELL_SEP = " | "
#: Lines above a row looked at for its table's header and caption, and rows of a table read at most (a
#: dump of thousands of rows costs no more than this per claim).
_REACH = 60
#: A name that opens with its number, two capitals after it (``2BW``, ``1F1B``, ``3DMM``): a column's label, where
#: a figure writes at most one letter of unit glued to it (``4K``, ``8B``) or a unit in lower case (``10ms``).
NAMED_BY_A_NUMBER = re.compile(r"^\d+[A-Z][A-Za-z\d-]*[A-Z][A-Za-z\d-]*$")
_MAX_ROWS = 200
#: A cell holding a figure and, in brackets after it, its ratio to the baseline's (``79 ± 1 (x1.46)``): the
#: ratio is the cell's claim.
_BRACKETED_RATIO = re.compile(r"[\d.,]+(?:\s*±\s*[\d.,]+)?\s*[(（]\s*[x×]?\s*\d+(?:\.\d+)?\s*[x×%]?\s*[)）]")


@dataclass
class Table:
    """The table around one row: its header cells (none when the top row holds values), its caption, and
    its body rows' cells."""

    header: list[str]
    caption: str
    rows: list[list[str]]


@dataclass
class Cell:
    table: Table
    row: int
    column: int
    #: The row's offsets in the text.
    span: tuple[int, int]


def cell_of(text: str, start: int, end: int, cache: dict[int, Table | None] | None = None) -> Cell | None:
    """The table cell a claim at ``start:end`` fills on its own, with its table; None outside a table or
    when the number is only part of a cell's text."""
    lo, hi, line = _row_line(text, start, end)
    if CELL_SEP not in line:
        return None
    offset, column, cells = lo, None, line.split(CELL_SEP)
    for j, cell in enumerate(cells):
        if offset <= start and end <= offset + len(cell):
            column = j
        offset += len(cell) + len(CELL_SEP)
    if column is None:
        return None
    if not (VALUE_CELL.match(cells[column].strip()) or bracketed_ratio(cells[column]) or changed_figure(cells[column])):
        return None
    top = _table_top(text, lo)
    table = cache.get(top) if cache is not None and top in cache else _read_table(text, top)
    if cache is not None:
        cache[top] = table
    if table is None:
        return None
    stripped = [c.strip() for c in cells]
    row = next((i for i, r in enumerate(table.rows) if r == stripped), None)
    return None if row is None else Cell(table, row, column, (lo, hi))


def _row_line(text: str, start: int, end: int) -> tuple[int, int, str]:
    """The start, end and text of the line holding ``text[start:end]``; '' for a line that holds no cell separator
    or runs longer than a table's row does (``_ROW_REACH`` either side: a megabyte line of prose is not scanned
    once per claim on it)."""
    floor, ceiling = max(0, start - _ROW_REACH), min(len(text), end + _ROW_REACH)
    lo = text.rfind("\n", floor, start) + 1
    hi = text.find("\n", end, ceiling)
    if (lo == 0 and floor > 0) or (hi < 0 and ceiling < len(text)):
        return start, end, ""
    hi = ceiling if hi < 0 else hi
    return lo, hi, text[lo:hi] if text.find(CELL_SEP, lo, hi) >= 0 else ""


#: Characters a table's row runs at most either side of a number in it.
_ROW_REACH = 20_000


def _lines_around(text: str, at: int) -> tuple[int, str]:
    """The start and text of the line before the one starting at ``at``."""
    prev = text.rfind("\n", 0, max(0, at - 1)) + 1
    return prev, text[prev : at - 1]


def _table_top(text: str, row_start: int) -> int:
    """The start of the table's first row. Markdown's header row stands a blank line above the body (the
    rule line between them is dropped), so one blank line under a row that opens the table is crossed."""
    at = row_start
    for _ in range(_REACH):
        if at == 0:
            return at
        prev, line = _lines_around(text, at)
        if CELL_SEP in line:
            at = prev
            continue
        if not line.strip() and prev > 0:
            head_start, head = _lines_around(text, prev)
            above = _lines_around(text, head_start)[1] if head_start > 0 else ""
            if CELL_SEP in head and CELL_SEP not in above:
                return head_start
        return at
    return at


def _read_table(text: str, top: int) -> Table | None:
    lines: list[list[str]] = []
    at = top
    while at < len(text) and len(lines) < _MAX_ROWS:
        nl = text.find("\n", at)
        nl = len(text) if nl < 0 else nl
        line = text[at:nl]
        if not line.strip() and len(lines) == 1 and CELL_SEP in text[nl + 1 : text.find("\n", nl + 1)]:
            at = nl + 1  # the blank line where Markdown's rule under the header was
            continue
        if CELL_SEP not in line:
            break
        lines.append([c.strip() for c in line.split(CELL_SEP)])
        at = nl + 1
    if not lines:
        return None
    first = lines[0] = [c.strip() for c in header_line(text[top : text.find("\n", top)]).split(CELL_SEP)]
    has_header = not any(VALUE_CELL.match(c) and not NAMED_BY_A_NUMBER.match(c) for c in first[1:] if c)
    has_header = has_header and len(lines) > 1
    header, rows = (first, lines[1:]) if has_header else ([""] * len(first), lines)
    caption = caption_above(text, top)
    below = caption_below(text, at)
    if below and not CAPTION.match(caption):
        caption = below
    return Table(header, caption, rows)


def cell_context(
    text: str, start: int, end: int, cache: dict[int, tuple[int, tuple[int, int] | None]] | None = None
) -> tuple[list[tuple[int, int]], tuple[int, int], tuple[int, int] | None] | None:
    """For a number filling a table cell: the spans of what names its cell (the row's label, the column's
    header cell), the span of the whole table, from its top row to its last, and its caption's paragraph
    (above or below it, None without one); None outside a table. ``cache``: each table's end and caption by its
    top, for the cells of one text. A setting (a model, a GPU count) written in
    the table is the cell's only where its own label or header writes it, not where another column's does;
    the caption's holds for every cell."""
    lo, hi, line = _row_line(text, start, end)
    if CELL_SEP not in line:
        return None
    column = _column_at(line, start - lo)
    if column is None:
        return None
    label = (lo, lo + len(line.split(CELL_SEP)[0]))
    top = _table_top(text, lo)
    spans = [label]
    if top < lo:
        head_end = text.find("\n", top)
        head = _cell_span(text[top:head_end], column)
        if head is not None:
            spans.append((top + head[0], top + head[1]))
    if cache is not None and top in cache:  # (each table's end and caption read once, not once per cell)
        bottom, caption = cache[top]
        return spans, (top, bottom), caption
    bottom = hi
    while bottom < len(text):
        nxt = text.find("\n", bottom + 1)
        nxt = len(text) if nxt < 0 else nxt
        if CELL_SEP not in text[bottom + 1 : nxt]:
            break
        bottom = nxt
    caption = _caption_span(text, top, bottom)
    if cache is not None:
        cache[top] = (bottom, caption)
    return spans, (top, bottom), caption


def _caption_span(text: str, top: int, bottom: int) -> tuple[int, int] | None:
    """The paragraph of the table's caption (``caption_above``/``caption_below``), as a span of the text."""
    if caption_above(text, top):
        head = text[:top].rstrip("\n")
        return max(0, head.rfind("\n\n") + 2 if "\n\n" in head else 0), len(head)
    if caption_below(text, bottom):
        at = len(text[:bottom]) + len(text[bottom:]) - len(text[bottom:].lstrip("\n"))
        stop = text.find("\n\n", at)
        return at, len(text) if stop < 0 else stop
    return None


def _column_at(line: str, at: int) -> int | None:
    """Which cell of a row's line the offset ``at`` falls in."""
    offset = 0
    for j, cell in enumerate(line.split(CELL_SEP)):
        if offset <= at < offset + len(cell):
            return j
        offset += len(cell) + len(CELL_SEP)
    return None


def _cell_span(line: str, column: int) -> tuple[int, int] | None:
    """The offsets of a line's ``column``-th cell, if it has one."""
    offset = 0
    for j, cell in enumerate(line.split(CELL_SEP)):
        if j == column:
            return offset, offset + len(cell)
        offset += len(cell) + len(CELL_SEP)
    return None


def bracketed_ratio(cell: str) -> bool:
    """Whether a cell holds a figure and its ratio in brackets after it (``79 ± 1 (x1.46)``)."""
    return bool(_BRACKETED_RATIO.fullmatch(cell.strip()))
