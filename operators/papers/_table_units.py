"""A table's numbers whose unit stands in their column's header, and the rows labelled by a setting.

A results table often writes its unit once, in the header (``% of Peak``, ``Overhead (%)``, ``Speedup (x)``,
``MFU %``), and leaves its cells bare (``512 | 5B | 80.8 | 50.6``): each bare number of such a column is a
ratio in that unit. Its rows are often labelled by the setting they were measured in rather than by a name:
a GPU count (``512``), a batch size (``16.8M``), a resolution (``256 × 256``); such a row is labelled by its
first cell and the first column's header (``# GPUs=512``).

Rows come from every reader as lines of cells joined by `` | `` (Markdown, LaTeX ``tabular``, a PDF's grid),
the header row first. Why a module of its own: the claim finder (``_claims``) asks it for the bare numbers
of unit columns and the clause test (``_clause``) for a row's label and header, and neither needs the other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

CELL_SEP = " | "
#: How far above a row its header row is looked for (characters).
REACH = 2000
#: A header cell that carries its column's unit: a percent sign (``% of Peak``, ``Overhead (%)``, ``MFU %``)
#: or a multiple in brackets (``Speedup (x)``, ``(×)``).
_PERCENT_HEAD = re.compile(r"(?:^|[\s(/\[])[%％](?=$|[\s)/\]])|[(\[]\s*[%％]\s*[)\]]")
_TIMES_HEAD = re.compile(r"[(\[]\s*[x×]\s*[)\]]", re.I)
#: A header that names a speedup and nothing else (``Speedup``, ``Training speed-up``, ``Speedup over GPipe``), or
#: a time's improvement (``Time Improvement``: a time improves by a factor, a share would carry its ``%``): a
#: multiple by definition, so its bare numbers are multiples.
_SPEEDUP_HEAD = re.compile(
    r"^\s*(?:(?:[A-Za-z-]+\s+)?speed-?ups?|(?:[A-Za-z-]+\s+)?(?:time|runtime|latency|speed)\s+improvements?)"
    r"(?:\s+(?:over|vs\.?|versus)\s+[^()\d]{1,40})?\s*$"
    # a header that is only what the column is set against (``v.s. kv fp16``, ``vs. Baseline``, ``relative to
    # FP16``): each cell is the row's figure as a multiple of it
    r"|^\s*(?:v\.?\s?s\.?|versus|relative\s+to|normali[sz]ed\s+to)\s+(?=[^()\d]*[A-Za-z])[^()]{1,40}$",
    re.I,
)
#: A caption's unit for the whole table (``Mean hit rate ($\%$) over three runs``): one in brackets.
_CAPTION_UNIT = re.compile(r"[(\[]\s*(?P<u>[%％]|[x×])\s*[)\]]", re.I)
#: A caption that says its table holds speedups, a multiple by definition, and nothing else (``Average speedups
#: of four kernels over GEMM``; not ``Speedup and memory of ...``): its bare numbers are multiples.
_SPEEDUP_CAPTION = re.compile(
    r"^\s*(?:(?:Table|Tab\.)\s*[0-9IVX]+[a-z]?\s*[:.|–—-]?\s*)?"
    r"(?:(?:average|mean|median|overall|end-to-end|relative|normali[sz]ed)\s+)*speed-?ups?\b(?!\s*(?:and|&|,))",
    re.I,
)
#: A header that is the quotient of two names (``Im2col/ZConv``, ``LibTorch/ LibTorch-ZConv``): each side a name of
#: two characters or more with a capital or a digit, so a rate's unit (``tok/s``, ``GB/s``, ``ms/iter``) is none.
QUOTIENT_HEAD = re.compile(
    r"^\s*(?P<a>(?=[\w.+-]*[A-Z0-9])[A-Za-z][\w.+-]+)\s*/\s*(?P<b>(?=[\w.+-]*[A-Z0-9])[A-Za-z][\w.+-]+)\s*$"
)
#: A caption that says its table holds ratios (``Peak memory ratio (Baseline/Ours)``, ``normalized to ...``).
_RATIO_CAPTION = re.compile(r"\bratios?\b|\bnormali[sz]ed\b|\brelative\b", re.I)
#: A header cell writing a unit of its own in brackets (``Time (ms)``, ``Size [GB]``).
_OWN_UNIT = re.compile(r"[(\[][^()\[\]]{1,12}[)\]]")
#: A table's caption: ``Table N`` opening it (a PDF's, a Markdown file's), or a LaTeX caption on a line of its own.
CAPTION = re.compile(r"^\s*(?:Table|Tab\.|表)\s*[0-9IVX]+[a-z]?\s*[:.|–—-]?", re.I)
#: The spread written after a cell's mean (``39.9 ± 2.2``, ``0.8 +/- 0.1``, ``41% ± 3%``): the mean is the cell's
#: figure, the spread no claim; a figure given with its spread over runs is a measurement, never a setting.
SPREAD = r"\s*(?:±|\+/?-)\s*\d+(?:\.\d+)?\s*(?:[%％x×](?!\w))?"
SPREAD_AT = re.compile(SPREAD)
#: A bare number filling a cell of its own (no unit of its own), perhaps with its spread; a sign written before
#: it (``−0.3`` with a minus sign or a hyphen, ``+1.2``) is the number's (a negative change keeps its sign, P8).
BARE_CELL = re.compile(
    rf"\s*[~≈]?\s*(?P<num>[-−+]?(?:\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?))(?P<spread>{SPREAD})?\s*"
)
#: A first cell that is the row's setting, not a name: a count or size (``512``, ``4,096``, ``16.8M``, ``2K``),
#: a resolution or shape (``256 × 256``), an assignment (``BS = 4`` starts with a letter and needs no rule).
_SIZE = r"\d[\d,]*(?:\.\d+)?\s*(?:[KMBGT]|k)?"
#: A shape's factors may carry their size's letter each (``64×0.5K``) and a mix of shapes is joined by plus
#: signs (``2×32K + 30×4K``): a setting still.
SETTING_CELL = re.compile(
    rf"\s*[~≈]?\s*{_SIZE}\s*(?:[x×]\s*{_SIZE}\s*)*(?:\+\s*{_SIZE}\s*(?:[x×]\s*{_SIZE}\s*)*)*[*†‡]?\s*"
)
#: A count with what it counts, perhaps a note after it (``2,048 tokens``, ``16 GPUs``, ``256 token (default)``):
#: a setting as much as the bare count is.
_COUNTED_CELL = re.compile(
    rf"\s*{_SIZE}\s*(?:tokens?|GPUs?|TPUs?|NPUs?|chips?|nodes?|servers?|machines?|hosts?|instances?|devices?|workers?"
    r"|ranks?|replicas?|cores?|requests?|sequences?|samples?|steps?|layers?"
    r"|experts?|clients?|users?|GB|MB|TB)\s*(?:[(（][^)）]{1,12}[)）])?\s*",
    re.I,
)


def setting_cell(label: str) -> bool:
    """Whether a row's label is its setting (a count, a size, a shape, a count with its noun), not a name."""
    return bool(SETTING_CELL.fullmatch(label) or _COUNTED_CELL.fullmatch(label))

