"""A table cell's claim attributed by its row and column, not by the sentence reader.

Every reader leaves a table as lines of cells joined by `` | `` with its header row first (Markdown's pipe
tables, LaTeX's ``tabular`` rows, a PDF's grid put back by ``_pdf_tables``). A ratio in a cell has no
sentence around it: the sentence reader gives it the paper's system and whatever name stands near. The
table itself says more:

- **whose result**: a results table lays its systems out along one axis. Where the header row names the
  paper's own system in one of its cells, the columns are systems and a cell's claim is its column's
  (``Causal CP | Balance Only | FooSys`` over ``1.00x | 1.08x | 1.19x``); where the first column names it
  in one of its rows, the rows are systems and the claim is its row's (``FooSys | 2.1x`` under ``BarSys |
  1.4x``). A header or row naming the paper's system or a system it compares with is that system too.
  A table that names neither (rows of models or workloads under a ``Speedup`` column) keeps the
  sentence reader's subject, the paper's own system;
- **against what**: a header cell or the caption naming the baseline (``speedup over X``, ``normalized to
  X``, ``vs. X``, ``relative to X``; ``speedup for X`` where X is a system the paper compares with; in a
  PDF table, a group's title over several columns is the first level of each one's header, ``Speedup over
  X / Overall``), else the system in the same row (columns of systems) or the same
  column (rows of systems) whose cell is the unit, ``1.00x`` or a dash: the one the others are measured
  against.

The claim keeps its text and span (the cell); its provenance (``notes``) names the table's caption and
row, so a reader can find where it came from. A table whose corner names its columns as settings (``Config``)
over rows of measures lists no systems across.

Why one module: a cell's subject and its baseline are read from the same axis decision (which axis lists the
systems decides both whose result and against what), over the same header, labels and caption.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assay.operators.papers._ablation import measured_both_ways
from assay.operators.papers._claims import Claim
from assay.operators.papers._mentions import COUNT_SOURCE, Mention
from assay.operators.papers._table_compare import by_layout, row_label
from assay.operators.papers._table_read import Cell, Table, bracketed_ratio, cell_of
from assay.operators.papers._table_settings import swept_setting
from assay.operators.papers._table_systems import ColumnNames
from assay.operators.papers._table_units import VALUE_CELL, setting_cell

#: Where a mention comes from when it names a system for sure: the gazetteer, or the paper's comparisons.
_KNOWN_SOURCES = ("gazetteer", "rule")
#: A cell that stands for the baseline of its row or column: the unit ratio or a dash (not ``N/A``: a figure
#: not there, which says nothing of what the others are measured against).
_UNIT_CELL = re.compile(r"^[(\[]?\s*(?:1(?:\.0+)?\s*[x×]|100(?:\.0+)?\s*%|[-–—])\s*[)\]]?$", re.I)
#: A phrase of a header or caption that names the baseline.
_BASELINE_PHRASE = re.compile(
    r"(?:speed-?ups?\s+(?:over|of\s+\w+\s+over)|\bover|\bvs\.?|\bversus|relative\s+to|compared\s+(?:to|with)|"
    r"normali[sz]ed\s+(?:to|by|against|w\.?r\.?t\.?)|\bthan|w\.?r\.?t\.?|with\s+respect\s+to|against)\s+"
    # "runtime over different numbers of workers": a sweep of settings, no baseline; "mean over three runs",
    # "over seeds 11 and 22": the runs a figure is averaged over, none either
    r"(?!(?:the\s+)?(?:different|various|varying|several|multiple|increasing|decreasing)\b|"
    r"(?:a\s+range|the\s+numbers?)\s+of\b|"
    r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b|(?:[\w-]+\s+)?(?:seeds?|runs?|trials?)\b)"
    r"(?:the\s+)?(?P<name>[A-Za-z][\w.+/-]*(?:(?:[ -]|\s\+\s?)[A-Za-z0-9][\w.+/-]*){0,3})",
    re.I,
)
#: A row label that names the baseline itself (``Baseline (dense)``, ``Vanilla PyTorch``, ``Naive overlap``).
_BASELINE_LABEL = re.compile(r"\b(?:baselines?|vanilla|naive|unoptimi[sz]ed)\b", re.I)
#: A share of a reference written in a header ("% of Advertised Peak", "Percentage of rated peak"): its cells
#: are set against it.
_SHARE_OF = re.compile(
    r"(?:[%％]|\b(?:percentage|percent|fraction|share)\b)\s*of\s+(?:the\s+)?(?P<name>[A-Za-z][\w.+/-]*(?:[ -][A-Za-z0-9][\w.+/-]*){0,3})", re.I
)
#: A measure "for" a system (``Speedup for X``): its baseline only when X is a system the paper compares
#: with (``Speedup for BERT`` is a workload's).
_FOR_PHRASE = re.compile(
    r"(?:speed-?ups?|improvement|gains?|reduction|saving)s?\s+for\s+(?:the\s+)?"
    r"(?P<name>[A-Za-z][\w.+-]*(?:[ -][A-Za-z0-9][\w.+-]*){0,2})",
    re.I,
)
#: Words of a header that names a measure rather than a system.
_METRIC = re.compile(
    r"speed-?ups?|improv|impr\.|reduc|overhead|faster|slower|\bgains?\b|saving|ratio|efficien|utili[sz]|"
    r"slowdowns?|degrad|penalt|increase|decrease|\bdrops?\b|\berrors?\b|\bdelta\b|\bchanges?\b|\brate\b|"
    r"\bshare\b|fraction|\bpercent|\bscores?\b|perplexity|\bppl\b|\bMFU\b|bandwidth|"
    r"throughput|latency|time|\bJCT\b|makespan|memory|accuracy|\bacc\.|cost|energy|power|\bloss\b|"
    r"\b(?:average|avg\.?|mean|median|total|overall|max(?:imum)?|min(?:imum)?|geo\.?|p\d\d|\d+th)\b|"
    r"\(\s*(?:x|×|%|ms|s|GB|MB)\s*\)|加速|提升|降低|开销",
    re.I,
)
#: A caption saying which measure is normalised ("Inference time is normalized to Ideal").
_MEASURE_NORMALISED = re.compile(r"(?P<measure>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2})\s+(?:is|are)\s+normali[sz]ed\b", re.I)


def _normalised_column(caption: str, head: str) -> bool:
    """Whether a caption's baseline reaches a column: unless the caption names the measure it normalises, whose
    words (or ``Norm.``) the column's header must then share."""
    said = _MEASURE_NORMALISED.search(caption)
    if said is None:
        return True
    words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", said["measure"])} - {"the", "all", "each"}
    head_words = {w.lower() for w in re.findall(r"[A-Za-z]+", head)}
    return bool(words & head_words) or "norm" in head_words or "normalized" in head_words


