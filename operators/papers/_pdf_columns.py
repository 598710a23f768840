"""The columns of a PDF page and the order a person reads its lines in.

A two-column page has a gutter: an x between 35 % and 65 % of the page's width that few wide lines cross.
What spans both columns is set apart first: a run of lines crossing the gutter at the page's top (the
title block: title, authors, affiliations, each line centred over the gutter) and one at its bottom
(footnotes set full width). Counted with the columns, the seven lines of an IEEE title block were enough
to call the whole first page one column, and its abstract and introduction were read interleaved line by
line. The title block is read first, the bottom run last, and the lines between band by band: a line
reaching well into both columns (a full-width figure's caption or table row) closes a band, and each
band's left column is read before its right one.
"""

from __future__ import annotations

from collections.abc import Sequence

from assay.operators.papers._pdf_layout import Line

#: A gutter may be crossed by a few lines (a wide caption, a full-width table's row), not by many.
_GUTTER_CROSSINGS = 0.06
#: A line wider than this share of the page crosses the gutter of a two-column page only if it is full-width.
_WIDE = 0.45
#: A line spans both columns when it reaches this share of the gutter's x into each.
_SPANNING = 0.2
#: A full-width table's row stands at most this many of its heights below the row above; none of its cells
#: on one side of the gutter is wider than this share of the gutter's x (a column's prose line is).
_TABLE_GAP = 1.5
_CELL = 0.5
#: The table's first row may stand further off the line above it (a caption set over the table with space under
#: it, as conference templates set them).
_FIRST_GAP = 3.0
#: Fewer lines than this (after the title block and the bottom run) are no two columns.
_MIN_LINES = 12
#: Each column holds at least this share of the lines between the title block and the bottom run.
_MIN_SIDE = 0.2


def gutter(lines: Sequence[Line], width: float) -> float | None:
    """The x of the vertical gap between two columns of text lines, or None for a one-column page.

    Only wide lines count as crossing it: a short centred line (an author's name) crosses any gutter.
    The rows crossing it at the page's top and bottom (``_spanning_ends``) are left out of the test."""
    if len(lines) < _MIN_LINES:
        return None
    # where the fewest lines of any width cross; whether few enough wide ones do decides
    x = min(
        (width * step / 100 for step in range(35, 66)),
        key=lambda x: sum(ln.left < x < ln.right for ln in lines),
    )
    _, middle, _ = _spanning_ends(lines, x)
    if len(middle) < _MIN_LINES:
        return None
    crossing = sum(1 for ln in middle if ln.right - ln.left > _WIDE * width and ln.left < x < ln.right)
    left = sum(1 for ln in middle if ln.right <= x)
    right = sum(1 for ln in middle if ln.left >= x)
    if crossing > _GUTTER_CROSSINGS * len(middle) or min(left, right) < _MIN_SIDE * len(middle):
        return None
    return x


def split_at(lines: list[Line], x: float | None) -> list[Line]:
    """Lines that PDFium joined across the gutter (two columns' lines on one baseline) cut there."""
    if x is None:
        return lines
    out = []
    for line in lines:
        left = [s for s in line.segments if s.right <= x + 1]
        right = [s for s in line.segments if s.right > x + 1]
        if left and right and max(s.right for s in left) <= x <= min(s.left for s in right) + 1:
            out += [Line(left), Line(right)]
        else:
            out.append(line)
    return out


def reading_order(lines: Sequence[Line], x: float | None) -> list[Line]:
    """The title block first; then band by band from the top, within a band the left column, then the
    right one; the bottom run last.

    Only a line reaching well into both columns (a wide caption, a full-width table's row) closes a band;
    one that pokes a little past the gutter (a long URL, a wide equation) belongs to the column holding
    most of it."""
    if x is None:
        return sorted(lines, key=lambda ln: -ln.top)
    top, middle, bottom = _spanning_ends(lines, x)
    reach = _SPANNING * x
    out: list[Line] = list(top)
    band_left: list[Line] = []
    band_right: list[Line] = []
    # the lines of a full-width table, read right after the full-width line above it (a caption, a header
    # line across the table, the top run of the page)
    table: set[int] = set()

    def table_below(k: int, low: float) -> list[Line]:
        rows = _table_below(middle, k, low, x)
        table.update(i for row in rows for i in row)
        return [middle[i] for row in rows for i in sorted(row, key=lambda i: middle[i].left)]

    if top:
        out += table_below(0, min(ln.bottom for ln in top))
    for k, line in enumerate(middle):
        if k in table:
            continue
        if line.left < x - reach and line.right > x + reach:  # a full-width line closes the band above it
            out += band_left + band_right + [line] + table_below(k + 1, line.bottom)
            band_left, band_right = [], []
        elif (line.left + line.right) / 2 <= x:
            band_left.append(line)
        else:
            band_right.append(line)
    return out + band_left + band_right + bottom


def _table_below(lines: Sequence[Line], k: int, low: float, x: float) -> list[list[int]]:
    """The rows of a full-width table from ``lines[k]`` on, right below a full-width line whose bottom is
    ``low`` (its caption, a header line across it, the page's top run), as places in ``lines`` row by row: rows of cells on both sides of the gutter,
    none of them a column's line of prose (one side's line wider than half a column), each row within
    ``_TABLE_GAP`` of its heights of the one above. Read band by band, the table's left half would come
    before the left column's prose below it and its right half after, and neither half is a grid. None (an
    empty list) unless two or more rows hold cells on both sides."""
    rows: list[list[int]] = []
    for i in range(k, len(lines)):
        line = lines[i]
        if rows and line.top > lines[rows[-1][0]].bottom:
            rows[-1].append(i)  # on the height of the row's first line
            continue
        if low - line.top > (_TABLE_GAP if rows else _FIRST_GAP) * (line.top - line.bottom):
            break
        rows.append([i])
        low = min(low, line.bottom)
    out: list[list[int]] = []
    for row in rows:
        if any(
            lines[i].right - lines[i].left > _CELL * x and not lines[i].left < x < lines[i].right for i in row
        ):
            break
        out.append(row)
        low = min(lines[i].bottom for i in row)
    both = sum(1 for row in out if min(lines[i].left for i in row) < x < max(lines[i].right for i in row))
    return out if both >= 2 else []


def _spanning_ends(lines: Sequence[Line], x: float) -> tuple[list[Line], list[Line], list[Line]]:
    """The page's lines top to bottom, cut into the run of rows crossing ``x`` at its top, the lines
    between, and the run of rows crossing it at its bottom. A row is the lines side by side on one height
    (authors set in a row of blocks); it crosses when one of its lines does."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: -ln.top):
        # on the height of the row's first line (no chain of overlaps down a column)
        if rows and line.top > rows[-1][0].bottom:
            rows[-1].append(line)
        else:
            rows.append([line])

    def crosses(row: list[Line]) -> bool:
        return any(ln.left < x < ln.right for ln in row)

    head = 0
    while head < len(rows) and crosses(rows[head]):
        head += 1
    tail = len(rows)
    while tail > head and crosses(rows[tail - 1]):
        tail -= 1

    def flat(part: list[list[Line]], by_row: bool = True) -> list[Line]:
        out = [ln for row in part for ln in sorted(row, key=lambda ln: ln.left)]
        return out if by_row else sorted(out, key=lambda ln: -ln.top)

    return flat(rows[:head]), flat(rows[head:tail], by_row=False), flat(rows[tail:])