#: A cell that holds a figure: a signed or bounded number with a short unit (``3.8%``, ``-1.2x``, ``<5 ms``), and
#: perhaps a mark after it (``1.91x ⚡``, ``2.1x†``).
VALUE_CELL = re.compile(
    rf"^[(\[]?[-−+~≈<>]?\s*\d[\d.,]*\s*[^\s\d]{{0,4}}(?:{SPREAD})?\s*[)\]]?(?:\s*[^\w\s]{{1,2}})?$"
)


#: A cell holding a figure and its change after it, marked by an arrow or a sign in brackets (``57,458M ▼37.7%``,
#: ``92 GB (-15.1%)``); group ``r`` the change.
_CHANGE_AFTER_FIGURE = re.compile(
    r"\s*[\d.,]+\s*[A-Za-z]{0,3}\s*(?P<r>[(\[]?\s*[▼▲↓↑]\s*[\d.]+\s*(?:%|％|[x×])\s*[)\]]?"
    r"|[(\[]\s*[-−+]\s*[\d.]+\s*(?:%|％)\s*[)\]])\s*"
)


def changed_figure(cell: str, at: int | None = None) -> bool:
    """Whether a cell is a figure with its change after it (``57,458M ▼37.7%``), and (where ``at``, an offset into
    the cell, is given) whether the number there is the change."""
    m = _CHANGE_AFTER_FIGURE.fullmatch(cell)
    return m is not None and (at is None or at >= m.start("r"))


def column_unit(header: str) -> str | None:
    """The unit a header cell gives its column's bare numbers: ``%``, ``x`` or None."""
    if _PERCENT_HEAD.search(header):
        return "%"
    if _TIMES_HEAD.search(header) or _SPEEDUP_HEAD.match(header):
        return "x"
    return None