#: A caption that says its table compares (the paper's system with those it lists).
_COMPARES = re.compile(
    r"speed-?ups?|improv|reduc|\bgains?\b|saving|\bover\b|\bvs\.?|versus|compar|relative|normali[sz]ed|"
    r"\bthan\b|加速|提升|降低",
    re.I,
)
#: A caption naming the model its table is about: "the FLUX.1-dev model", "the GPT-3 2.7B model".
_MODEL_IN_CAPTION = re.compile(
    r"\b(?:of|for|on)\s+the\s+(?P<m>[A-Z][\w.+-]*[\w+](?:\s+\d+(?:\.\d+)?[BMK])?)\s+models?\b"
)
_NAME_STOP = re.compile(
    r"\s+(?:on|in|for|with|at|and|or|when|while|across|under|using|of|as|by|from|to|that|which|where|is|are|per)\b.*$"
    # a sentence's end: "over the best published result. We also ..." names "best published result"
    r"|\.\s.*$",
    re.I | re.S,
)


def attribute_cells(
    text: str, claims: Sequence[Claim], own: Sequence[str], mentions: Sequence[Mention]
) -> list[Claim]:
    """Give each ratio claim that fills a table cell the subject and baseline its row and column name; returns
    the cells that are no claims: the reference row's own normalisation, a column of a setting swept over the
    same shares for every method (``_table_settings``).
    ``own``: the paper's systems, most likely first; ``mentions``: the names found in the text, of which
    the systems and methods the gazetteer knows or the paper compares with count as systems (not every
    capitalised word: a table's row labels are often workloads)."""
    systems = {
        m.name.lower(): m.name
        for m in mentions
        if m.type in ("system", "method") and m.source in _KNOWN_SOURCES
    }
    owned = {n.lower(): n for n in own}
    if own:
        owned.setdefault("ours", own[0])  # a row or column headed "Ours" is the paper's own system
    devices = {m.text.lower(): m.name for m in mentions if m.type == "hardware" and m.source != COUNT_SOURCE}
    tables: dict[int, Table | None] = {}
    references: list[Claim] = []
    columns = ColumnNames.of(text, mentions, own)
    notation: tuple[str, str | None] | None = None  # what a caption said bracketed ratios are, for later tables
    for claim in claims:
        if not claim.is_ratio:
            continue
        cell = cell_of(text, claim.start, claim.end, tables)
        if cell is None:
            continue
        table = cell.table
        if swept_setting(table, cell.column):
            references.append(claim)  # the share every method was measured at (a budget swept), no result
            continue
        pair = by_layout(table.header, table.rows, cell.row, cell.column, table.caption, devices, _UNIT_CELL.match)
        if pair:  # the table's layout says who and against what (a comparing header, a change column, ...)
            if pair[2]:
                references.append(claim)  # the reference row's own 1.0x: the normalisation, no result (P8)
            subject, versus = pair[0], pair[1]
            if _named_in(versus, owned) and not _named_in(subject, owned):
                subject, versus = versus, subject  # the paper's own system is the result, the other its baseline
            claim.subject, claim.subject_source = subject, "table"
            claim.versus, claim.versus_span, claim.versus_source = versus, None, "table"
            _provenance(claim, cell)
            continue
        if _reference_cell(table, table.rows[cell.row], cell.column):
            references.append(claim)  # the baseline's own 1.00x in its column: the normalisation, no result (P8)
            continue
        subject, axis = _subject(cell, owned, systems, columns)
        if axis == "rows" and _reference_row(table, cell.row, cell.column):
            references.append(claim)  # the baseline's own row of 1.00x: the normalisation, no result (P8)
            continue
        if subject is not None:
            claim.subject, claim.subject_source = subject, "table"
        elif (measured := _caption_speedup_of(table.caption)) is not None:
            # "The numbers in () show the speedup of onednn-almo over onednn-base": the ratios are that one's
            claim.subject, claim.subject_source = own[0] if measured.lower() in ("ours", "our system") and own else measured, "table"
            notation = (claim.subject, _baseline(cell, "", owned, systems, caption=True))
        elif notation and bracketed_ratio(table.rows[cell.row][cell.column]):
            # a later table in the notation a caption defined ("the numbers in () show ...") keeps its meaning
            claim.subject, claim.subject_source = notation[0], "table"
            if notation[1] and not _baseline(cell, axis, owned, systems, caption=True):
                claim.versus, claim.versus_span, claim.versus_source = notation[1], None, "table"
        elif (model := _caption_model(table.caption, owned)) is not None:
            # a table characterising a workload ("Characteristics of ... for the FooNet model"), naming no
            # system: its figures are the model's
            claim.subject, claim.subject_source = model, "table"
        elif own and (
            not claim.subject
            or (_a_cell(cell.table, claim.subject) and not _named(claim.subject, owned, systems))
        ):
            # the name next to the number is a row's label or a header that names no known system (a
            # model, a workload), or the row is labelled by its setting (``1,024 tokens``): the table names no
            # system, so the result is the paper's own
            claim.subject, claim.subject_source = own[0], "primary"
        elif not own and claim.subject_source in (None, "nearest"):
            # a paper with no system of its own (a measurement study): a row is what its label names ("FooNet,
            # 8 GPUs | 5.3%"), not a name nearest before it in the flattened table
            label = row_label(cell.table.rows[cell.row], cell.column)
            if label:
                claim.subject, claim.subject_source = label, "row"
        # a table of the paper's system measured with and without a component (its caption or header says so):
        # each cell is the system with it against the system without it, unless a header names a baseline
        ours = _named(claim.subject or "", owned, {}) if axis in ("", "against") else None
        component = ours and measured_both_ways(" ".join([table.caption, *table.header]))
        baseline = _baseline(cell, axis, owned, systems, caption=not component)
        if component and not baseline:
            claim.subject, claim.subject_source = f"{ours} with {component}", "table"
            claim.versus, claim.versus_span, claim.versus_source = f"{ours} without {component}", None, "table"
        elif baseline and baseline.lower() != (claim.subject or "").lower():
            claim.versus, claim.versus_span, claim.versus_source = baseline, None, "table"
        # a table that names no baseline keeps the one the claim already has (its sentence's, else the
        # paper's default): clearing it helped a paper whose tables are ablations but cost every cell of
        # one whose baselines sit in a header spanning several columns ('Speedup for X'), not read yet
        _provenance(claim, cell)
    return references


