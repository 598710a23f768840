"""A PDF table read by the position of its cells, not flattened one cell a line.

PDFium gives a table's cells as separate runs (``_pdf_layout.lines_of`` cuts a line where the gap is wider
than an em), and the aside that holds them used to be read one cell a line: a row of results then had no
row and no column, and the sentence reader could not say which system a speedup was of. Here the cells
are put back in their grid by where they stand:

- **rows**: cells on one baseline (their boxes overlap by half a height) form a text row;
- **the header**: the rows above the first row that holds a value (a number, a ratio, a dash or a check
  mark) are the header, stacked cells of one column joined top to bottom (``Inter-GPU`` / ``Balance`` /
  ``Only``); a header cell spanning several columns is each one's; a group's title, standing over two or
  more cells of the header line below it, is the first level of the path of every column it reaches
  (``Speedup over X / Overall``): it is centred over its group and often narrower than it, so it reaches
  halfway to its neighbour titles;
- **columns**: the x-ranges of the body rows' cells, overlapping ranges merged (a column's numbers are
  centred or aligned, so they overlap; two columns leave a gap); every cell goes to the column it
  overlaps most;
- **labels set between rows** (a model's name centred beside its two sub-rows): a row that holds only
  label cells is no row of its own; each body row takes the nearest label of an empty label column.

The table comes out as the lines every reader of the project gives a table (``a | b | c``, the header row
first; Markdown's and LaTeX's rows look the same), so the structure reader keeps it out of the prose and
``_tables`` reads its cells with their row and column. A ratio written in parentheses beside a
measurement's sub-row (``(1.19x)``) is written bare (``1.19x``): the parentheses only set it apart from the
time above it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol


class Line(Protocol):
    """A run of text on one line with its box (``_pdf_layout.Line``; PDF coordinates, y grows upwards)."""

    @property
    def left(self) -> float: ...
    @property
    def right(self) -> float: ...
    @property
    def top(self) -> float: ...
    @property
    def bottom(self) -> float: ...
    @property
    def text(self) -> str: ...


#: A value cell: a number with at most a short unit (``3.2x``, ``(1.19×)``, ``41%``, ``12.5 ms``), or a
#: mark that stands for a value (a dash, a check or a cross).
_VALUE = re.compile(
    r"^[(\[]?[-−+~≈<>]?\s*\d[\d.,]*\s*(?:[x×%]|[A-Za-z/]{1,4})?\s*[)\]]?$|^[(\[]?[-–—√✓✗×✔✘]+[)\]]?$"
)
#: Between the levels of a header's path: a group's title and the column's own header under it.
GROUP_SEP = " / "
_BARE_RATIO = re.compile(r"^\((?P<v>[-−+~≈]?\s*\d[\d.,]*\s*[x×%])\)$")
#: Rows whose boxes overlap by this share of the smaller height are one text row.
_SAME_ROW = 0.5
#: A table has at least this many body rows of two or more cells.
_MIN_ROWS = 2
#: The longest row written (the structure reader takes a longer line for prose, not a table's row).
_ROW_CHARS = 150
#: A cell of more words than this is a line of prose; a block with more than this share of them is none.
_CELL_WORDS = 6
_PROSE_SHARE = 0.25
#: Header rows looked at above the first body row (a caption or a paragraph above is no header).
_MAX_HEADER_ROWS = 6


def is_value(text: str) -> bool:
    """Whether a cell holds a value rather than a name: what tells the body of a table from its header."""
    return bool(_VALUE.match(text.strip()))


def table_lines(block: Sequence[Line]) -> list[str] | None:
    """The block's lines as table rows (``a | b | c``, the header row first) when they form a grid of two
    or more columns and rows; None when they do not (a figure's labels, a legend, a footnote)."""
    rows = _text_rows(block)
    first = next(
        (i for i, row in enumerate(rows) if len(row) >= 2 and any(_number(c.text) for c in row)), None
    )
    if first is None:
        return None
    head_rows, body_rows = _header(rows, first), rows[first:]
    if sum(1 for row in body_rows if len(row) >= 2) < _MIN_ROWS:
        return None
    cells = [c for row in body_rows for c in row]
    if sum(len(c.text.split()) > _CELL_WORDS for c in cells) > _PROSE_SHARE * len(cells):
        return None  # lines of prose in a small font side by side (the references' two columns), no table
    columns = _columns(cells)
    # what the block holds above the table (a figure's labels, a note) stays, one line a cell
    before = [c.text for row in rows[: first - len(head_rows)] for c in row]
    if len(columns) < 2:
        return None
    header = [""] * len(columns)
    grouped: set[int] = set()  # columns under a group's title: their own header is the path's next level
    for k, row in enumerate(head_rows):
        below = head_rows[k + 1] if k + 1 < len(head_rows) else []
        for i, cell in enumerate(row):
            if _groups(cell, below):  # a group's title over its sub-headers: the first level of their path
                for j in _reach(row, i, columns, below):
                    header[j] = f"{header[j]} {cell.text}".strip()
                    grouped.add(j)
                continue
            for j in _spanned(cell, columns):
                sep = GROUP_SEP if j in grouped and header[j] else " "
                header[j] = f"{header[j]}{sep}{cell.text}".strip()
    grid = [_place(row, columns) for row in body_rows]
    labels = _label_columns(grid)
    out = before + ([" | ".join(header)] if any(header) else [])
    centres = [_centre(row) for row in body_rows]
    _merge_strays(grid, centres, labels)
    for i, cells in enumerate(grid):
        if all(j in labels for j, text in enumerate(cells) if text) and not any(
            ch.isdigit() for text in cells for ch in text
        ):
            continue  # labels set between rows (or a stray merged into its row): given to the rows beside
        filled = list(cells)
        for j in labels:
            if not filled[j]:
                filled[j] = _nearest_label(grid, centres, i, j)
        out.append(" | ".join(_bare(text) for text in filled))
    # a header of group paths may be longer than a row (``_tables`` reads it as the table's first line)
    checked = out[len(before) + 1 :] if grouped else out
    if any(len(row) > _ROW_CHARS for row in checked):
        return None  # no table's row (a diagram's labels): the structure reader would read it as prose
    return out


def _number(text: str) -> bool:
    return is_value(text) and any(ch.isdigit() for ch in text)


def _header(rows: Sequence[Sequence[Line]], first: int) -> list[Sequence[Line]]:
    """The rows right above the first body row, up to a gap wider than a row (a header's stacked lines
    sit closer; what lies further up is no part of it)."""
    out: list[Sequence[Line]] = []
    below = rows[first]
    for row in reversed(rows[max(0, first - _MAX_HEADER_ROWS) : first]):
        height = max(c.top - c.bottom for c in row)
        if min(c.bottom for c in row) - max(c.top for c in below) > height:
            break
        out.insert(0, row)
        below = row
    return out


def _text_rows(block: Sequence[Line]) -> list[list[Line]]:
    rows: list[list[Line]] = []
    for line in sorted(block, key=lambda ln: -(ln.top + ln.bottom) / 2):
        if rows:
            ref = rows[-1][0]
            overlap = min(ref.top, line.top) - max(ref.bottom, line.bottom)
            if overlap >= _SAME_ROW * min(ref.top - ref.bottom, line.top - line.bottom):
                rows[-1].append(line)
                continue
        rows.append([line])
    return [sorted(row, key=lambda ln: ln.left) for row in rows]


def _columns(cells: Sequence[Line]) -> list[tuple[float, float]]:
    """Column x-ranges: the value cells' ranges, overlapping ones merged, then the ranges of the other
    cells (labels) that overlap no value column. A wide cell (a group's title across the table, a long
    note) so never joins two columns of numbers into one."""
    values = _merged([c for c in cells if _number(c.text)])
    others = [c for c in cells if not _number(c.text) and not any(_overlap(c, span) > 0 for span in values)]
    return sorted(values + _merged(others))


def _merged(cells: Sequence[Line]) -> list[tuple[float, float]]:
    spans: list[list[float]] = []
    for cell in sorted(cells, key=lambda c: c.left):
        if spans and cell.left <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], cell.right)
        else:
            spans.append([cell.left, cell.right])
    return [(a, b) for a, b in spans]


