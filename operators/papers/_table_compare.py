"""Whose a table cell's ratio is and against what, where the table's layout says so rather than a name.

Two layouts the row-and-column reader (``_tables``) cannot place by the systems it knows:

- **a comparing column**: the ratio column's own header says what it sets against what (``Fused vs eager``,
  ``A over B``): the part before the comparison is the subject, the part after the baseline. Such a column
  holds the comparison the table was drawn for, even where its figures are the quotient of two other cells
  of the row (``_clause.table_result`` keeps them).
- **a change column beside its two figures**: a column of changes named by a measure alone (``Improvement``,
  ``Difference``, ``Change``) next to two columns of measurements of the same thing by two systems
  (``Old (ms) | New (ms) | Improvement``, ``Metric | Before | After | Difference``): the change is the later
  figure's against the earlier one, found by the arithmetic (the two cells of the row whose relative change
  is the cell's value), so the subject is the later column's name and the baseline the earlier's, the measure
  words and the unit dropped from both.
- **a change row under its two figures**: the same laid out the other way round, a row labelled by a measure
  alone (``Improved (%)``) under rows of figures labelled by who measured them (``cuDNN (ms)``, ``Ours (ms)``).
- **a column per device against a device**: the caption (or the header) sets the figures against a device
  (``speedups with respect to a K80 GPU``) and each column's header names another (``Throughput / P100``): the
  cell is the column's device against the caption's, a comparison of hardware.
- **a column that says whose each row is**: a header naming the kind of what its cells name (``Backend``,
  ``Method``, ``System``, ...) over ``Baseline``, ``FooCache``, ``BarCache``: the row's cell there is the subject of
  the row's figures, and the row whose cell there is the reference (``Baseline``, ``Vanilla``, ``None``) is their
  baseline; that row's own unit ratio (``1.0x``) is the normalisation, no result.
- **a measurement study's rows**: in a paper that proposes no system, a row is what its label names (``FooNet,
  8 GPUs | 5.3% | 80%``): the label is the subject of the row's cells, and in a table set side by side in two
  halves, each half's own label (the nearest cell to the left that holds no figure).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assay.operators.papers._table_units import (
    CELL_SEP,
    VALUE_CELL,
    changed_figure,
    header_row,
    quotient_names,
    setting_cell,
)

#: A header that compares two things: ``X vs Y``, ``X vs. Y``, ``X versus Y``, ``X over Y``, ``X relative to Y``.
_COMPARING = re.compile(
    r"^\s*(?P<x>[^|]*?[A-Za-z][^|]*?)\s+(?:vs\.?|versus|over|relative\s+to|compared\s+(?:to|with))\s+"
    r"(?P<y>[A-Za-z][^|]*?)\s*(?:\([^)]*\))?\s*$",
    re.I,
)
#: Words of a header that name a measure, not who measured it.
_MEASURE_WORDS = re.compile(
    r"\b(?:speed-?ups?|improvements?|impr\.|differences?|diff\.?|changes?|delta|gains?|reductions?|ratio|"
    r"speedup)\b",
    re.I,
)
#: A change column's header: a measure word alone, perhaps with its unit (``Improvement``, ``Difference (%)``).
_CHANGE_HEAD = re.compile(
    r"^\s*(?:relative\s+|rel\.\s+)?(?:improvements?|improved?|impr\.|differences?|diff\.?|changes?|delta|Δ|gains?|变化|差异|"
    # Chinese: improvement, speedup (ratio), reduction
    r"提升|加速比?|降低|减少|"
    r"reductions?|speed-?ups?)\s*(?:[(（]\s*(?:%|x|×|倍)\s*[)）])?\s*$",
    re.I,
)
#: A change header whose cells are multiples though they print no ``x``: ``Speedup``, ``Speedup (x)``.
MULTIPLE_HEAD = re.compile(r"speed-?ups?|加速比|[(\[（]\s*(?:[x×]|倍)\s*[)\]）]", re.I)
_NUMBER = re.compile(r"^\s*[~≈]?\s*(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>[A-Za-zµ/]+)?\s*$")
_VALUE = re.compile(r"[-−+]?\s*(?P<n>\d+(?:\.\d+)?)")
#: Unit brackets and measure names dropped from a figure column's header to leave who measured it.
_UNIT_BRACKET = re.compile(r"\s*[(\[][^)\]]*[)\]]\s*")


def comparing_column(text: str, row_start: int, column: int) -> bool:
    """Whether the header over ``column`` of the table holding the row at ``row_start`` compares two things."""
    return compared(column_header(text, row_start, column)) is not None


def compared(head: str) -> tuple[str, str] | None:
    """``(subject, baseline)`` a comparing header names (``Fused vs eager`` -> ``("Fused", "eager")``), else
    None; a side that is a measure word alone (``Speedup vs X``) names no subject."""
    m = _COMPARING.match(head)
    if not m:
        return None
    x, y = m.group("x").strip(" :,;"), m.group("y").strip(" :,;")
    if not x or not y or len(x) > 40 or len(y) > 40 or _MEASURE_WORDS.fullmatch(x):
        return None
    return x, y


def change_pair(header: list[str], row: list[str], column: int) -> tuple[str, str] | None:
    """``(subject, baseline)`` for a change cell (``row[column]``) under a header of a measure alone, from the
    two figure columns of its row whose relative change is the cell's value: the later column the subject,
    the earlier its baseline, their headers less units and the words they share (``Old TPOT (ms)`` and
    ``New TPOT (ms)`` give ``New`` and ``Old``). None where no pair fits, or pairs that fit name other sides."""
    if column >= len(header) or not _CHANGE_HEAD.match(header[column]):
        return None
    value = _VALUE.search(row[column])
    if not value:
        return None
    change = float(value.group("n"))
    # the cell is rounded to its printed digits: "1.3" stands for 1.25 to 1.35
    rounding = 0.5 * 10 ** -len(value.group("n").partition(".")[2]) + 1e-9
    figures = [(j, float(m.group("n").replace(",", ""))) for j, c in enumerate(row) if j and j != column
               and j < len(header) and (m := _NUMBER.match(c))]
    ratio = "x" in row[column].lower() or "×" in row[column] or bool(MULTIPLE_HEAD.search(header[column]))
    fits = []
    for a, (i, before) in enumerate(figures):
        for j, after in figures[a + 1:]:
            if not before or not after:
                continue
            got = max(before, after) / min(before, after) if ratio else abs(after - before) / before * 100
            if abs(got - change) <= max(rounding, 0.01 * change):
                fits.append((j, i))
    # two pairs may fit and name the same sides (a speedup that is both the throughputs' and the times' quotient)
    named = {(_who(header[j], header[i]), _who(header[i], header[j])) for j, i in fits}
    if len(named) != 1:
        return None
    subject, baseline = named.pop()
    return (subject, baseline) if subject and baseline else None


def _column_pair(header: list[str], rows: list[list[str]], row: int, column: int) -> tuple[str, str] | None:
    """A change cell whose row cannot show its pair (a figure is ``OOM`` or a dash: ``8 | OOM | 54.16 | 1.5``)
    takes the pair its column's other rows show, where they all show the same one."""
    if column >= len(header) or not _CHANGE_HEAD.match(header[column]):
        return None
    pairs = {change_pair(header, r, column) for i, r in enumerate(rows) if i != row and column < len(r)}
    pairs.discard(None)
    return pairs.pop() if len(pairs) == 1 else None