def _unit(cell: str) -> bool:
    """Whether a cell is the unit (``1.00x``, ``**1.0x**``, a dash), its Markdown emphasis aside."""
    return bool(_UNIT_CELL.match(cell.strip("*_ ")))


def _unit_column(header: list[str], row: list[str], column: int) -> int | None:
    """The other column of ``row`` whose cell is the unit under a name: the system the row's figures are measured
    against."""
    return next((j for j, v in enumerate(row) if j != column and j < len(header) and header[j] and _unit(v)), None)


def _column_of_units(table: Table, j: int) -> bool:
    """Whether column ``j`` holds the unit in every row, two or more, where a reference stands: the first column
    of figures, or one the caption names (not a result that came out at 1.0x in some rows)."""
    rows = [r for r in table.rows if len(r) > 1]
    if len(rows) < 2 or not all(j < len(r) and _unit(r[j]) for r in rows):
        return False
    first = next((k for k, v in enumerate(table.rows[0]) if k and any(ch.isdigit() for ch in v)), None)
    head = table.header[j] if j < len(table.header) else ""
    return j == first or bool(head) and head.lower() in table.caption.lower()


def _reference_column(table: Table, row: list[str], column: int) -> int | None:
    """The column of ``row``'s unit that is the reference all the others are normalised to (``_column_of_units``)."""
    j = _unit_column(table.header, row, column)
    return j if j is not None and _column_of_units(table, j) else None