def _overlap(cell: Line, span: tuple[float, float]) -> float:
    return min(cell.right, span[1]) - max(cell.left, span[0])


def _column_of(cell: Line, columns: Sequence[tuple[float, float]]) -> int:
    centre = (cell.left + cell.right) / 2
    return max(
        range(len(columns)),
        key=lambda j: (_overlap(cell, columns[j]), -abs(centre - (columns[j][0] + columns[j][1]) / 2)),
    )


def _spanned(cell: Line, columns: Sequence[tuple[float, float]]) -> list[int]:
    """The columns a header cell stands over: those whose middle it covers, else the one it overlaps most."""
    over = [j for j, (a, b) in enumerate(columns) if cell.left <= (a + b) / 2 <= cell.right]
    return over or [_column_of(cell, columns)]


def _groups(cell: Line, below: Sequence[Line]) -> bool:
    """Whether a header cell is a group's title: it stands over two or more cells of the header row right
    below it (``Speedup over X`` above ``Stats. | Sys. | Overall``); a stacked line of one column's
    header (``Greedy`` above ``Packing``) stands over one."""
    return sum(1 for c in below if min(cell.right, c.right) - max(cell.left, c.left) > 0) >= 2


def _reach(
    row: Sequence[Line], i: int, columns: Sequence[tuple[float, float]], below: Sequence[Line]
) -> list[int]:
    """The columns a group's title stands over. A title is centred over its group and often narrower than
    it, so it reaches halfway to the next title on either side, and as far on its other side (mirrored
    about its centre) where it has no neighbour; a lone title reaches as far on either side as the far
    edge of the sub-headers it overlaps."""
    cell = row[i]
    centre = (cell.left + cell.right) / 2
    left = (row[i - 1].right + cell.left) / 2 if i > 0 else None
    right = (cell.right + row[i + 1].left) / 2 if i + 1 < len(row) else None
    if left is None and right is None:
        under = [c for c in below if min(cell.right, c.right) - max(cell.left, c.left) > 0]
        half = max(max(centre - c.left, c.right - centre) for c in under)
        left, right = centre - half, centre + half
    elif left is None:
        left = min(cell.left, 2 * centre - right)
    elif right is None:
        right = max(cell.right, 2 * centre - left)
    return [j for j, (a, b) in enumerate(columns) if left <= (a + b) / 2 <= right]