def column_units(text: str, top: int) -> list[str | None]:
    """The unit each column of the table whose first row starts at ``top`` gives its bare numbers: its header
    cell's; where no header cell writes one, the caption's, when it writes exactly one in brackets (``Mean hit
    rate ($\\%$)``, ``(x)``), for every column but the first and those whose header writes a unit of its own,
    where the header has as many cells as every row."""
    head = header_line(_line(text, top)).split(CELL_SEP)
    units = [column_unit(c) for c in head]
    if any(units):
        return _spanned(units, head, text, top)
    end, widths = top, set()
    while CELL_SEP in _line(text, end):
        widths.add(header_line(_line(text, end)).count(CELL_SEP))
        end += len(_line(text, end)) + 1
    if len(widths) > 1:
        return units  # a header not aligned with its rows' cells: which column is which is not known
    caption = caption_above(text, top) or caption_below(text, end)
    if _RATIO_CAPTION.search(caption) and any(QUOTIENT_HEAD.match(c) for c in head[1:]):
        # a table of ratios whose columns name what is divided by what: each such column's numbers are multiples
        return [None if j == 0 or not QUOTIENT_HEAD.match(c) else "x" for j, c in enumerate(head)]
    found = {"%" if m["u"] in "%％" else "x" for m in _CAPTION_UNIT.finditer(caption)}
    if not found and _SPEEDUP_CAPTION.match(caption):
        found = {"x"}
    if len(found) != 1:
        return units
    unit = found.pop()
    return [None if j == 0 or _OWN_UNIT.search(c) else unit for j, c in enumerate(head)]


def quotient_names(header: str, caption: str) -> tuple[str, str] | None:
    """``(numerator, denominator)`` of a header that divides one name by another in a table whose caption says it
    holds ratios (``Peak memory ratio (Baseline/Ours)`` over ``Im2col/ZConv``), else None."""
    m = QUOTIENT_HEAD.match(header)
    return (m["a"], m["b"]) if m and _RATIO_CAPTION.search(caption) else None


def _spanned(units: list[str | None], head: list[str], text: str, top: int) -> list[str | None]:
    """A group's title centred over its columns, as a PDF's grid leaves it: written over the middle ones only
    (`` | Savings (%) | Savings (%) | ``), the empty header cells beside them are its columns too, where the
    rows' cells under them hold decimals as the titled columns' do (not counts, not labels)."""
    spread = list(units)
    for step in (1, -1):
        for j in range(1, len(head))[::step]:
            k = j - step
            if spread[j] is None and not head[j].strip() and 0 < k < len(head) and spread[k]:
                if _decimals_under(text, top, j):
                    spread[j] = spread[k]
    return spread


def _header_continued(
    text: str, top: int, at: int, row: list[tuple[int, str]], units: list[str | None]
) -> bool:
    """Whether the table's first body row is its header's second line: whole numbers in every unit column
    (the settings a group spans, ``Savings (%) given # microbatches`` over ``12 | 24 | 48``) where the rows
    below hold decimals."""
    if at != top + len(_line(text, top)) + 1:
        return False
    columns = [j for j, (_, c) in enumerate(row) if j < len(units) and units[j] and BARE_CELL.fullmatch(c)]
    return bool(columns) and all(
        "." not in row[j][1] and _decimals_under(text, top, j) for j in columns
    )


def _decimals_under(text: str, top: int, column: int) -> bool:
    """Whether the body rows' cells in ``column`` that hold numbers all hold decimals (two or more of them); a
    first row of whole numbers is the second line of a header (``12 | 24 | 48``: the settings the group spans)."""
    at, found, first = top + len(_line(text, top)) + 1, 0, True
    while CELL_SEP in _line(text, at):
        row = header_line(_line(text, at)).split(CELL_SEP)
        cell = row[column].strip() if column < len(row) else ""
        if BARE_CELL.fullmatch(cell):
            if "." not in cell and not first:
                return False
            found += "." in cell
        first = False
        at += len(_line(text, at)) + 1
    return found >= 2


def cells(row: str, offset: int) -> list[tuple[int, str]]:
    """A row's cells with their offsets in the text (``offset``: where the row starts)."""
    out = []
    for cell in row.split(CELL_SEP):
        out.append((offset, cell))
        offset += len(cell) + len(CELL_SEP)
    return out


def table_top(text: str, row_start: int) -> int:
    """Where the table holding the row at ``row_start`` starts: rows above it are crossed, and a blank line
    between rows of as many cells (Markdown sets its header a blank line above the body); a blank line under
    rows of another width parts two tables."""
    top, at, floor, blank = row_start, row_start, max(0, row_start - REACH), False
    while at > floor:
        prev = text.rfind("\n", 0, at - 1) + 1
        line = text[prev : at - 1]
        if CELL_SEP in line:
            if blank and line.count(CELL_SEP) != _line(text, top).count(CELL_SEP):
                break
            top, blank = prev, False
        elif line.strip():
            break
        else:
            blank = True
        at = prev
    return top