def _reference_cell(table: Table, row: list[str], column: int) -> bool:
    """Whether a cell is the reference column's unit in a row of ratios (``MI300X | **1.00x** | 1.05x | 1.36x``):
    the first unit of the row, under a name, beside a figure that is no unit, in a column of units."""
    header = table.header
    if column == 0 or column >= len(header) or not header[column] or not _unit(row[column]):
        return False
    if _unit_column(header, row[:column], column) is not None:
        return False  # a unit after the reference's: a system that measured the same
    if not _column_of_units(table, column):
        return False
    return any(j not in (0, column) and _RATIO_CELL.match(v.strip("*_ ")) and not _unit(v) for j, v in enumerate(row))


def _reference_row(table: Table, row: int, column: int) -> bool:
    """Whether a row of systems is the reference the others are normalised to: every figure of it is the unit
    (``Megatron-LM | 1.00x | 1.00x``), and another row has a figure in the same column that is not."""
    cells = [c for c in table.rows[row][1:] if any(ch.isdigit() for ch in c)]
    if not cells or not all(_unit(c) for c in cells):
        return False
    return any(
        other != row and column < len(r) and any(ch.isdigit() for ch in r[column]) and not _unit(r[column])
        for other, r in enumerate(table.rows)
    )


#: A cell that is a ratio and nothing else (``1.36x``, ``0.95×``).
_RATIO_CELL = re.compile(r"^\d+(?:\.\d+)?\s*[x×]$", re.I)


def _provenance(claim: Claim, cell: Cell) -> None:
    """The claim's sentence is its row; its setting names the table and the row."""
    claim.sentence = cell.span
    where = f"table: {cell.table.caption[:80] or '(no caption)'}, row {cell.row + 1}{_setting_label(cell)}"
    claim.setting = f"{claim.setting}; {where}" if claim.setting else where


def _setting_label(cell: Cell) -> str:
    """A row labelled by its setting named with its column's header: " (# GPUs=512)"; '' for a row of a name."""
    label = cell.table.rows[cell.row][0] if cell.table.rows[cell.row] else ""
    if not setting_cell(label):
        return ""
    head = cell.table.header[0] if cell.table.header else ""
    return f" ({head}={label})" if head else f" ({label})"


def _named(name: str, owned: dict[str, str], systems: dict[str, str]) -> str | None:
    """The system a header or label names: the paper's own or one it compares with, by whole words."""
    low = name.lower()
    for known in (owned, systems):
        for key, canonical in known.items():
            if key and re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", low):
                return canonical if key == low else name
    return None