def _place(row: Sequence[Line], columns: Sequence[tuple[float, float]]) -> list[str]:
    cells = [""] * len(columns)
    for cell in row:
        j = _column_of(cell, columns)
        cells[j] = f"{cells[j]} {cell.text}".strip()
    return cells


def _label_columns(grid: Sequence[Sequence[str]]) -> set[int]:
    """The leading columns that hold names (most of their cells are no values): the rows' labels."""
    out: set[int] = set()
    for j in range(len(grid[0]) if grid else 0):
        texts = [row[j] for row in grid if row[j]]
        if not texts or sum(is_value(t) for t in texts) * 2 >= len(texts):
            break
        out.add(j)
    return out


def _merge_strays(grid: list[list[str]], centres: Sequence[float], labels: set[int]) -> None:
    """A row holding one value cell and no number (a check mark set a little off its row's baseline) joins
    the nearest row whose cell in that column is empty."""
    for i, cells in enumerate(grid):
        values = [j for j, text in enumerate(cells) if text and j not in labels]
        if len(values) != 1 or _number(cells[values[0]]):
            continue
        j = values[0]
        near = [(abs(centres[k] - centres[i]), k) for k in range(len(grid)) if k != i and not grid[k][j]]
        if near:
            k = min(near)[1]
            grid[k][j], cells[j] = cells[j], ""


def _centre(row: Sequence[Line]) -> float:
    return sum((c.top + c.bottom) / 2 for c in row) / len(row)


def _nearest_label(grid: Sequence[Sequence[str]], centres: Sequence[float], i: int, j: int) -> str:
    found = [(abs(centres[k] - centres[i]), k) for k in range(len(grid)) if grid[k][j]]
    return grid[min(found)[1]][j] if found else ""


def _bare(text: str) -> str:
    m = _BARE_RATIO.match(text)
    return m.group("v") if m else text.replace(" | ", " / ")
