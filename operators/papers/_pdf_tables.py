"""A PDF table read by the position of its cells, not flattened one cell a line.

PDFium gives a table's cells as separate runs (``_pdf_layout.lines_of`` cuts a line where the gap is wider
than an em), and the aside that holds them used to be read one cell a line: a row of results then had no
row and no column, and the sentence reader could not say which system a speedup was of. Here the cells
are put back in their grid by where they stand:

- **rows**: cells on one baseline (their boxes overlap by half a height) form a text row;
- **the header**: the rows above the first row that holds a value (a number, a ratio, a dash or a check
  mark) are the header, stacked cells of one column joined top to bottom (``Inter-GPU`` / ``Balance`` /
  ``Only``); a header cell spanning several columns is each one's; a group's title, standing over two or
  more columns' header cells below it (on one line or one a line), is the first level of the path of
  every column it reaches (``Speedup over X / Overall``): it is centred over its group and often narrower
  than it, so it reaches halfway to its neighbour titles; a header set further off than a row, or one cell
  a line, is still the header while its lines hold only short names over the columns; column names PDFium
  ran into one line are given word by word to the columns under them, and names set further apart than a
  title's words (``Share of`` and ``Achieved`` on one line) are each their own column's, no group's title;
- **cells**: a line of two or more values is cut into one cell a value (``_pdf_cells``: PDFium runs
  cells closer than an em into one, and glues ratios, ``1.94×3.29×``);
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
from collections.abc import Callable, Sequence

from assay.operators.papers._pdf_cells import UNIT_LABEL, Cell, Line, cut_values
from assay.operators.papers._pdf_headers import (
    TOUCH,
    column_of,
    groups,
    overlap,
    reach,
    run_titles,
    run_together,
    split_names,
    split_titles,
)
from assay.operators.papers._pdf_labels import label_columns, one_label

#: A value cell: a number with at most a short unit (``3.2x``, ``(1.19×)``, ``41%``, ``12.5 ms``), or a
#: mark that stands for a value (a dash, a check or a cross).
_VALUE = re.compile(
    r"^[(\[]?[-−+~≈<>]?\s*\d[\d.,]*\s*(?:[x×%]|[A-Za-z/]{1,4})?\s*[)\]]?$|^[(\[]?[-–—√✓✗×✔✘]+[)\]]?$"
)
_WHOLE = re.compile(r"\d+")
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
#: Header rows taken above the first body row as they are; further up (a caption or a paragraph above is no
#: header) only rows of short names over the columns, as past a gap of up to this many rows' heights.
_MAX_HEADER_ROWS = 6
_HEAD_GAP = 2.5
#: A table set in the body's font: its first line at most this many lines' heights from its caption, each
#: next line at most this many from the lines before it.
_CAPTION_GAP = 3.0
_ROW_GAP = 1.5


def is_value(text: str) -> bool:
    """Whether a cell holds a value rather than a name: what tells the body of a table from its header."""
    return bool(_VALUE.match(text.strip()))


def table_lines(block: Sequence[Line]) -> list[str] | None:
    """The block's lines as table rows (``a | b | c``, the header row first) when they form a grid of two
    or more columns and rows; None when they do not (a figure's labels, a legend, a footnote)."""
    rows = _text_rows(cut_values(block))
    first = next(
        (i for i, row in enumerate(rows) if len(row) >= 2 and any(_number(c.text) for c in row)), None
    )
    if first is None:
        return None
    settings = _settings_row(rows, first)
    transposed, first = settings != first, settings
    body_rows = rows[first:]
    if sum(1 for row in body_rows if len(row) >= 2) < _MIN_ROWS:
        return None
    cells = [c for row in body_rows for c in row]
    if sum(len(c.text.split()) > _CELL_WORDS for c in cells) > _PROSE_SHARE * len(cells):
        return None  # lines of prose in a small font side by side (the references' two columns), no table
    columns = _columns(cells)
    if len(columns) < 2:
        return None
    head_rows = _header(rows, first, columns)
    # what the block holds above the table (a figure's labels, a note) stays, one line a cell
    before = [c.text for row in rows[: first - len(head_rows)] for c in row]
    header = [""] * len(columns)
    grouped: set[int] = set()  # columns under a group's title: their own header is the path's next level
    own: set[int] = set()  # grouped columns whose own name has begun (its broken lines join with a space)
    for k, row in enumerate(head_rows):
        # the header's cells under this row, whatever their line: a header set one cell a line (each cell
        # a little higher or lower than its neighbours) still has its group's titles over its sub-headers
        lower = [c for below in head_rows[k + 1 :] for c in below]
        row = split_titles(row, head_rows[k + 1] if k + 1 < len(head_rows) else [], columns)
        for i, cell in enumerate(row):
            run = run_together(cell, columns)
            if run:  # two columns' names on one line ("Share of | Achieved"), no group's title
                for j, text in run:
                    sep = GROUP_SEP if j in grouped and j not in own and header[j] else " "
                    header[j] = f"{header[j]}{sep}{text}".strip()
                    own.update({j} & grouped)
                continue
            titles = run_titles(cell, columns) if lower else None
            if titles:  # a label column's name and groups' titles on one line: each over its own columns
                for span, text in titles:
                    for j in span:
                        header[j] = f"{header[j]} {text}".strip()
                        grouped.update({j} if len(span) > 1 else set())
                continue
            # a group's title over its sub-headers: their path's first level
            if groups(cell, lower, columns):
                for j in reach(row, i, columns, lower):
                    header[j] = f"{header[j]} {cell.text}".strip()
                    grouped.add(j)
                continue
            for j, text in split_names(cell, columns):
                sep = GROUP_SEP if j in grouped and j not in own and header[j] else " "
                header[j] = f"{header[j]}{sep}{text}".strip()
                own.update({j} & grouped)
    if transposed:  # the settings' numbers head their columns, their title the label column
        header = _place(rows[first - 1], columns)
        header[0] = " ".join(c.text for row in head_rows[:-1] for c in row) or header[0]
    grid = [_place(row, columns) for row in body_rows]
    labels = _label_columns(grid)
    centres = [_centre(row) for row in body_rows]
    lead = min(grouped, default=0)
    if lead > 1 and label_columns(grid, header, lead):
        # the columns before the groups' are the rows' label, sizes and counts among its parts
        grid, header, labels = (
            one_label(grid, lead, centres),
            [" ".join(header[:lead]), *header[lead:]],
            {0},
        )
    out = before + ([" | ".join(header)] if any(header) else [])
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
    # a header of group paths or stacked lines may be longer than a row (``_tables`` reads it as the table's
    # first line)
    checked = out[len(before) + 1 :] if grouped or len(head_rows) > 1 else out
    if any(len(row) > _ROW_CHARS for row in checked):
        return None  # no table's row (a diagram's labels): the structure reader would read it as prose
    return out


def body_grids(
    lines: Sequence[Line], captions: Sequence[Sequence[int]], is_cell: Callable[[Line], bool]
) -> set[int]:
    """The places of the lines of tables set in the body's font: from each table's caption (its first and
    last line's places), the lines right below it, else right above it, that may be cells (``is_cell``:
    short, of the body's size), follow one another closely from the caption on, and form a grid of two or
    more columns and rows (not prose, a figure's labels or an equation). A run with another cell line a
    little beyond its far end (within the caption's reach) is the tail of a bigger block, a table set
    looser than its rows or a figure's labels, and is no grid of its own: read whole, or not at all."""
    out: set[int] = set()
    for first, last in captions:
        for order, anchor in (
            (range(last + 1, len(lines)), lines[last]),
            (range(first - 1, -1, -1), lines[first]),
        ):
            run: list[int] = []
            low, high = anchor.bottom, anchor.top
            tail = False  # the run is the end of a bigger block: a cell line lies a little beyond it
            for k in order:
                line = lines[k]
                gap = max(line.bottom - high, low - line.top)
                height = line.top - line.bottom
                if k in out:
                    break
                if not is_cell(line):
                    # a short line that goes on with the run, too wide for a cell by the page's measure
                    # (a page of tables has a short one), is still the bigger block's
                    tail = bool(run) and gap <= _ROW_GAP * height and _short(line.text)
                    break
                if gap > (_ROW_GAP if run else _CAPTION_GAP) * height:
                    tail = bool(run) and gap <= _CAPTION_GAP * height
                    break
                low, high = (min(low, line.bottom), max(high, line.top)) if run else (line.bottom, line.top)
                run.append(k)
            if run and not tail and table_lines([lines[k] for k in run]) is not None:
                out.update(run)
                break
    return out


def _settings_row(rows: Sequence[Sequence[Line]], first: int) -> int:
    """The first body row of a transposed table: a first row of whole numbers only (``16 32 64 128``) over
    rows that each open with a measure writing its unit, left of them (``Energy Saving (%) 7.2 8.5 ...``; a
    model's name is a row of a table whose columns are settings, no measure) is the header, its numbers
    the settings of the columns (``# Shards`` over them is its title); the next row is the body's first."""
    row = rows[first]
    later = [r for r in rows[first + 1 :] if len(r) >= 2]
    if (
        all(_WHOLE.fullmatch(c.text.strip()) for c in row)
        and len(later) >= 1
        and all(UNIT_LABEL.search(r[0].text.strip()) and r[0].right <= min(c.left for c in row) for r in later)
    ):
        return first + 1
    return first


def _short(text: str) -> bool:
    """A cell's text, not a line of prose: a few words with no sentence end."""
    return len(text.split()) <= _CELL_WORDS and not text.rstrip().endswith((".", ":", ";"))


def _number(text: str) -> bool:
    return is_value(text) and any(ch.isdigit() for ch in text)


def _header(
    rows: Sequence[Sequence[Line]], first: int, columns: Sequence[tuple[float, float]]
) -> list[Sequence[Line]]:
    """The rows right above the first body row, up to a gap wider than a row (a header's stacked lines
    sit closer; what lies further up is no part of it).

    A header may stand further off (the rule under it set with space around it) or be set one cell a
    line (each cell a little off its neighbours' baseline, so every cell is a text row of its own): past
    one such gap (up to ``_HEAD_GAP`` rows' heights) or ``_MAX_HEADER_ROWS`` rows, a row is the header's
    only while every cell of it is a short name standing over the table's columns."""
    out: list[Sequence[Line]] = []
    below = rows[first]
    strict = False
    for row in reversed(rows[:first]):
        height = max(c.top - c.bottom for c in row)
        gap = min(c.bottom for c in row) - max(c.top for c in below)
        if gap > height:
            if strict or gap > _HEAD_GAP * height:
                break
            strict = True
        if len(out) >= _MAX_HEADER_ROWS:
            strict = True
        if strict and not _heads(row, columns):
            break
        out.insert(0, row)
        below = row
    return out


def _heads(row: Sequence[Line], columns: Sequence[tuple[float, float]]) -> bool:
    """Whether every cell of a row is a header's: a short name over one or more of the table's columns."""
    return all(
        not is_value(c.text)
        and len(c.text.split()) <= _CELL_WORDS
        and any(overlap(c, span) > 0 for span in columns)
        for c in row
    )


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
    others = [c for c in cells if not _number(c.text) and not any(overlap(c, span) > 0 for span in values)]
    return sorted(values + _merged(others))


def _merged(cells: Sequence[Line]) -> list[tuple[float, float]]:
    spans: list[list[float]] = []
    for cell in sorted(cells, key=lambda c: c.left):
        # cells cut from one glued run (``1.94×3.29×``) touch where they were cut: they stay apart
        reach = spans[-1][1] - (TOUCH if isinstance(cell, Cell) else 0.0) if spans else 0.0
        if spans and cell.left <= reach:
            spans[-1][1] = max(spans[-1][1], cell.right)
        else:
            spans.append([cell.left, cell.right])
    return [(a, b) for a, b in spans]


def _place(row: Sequence[Line], columns: Sequence[tuple[float, float]]) -> list[str]:
    cells = [""] * len(columns)
    for cell in row:
        j = column_of(cell, columns)
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