def change_row(rows: list[list[str]], row: int, column: int) -> tuple[str, str] | None:
    """``(subject, baseline)`` for a change cell in a table laid out the other way round: a row labelled by a
    measure alone (``Improved (%)``) under rows of figures labelled by who measured them (``cuDNN (ms)``, ``Ours
    (ms)``). The two rows of the few above whose figures in ``column`` change by the cell's value are the pair,
    the later the subject; None where no pair or more than one fits."""
    label = _last_label(rows[row])
    value = _VALUE.search(rows[row][column]) if column < len(rows[row]) else None
    if not label or not _CHANGE_HEAD.match(label) or not value:
        return None
    change = float(value.group("n"))
    figures = []
    for i in range(max(0, row - 4), row):
        m = _NUMBER.match(rows[i][column]) if column < len(rows[i]) else None
        if m and _last_label(rows[i]):
            figures.append((i, float(m.group("n").replace(",", ""))))
    fits = [
        (j, i)
        for a, (i, before) in enumerate(figures)
        for j, after in figures[a + 1 :]
        if before and after and abs(abs(after - before) / before * 100 - change) <= max(0.051, 0.01 * change)
    ]
    if len(fits) != 1:
        return None
    j, i = fits[0]
    subject, baseline = _last_label(rows[j]), _last_label(rows[i])
    subject, baseline = _who(subject, baseline), _who(baseline, subject)
    return (subject, baseline) if subject and baseline else None


def _last_label(row: list[str]) -> str:
    """A row's label nearest its figures: the last cell before the first that holds one (``cuDNN (ms)`` after
    a group's ``(FP32)``)."""
    label = ""
    for cell in row:
        if VALUE_CELL.match(cell.strip()):
            break
        if cell.strip():
            label = " ".join(cell.split())
    return label


def _who(head: str, other: str) -> str:
    """A figure column's header less its unit bracket and the words it shares with the other figure column."""
    mine = _UNIT_BRACKET.sub(" ", head).split()
    theirs = {w.lower() for w in _UNIT_BRACKET.sub(" ", other).split()}
    kept = [w for w in mine if w.lower() not in theirs]
    return " ".join(kept).strip(" :,;") if kept and re.search(r"[A-Za-z]", " ".join(kept)) else ""


def column_header(text: str, row_start: int, column: int) -> str:
    """The header cell over ``column`` of the table holding the row at ``row_start`` ('' where none)."""
    head = header_row(text, row_start).split(CELL_SEP)
    return head[column] if column < len(head) else ""