def _line(text: str, start: int) -> str:
    end = text.find("\n", start)
    return text[start : len(text) if end < 0 else end]


def header_row(text: str, row_start: int) -> str:
    """The topmost row of the table the row at ``row_start`` belongs to (its header when it names columns);
    '' when the row is the table's first."""
    top = table_top(text, row_start)
    return "" if top == row_start else header_line(_line(text, top))


def header_line(line: str) -> str:
    """A header row whose first cell is empty as the PDF reader leaves it, its lines stripped (``| Speedup |
    Memory``), given back that cell (`` | Speedup | Memory``), so its cells stand over the rows' cells; the arrows
    that say which way is better (``Speed-up ↑``, ``Time (sec) ↓``) left out, as no word of what a column is."""
    line = _BETTER_ARROW.sub("", line)
    return f" {line}" if line.startswith(CELL_SEP.lstrip()) else line


#: An arrow after a header's words saying which way is better, bare or in brackets.
_BETTER_ARROW = re.compile(r"[ \t]*(?:[(（][ \t]*[↑↓⇑⇓][ \t]*[)）]|[↑↓⇑⇓])")


_UNIT_ONE = re.compile(r"1\.0+")


def _names_the_row(text: str, top: int, column: int, row: list[tuple[int, str]]) -> bool:
    """Whether the header over ``column`` names one of the row's label cells (``v.s. kv fp16`` over ``fp16``)."""
    end = text.find("\n", top)
    header = cells(text[top : len(text) if end < 0 else end], top)
    if column >= len(header):
        return False
    words = set(re.findall(r"[\w.+-]+", header[column][1].lower()))
    return any(c.strip().lower() in words for _, c in row if c.strip() and not BARE_CELL.fullmatch(c))


def unit_cells(text: str, lo: int, hi: int) -> Iterator[tuple[int, int, str, str]]:
    """The bare numbers of ``text[lo:hi]``'s table rows whose column header gives them a unit: (start, end,
    the number as written, unit)."""
    if CELL_SEP not in text[lo:hi]:
        return
    heads: dict[int, list[str | None]] = {}
    at = text.rfind("\n", 0, lo) + 1
    while at < hi:
        nl = text.find("\n", at)
        nl = len(text) if nl < 0 else nl
        row = text[at:nl]
        if CELL_SEP in row:
            top = table_top(text, at)
            if top != at:
                units = heads.get(top)
                if units is None:
                    units = heads[top] = column_units(text, top)
                row_cells = cells(row, at)
                if _header_continued(text, top, at, row_cells, units):
                    at = nl + 1
                    continue
                across = row_unit(row_cells) if not any(units) else None
                for j, (start, cell) in enumerate(row_cells):
                    m = BARE_CELL.fullmatch(cell)
                    unit = (units[j] if j < len(units) else None) or across
                    # a bare 1 under a multiple's header is the reference the column is normalised to, and so
                    # is a 1.0 in the row its header names ("v.s. kv fp16" over the fp16 row's "1.0")
                    if j and m and unit and start >= lo and not (
                        unit == "x"
                        and (m["num"] == "1" or (_UNIT_ONE.fullmatch(m["num"]) and _names_the_row(text, top, j, row_cells)))
                    ):
                        yield start + m.start("num"), start + m.end("num"), m.group("num"), unit
        at = nl + 1


def row_unit(row: list[tuple[int, str]]) -> str | None:
    """The unit a row's label gives its bare numbers in a table laid out the other way round, measures along
    the rows (``Improved (%) | 18.6 | 19.3``): the label cells are those before its first number."""
    for _, cell in row:
        if BARE_CELL.fullmatch(cell):
            return None
        unit = column_unit(cell)
        if unit:
            return unit
    return None


def caption_above(text: str, top: int) -> str:
    """The caption over a table: the paragraph right above it when it opens with ``Table N`` (a PDF's
    caption, its lines joined) or is one line of its own (LaTeX's caption); a paragraph of running text
    above a Markdown table (a list of results) is none."""
    above = text[max(0, top - 1500) : top].rstrip("\n").split("\n")
    if len(above) > 1 and not above[-1].strip():
        above = above[:-1]
    lines: list[str] = []
    for line in reversed(above):
        if not line.strip():
            break
        lines.insert(0, line.strip())
    if not lines:
        return ""
    if CAPTION.match(lines[0]):
        return " ".join(lines)
    return lines[0] if len(lines) == 1 else ""


def caption_below(text: str, at: int) -> str:
    lines: list[str] = []
    for line in text[at : at + 1500].lstrip("\n").split("\n"):
        if not line.strip():
            break
        lines.append(line.strip())
    return " ".join(lines) if lines and CAPTION.match(lines[0]) else ""