def _subject(cell: Cell, owned: dict[str, str], systems: dict[str, str], columns: ColumnNames) -> tuple[str | None, str]:
    """Whose result a cell is, and along which axis the table lists systems: the columns or rows when the
    header or the first column names the paper's system; else, when the caption says the table compares
    the paper's system (``FooSys's speedup over ...``), the paper's system against what its column or row
    names; else a column or row naming a known system (a header path's level that names one, ``_table_systems``)."""
    table, row = cell.table, cell.table.rows[cell.row]
    if cell.column == 0:
        return None, ""
    path = table.header[cell.column] if cell.column < len(table.header) else ""
    names = lambda n: _is_name(n) and not _measure(n) and _named(n, owned, systems)  # noqa: E731
    head = columns.system(path, names, table.caption, table.header) or columns.expanded(_who(path))
    labels = _labels(row, cell.column)
    # a row labelled on two levels ("GPT-3 | FooSys | 14.7"): the level that names a system
    label = next((x for x in labels if _named(x, owned, systems)), labels[0] if labels else "")
    head_ok = bool(head) and _is_name(head) and not _measure(head) and not _settings_across(table)
    label_ok = bool(label) and _is_name(label) and not _measure(label)
    ours = _named_in(table.caption, owned) if _COMPARES.search(table.caption) else None
    for whole in (True, False):
        # a variant of the paper's system ("FooSys-r16") names it too, where the caption does not say the
        # table sets the paper's system against what its rows or columns list ("FooSys-L over ...")
        def own_name(cell: str, whole: bool = whole) -> bool:
            return bool(_named(cell, owned, {}) if whole else _named_in(cell, owned))

        if head_ok and any(own_name(_who(h)) for h in table.header[1:]):
            return _named(head, owned, systems) or head, "columns"
        if label_ok and any(own_name(x) for r in table.rows for x in _labels(r, cell.column)):
            return _named(label, owned, systems) or label, "rows"
        if ours and whole:
            return ours, "against"
    if head_ok and (_named(head, owned, systems) or head != _who(path) == path):
        # (a header the paper abbreviates, spelled out: "MS-AG" under "MS represents ...": the system it names)
        return _named(head, owned, systems) or head, "columns"
    if label_ok and _named(label, owned, systems):
        return _named(label, owned, systems), "rows"
    if head_ok and _reference_column(table, row, cell.column) is not None:
        # the row holds the unit (``1.00x``) under another column's name: the columns are the systems measured
        # against that one, the rows their settings (``MI300X | **1.00x** | 1.05x | 1.36x`` under ``Hardware |
        # FooAttn | BarAttn | ...``)
        return head, "columns"
    if label_ok and _BASELINE_LABEL.search(label) and not _named_in(label, owned):
        return label, "rows"  # "Baseline offloading | 1.4x": the baseline's own figure, not the paper's
    if label_ok and _among_systems(table, cell.column, label, owned, systems):
        return label, "rows"  # "AMOS | 64%" under "cuBLAS | 78%" and "rocBLAS | 46%": a system the table lists
    return None, ""


#: A header's corner cell that says its columns are settings: ``Config``, ``Model``, ``Batch size``.
_SETTING_CORNER = re.compile(
    r"^(?:configs?|configurations?|settings?|setups?|workloads?|models?|datasets?|benchmarks?|batch\s+sizes?|"
    r"seq(?:uence)?\s+len(?:gth)?s?)\b",
    re.I,
)


#: A caption naming whose speedup over what its ratios are: "the speedup of onednn-almo over onednn-base".
_SPEEDUP_OF = re.compile(
    r"\bspeed-?ups?\s+of\s+(?:the\s+)?(?P<s>(?!the\b|each\b|all\b)[A-Za-z][\w.+-]*(?:\s+system)?)\s+"
    r"(?:over|against|relative\s+to|compared\s+(?:to|with)|vs\.?)\s",
    re.I,
)


def _caption_speedup_of(caption: str) -> str | None:
    """The system a caption says the table's ratios are the speedups of (``_SPEEDUP_OF``), else None."""
    m = _SPEEDUP_OF.search(caption)
    return m.group("s") if m else None


def _settings_across(table: Table) -> bool:
    """Whether the columns are settings, not systems: the corner names a kind of setting and every row's label
    names a measure (``Config | Llama (32, 32, 128) | ...`` over ``Binary Size (MB)`` and ``Reduction Ratio``)."""
    labels = [r[0] for r in table.rows if r and r[0].strip()]
    return bool(labels and table.header and _SETTING_CORNER.match(_who(table.header[0]) or "")) and all(
        _measure(x) for x in labels
    )