def row_label(row: list[str], column: int) -> str | None:
    """The label of the cell at ``column`` of ``row``: the nearest cell to its left that holds no figure, when
    it names something (not a setting such as ``# GPUs=8``, not a measure)."""
    left = [c for c in row[:column] if c.strip() and not VALUE_CELL.match(c.strip())]
    label = " ".join(left[-1].split()) if left else ""
    if not label or setting_cell(label) or _MEASURE_WORDS.search(label):
        return None
    return label if re.search(r"[A-Za-z]{2}", label) else None


# A reference a caption or header sets figures against: "relative to a K80", "with respect to the FooChip".
_REFERENCE = re.compile(
    r"(?:relative\s+to|with\s+respect\s+to|w\.?r\.?t\.?|normali[sz]ed\s+(?:to|by|against)|compared\s+(?:to|with)|"
    r"\bover|\bvs\.?|\bversus)\s+(?:an?\s+|the\s+)?(?P<ref>[^.;,|()]{1,40})",
    re.I,
)


def device_pair(head: str, caption: str, devices: dict[str, str]) -> tuple[str, str] | None:
    """The column's device and the device its figures are set against, when the header names one device and
    the header or caption a reference that is another (``devices``: each device's written form, lower case,
    to its name)."""
    ref = _REFERENCE.search(head) or _REFERENCE.search(caption)
    against = _device_in(ref.group("ref"), devices) if ref else None
    named = _device_in(head[: ref.start()] if ref and ref.string is head else head, devices, last=True)
    if against and named and named != against:
        return named, against
    return None


def _device_in(text: str, devices: dict[str, str], last: bool = False) -> str | None:
    found = [
        (m.start(), name)
        for form, name in devices.items()
        for m in re.finditer(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text, re.I)
    ]
    if not found:
        return None
    return (max(found) if last else min(found))[1]


#: A header naming the column that says whose each row is.
_WHO_HEAD = re.compile(
    r"^\s*(?:backends?|methods?|systems?|approach(?:es)?|frameworks?|schemes?|techniques?|engines?|"
    r"implementations?|strateg(?:y|ies)|polic(?:y|ies)|variants?|optimi[sz]ations?|solutions?|"
    r"(?:parallel(?:ism)?\s+)?types?|"
    # the same heads in Chinese, after up to four characters that say of what (并行类型: the kind of parallelism)
    r"\w{0,4}(?:类型|方法|策略|方案|系统|框架|技术|后端|模式))\s*$",
    re.I,
)
#: A cell of that column naming the reference every other row is set against.
_REFERENCE_CELL = re.compile(r"^\s*(?:baselines?|vanilla|naive|none|default|original|unoptimi[sz]ed)\b", re.I)


def who_column(
    header: list[str], rows: list[list[str]], row: int, column: int, unit: Callable[[str], bool]
) -> tuple[str, str, bool] | None:
    """Whose the figure at ``column`` of ``rows[row]`` is, by a column whose header names the kind of what its
    cells name: that cell, the reference row's cell, and whether the row is the reference itself; None unless
    the table has a reference row whose figure in ``column`` is the unit (``unit``: ``1.0x``), the sign that its
    rows are set against it (else the caption or the header says against what)."""
    k = next((j for j, h in enumerate(header) if j != column and _WHO_HEAD.match(h)), None)
    if k is None:
        return None
    # (or, in a column of figures each with its change, "57,458M ▼37.7%", the reference's figure with none)
    changes = column < len(rows[row]) and changed_figure(rows[row][column])
    reference = next(
        (
            r
            for r in rows
            if k < len(r) and column < len(r) and _REFERENCE_CELL.match(r[k])
            and (unit(r[column].strip()) or changes and VALUE_CELL.match(r[column].strip()) is not None)
        ),
        None,
    )
    cells = rows[row]
    who = " ".join(cells[k].split()) if k < len(cells) else ""
    if reference is None or not who or VALUE_CELL.match(who):
        return None
    return who, " ".join(reference[k].split()), reference is cells


def by_layout(
    header: list[str],
    rows: list[list[str]],
    row: int,
    column: int,
    caption: str,
    devices: dict[str, str],
    unit: Callable[[str], bool],
) -> tuple[str, str, bool] | None:
    """Whose the figure at ``column`` of ``rows[row]`` is and against what, where the table's layout says so
    (the readings of this module, in order), and whether the cell is the reference row's own normalisation."""
    head = header[column] if column < len(header) else ""
    quotient = quotient_names(head, caption)
    pair = (
        compared(head)
        # a ratio's column: the denominator's result against the numerator, as a speedup is the baseline's time
        # over the system's (``_tables`` makes the paper's own system the subject of any pair that names it)
        or ((quotient[1], quotient[0]) if quotient else None)
        or change_pair(header, rows[row], column)
        or _column_pair(header, rows, row, column)
        or change_row(rows, row, column)
        or device_pair(head, caption, devices)
    )
    return (pair[0], pair[1], False) if pair else who_column(header, rows, row, column, unit)