def _among_systems(table: Table, column: int, label: str, owned: dict[str, str], systems: dict[str, str]) -> bool:
    """Whether a row's label the paper names nowhere else is one more system of a table whose other rows are
    mostly known systems (the rows are the systems, not workloads with a system or two among them)."""
    others = [x for r in table.rows for x in _labels(r, column)[:1] if x and x != label]
    known = [x for x in others if _named(x, owned, systems)]
    return len(known) >= 2 and len(known) * 2 > len(others)


def _labels(row: list[str], column: int) -> list[str]:
    """The label cells left of ``column``: those that hold no figure (one, or a level per column: a model's
    name, then its size, then a system's)."""
    return [_who(c) for c in row[:column] if c.strip() and not VALUE_CELL.match(c) and _who(c)]


def _caption_model(caption: str, owned: dict[str, str]) -> str | None:
    """The model a caption says its table is about (``... for the FooNet-2 model``), where it names none of the
    paper's own systems."""
    m = _MODEL_IN_CAPTION.search(caption)
    return m.group("m") if m and not _named_in(caption, owned) else None


def _named_in(text: str, owned: dict[str, str]) -> str | None:
    low = text.lower()
    for key, canonical in owned.items():
        if key and re.search(rf"(?<![\w-]){re.escape(key)}(?![\w])", low):
            return canonical
    return None


def _who(cell: str) -> str:
    """Who a header or label names: the part before a comparison (``X vs. Y`` is X's result against Y)."""
    m = _BASELINE_PHRASE.search(cell)
    return (cell[: m.start()] if m else cell).strip(" :,;/-")


def _a_cell(table: Table, name: str) -> bool:
    low = name.lower()
    return any(low in c.lower() for c in table.header) or any(low in c.lower() for r in table.rows for c in r)


def _measure(cell: str) -> bool:
    """A header that names what is measured (``Speedup``, ``Time (ms)``), not who: no system's column. A
    measure's word that opens a name joined to a capitalised word names a system (``PowerSGD``,
    ``FasterTransformer``), not a measure."""
    return any(not _opens_a_name(cell, m) for m in _METRIC.finditer(cell))


def _opens_a_name(cell: str, m: re.Match[str]) -> bool:
    return cell[m.start()].isupper() and m.end() < len(cell) and cell[m.end()].isupper()


def _is_name(cell: str) -> bool:
    return bool(re.match(r"[A-Za-z\u4e00-\u9fff]", cell)) and len(cell) <= 60


def _baseline(
    cell: Cell, axis: str, owned: dict[str, str], systems: dict[str, str], caption: bool = True
) -> str | None:
    table = cell.table
    head = table.header[cell.column] if cell.column < len(table.header) else ""
    row = table.rows[cell.row]
    if axis == "against":  # the system the column or row lists is what the paper's result is against
        who = _who(head)
        if who and _is_name(who) and not _measure(who) and not _named_in(who, owned):
            return who
        named = _BASELINE_PHRASE.search(head)  # "Speedup over DP": the header names it, not the row's label
        name = _NAME_STOP.sub("", named.group("name")).strip(" .,;:/") if named else ""
        if name:
            return name
        label = _who(row[0]) if row and not VALUE_CELL.match(row[0]) else ""
        if label and _named(label, {}, systems):
            return label
    share = _SHARE_OF.search(head)
    if share:
        return _NAME_STOP.sub("", share.group("name")).strip(" .,;:") or None
    for source in (head, table.caption) if caption else (head,):
        m = _BASELINE_PHRASE.search(source)
        if m and source is table.caption and not _normalised_column(table.caption, head):
            m = None  # "Inference time is normalized to Ideal": the time's columns, not a "(%)" column beside them
        if m:
            name = _NAME_STOP.sub("", m.group("name")).strip(" .,;:")
            if name:
                return name
        m = _FOR_PHRASE.search(source)
        if m:
            name = _NAME_STOP.sub("", m.group("name")).strip(" .,;:")
            if name and _named(name, {}, systems) and not _named(name, owned, {}):
                return name
    if axis == "columns":
        j = _unit_column(table.header, row, cell.column)
        if j is not None:
            return table.header[j]
    if axis == "rows":
        for other in table.rows:
            unit = other[cell.column] if cell.column < len(other) else ""
            if other is not row and _UNIT_CELL.match(unit) and any(ch.isdigit() for ch in unit):
                return other[0] or None
    return None
