"""Result or not, by the clause: a number with a ratio unit is dropped when its clause describes a setting,
a workload, a definition or a label instead of stating a result.

Papers write their settings with the same units as their results ("oversubscription of 1.5x", "nodes linked
by 4x HDR links", "a trace where 15% of jobs run 30x longer", "a run counts as scalable if it keeps 70% of
ideal throughput", "(Local 1x)"). What tells them apart is what the clause says: a result verb or comparison
(achieves, reduces, speeds up, outperforms, faster than, by X%) against a setting verb, a workload's
description, a definition or a name. The cues are a declared table (``CUES``), one own-worded example per
row, in ``_cues``; the tests run every example through the whole extraction path.

Why a module of its own: the claim finder (``_claims``) says where a number and its unit are; this module
says, from the words around it, whether the number is a claim, so either can change without the other.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from assay.operators.papers._cues import CUES, Cue
from assay.operators.papers._figure_text import (
    bar_label,
    diagram_label,
    even_row,
    label_line,
    plot_label,
    tick_label,
    torn_decimal,
)
from assay.operators.papers._numbers import parse_number
from assay.operators.papers._table_compare import MULTIPLE_HEAD, column_header, comparing_column
from assay.operators.papers._table_units import (
    BARE_CELL,
    SPREAD_AT,
    cells,
    changed_figure,
    column_units,
    header_row,
    row_unit,
    setting_cell,
    table_top,
)

# Verbs and comparisons that state a result: a clause holding one states a result whatever else it holds,
# unless the cue is a definition (a definition's "reaches 90%" is its condition, not a result).
RESULT_WORDS = re.compile(
    r"achiev|\breach|attain|obtain|deliver|sustain|improv|reduc|outperform|faster|slower|higher|lower|better|"
    r"worse|(?<![A-Za-z])speed|accelerat|\bgains?\b|\bsav(?:e|es|ing)\b|\bcuts?\b|shorter|cheaper|surpass|beats?\b|sooner|"
    r"earlier|quicker|\bkeeps?\b|\bkept\b|maintain|retain|preserv|slowdowns?\b|"
    # a measure moving to or by the number, right before it: "the throughput is decreased to 84%", "falls by 12%"
    r"\b(?:decreas|increas|drop|degrad|declin|fell|falls?\b|ris(?:es|en)\b|rose\b)\w*\s+(?:to|by)\s+"
    r"(?:(?:about|only|nearly|around|roughly|just)\s+)?$|"
    r"\bcompared\s+(?:to|with|against)\b|\brelative\s+to\b|"
    r"提高|提升|降低|减少|达到|实现|加速|缩短",
    re.I,
)
_CLAUSE_BREAK = re.compile(r"[.;!?](?=\s)|[。；！？,，]|\n\s*\n")
_SENTENCE_BREAK = re.compile(r"[.;!?](?=\s)|[。；！？]|\n\s*\n")


def not_a_result(text: str, start: int, end: int, shape: str) -> str | None:
    """The name of the first cue saying the number at ``text[start:end]`` (written as ``shape``) is no
    result, or None when it may be one."""
    if (
        torn_decimal(text, start)
        or tick_label(text, start, end)
        or label_line(text, start, end)
        or even_row(text, start, end)
        or plot_label(text, start, end)
        or diagram_label(text, start, end)
        or bar_label(text, start, end)
    ):
        return "figure text"
    plan = _plan(shape)
    # Which places hold any of the shape's cues at all (one combined pattern each): most numbers are results,
    # and a place that holds none needs none of its cues tried.
    after = plan.after is not None and plan.after.match(text, end) is not None
    clause = sentence = inside = None
    if plan.clause is not None or plan.sentence is not None:
        clause, sentence = _clause(text, start), _sentence(text, start)
    near = {
        "after": after,
        "clause": plan.clause is not None and plan.clause.search(clause or "") is not None,
        "sentence": plan.sentence is not None and plan.sentence.search(sentence or "") is not None,
        "parenthesis": plan.parenthesis,
    }
    if plan.parenthesis:
        inside = _parenthesis(text, start, end) or _legend_entry(text, start, end)
        near["parenthesis"] = inside is not None
    for cue in plan.cues:
        if not near[cue.where]:
            continue
        if cue.where == "after":
            hit = bool(cue.pattern.match(text, end))
        elif cue.where == "parenthesis":
            hit = bool(cue.pattern.fullmatch(inside or ""))
        else:
            hit = bool(cue.pattern.search(clause if cue.where == "clause" else sentence))
        if hit and (cue.overrides_result or not _states_result(text, start, end, cue.result_in)):
            return cue.name
    return None


class _Plan(NamedTuple):
    """The cues of one claim shape, in the table's order, and one pattern per place matching where any of
    them does (None where the shape has no cue there)."""

    cues: tuple[Cue, ...]
    after: re.Pattern[str] | None
    clause: re.Pattern[str] | None
    sentence: re.Pattern[str] | None
    parenthesis: bool


_FLAGS = ((re.I, "i"), (re.S, "s"), (re.M, "m"))


def _any_of(patterns: list[re.Pattern[str]]) -> re.Pattern[str] | None:
    """One pattern that matches (at a place) where any of ``patterns`` does, each keeping its own flags."""
    if not patterns:
        return None
    parts = []
    for p in patterns:
        flags = "".join(letter for flag, letter in _FLAGS if p.flags & flag)
        parts.append(f"(?{flags}:{p.pattern})" if flags else f"(?:{p.pattern})")
    return re.compile("|".join(parts))


@functools.cache
def _plan(shape: str) -> _Plan:
    cues = tuple(c for c in CUES if shape in c.shapes)
    return _Plan(
        cues,
        *(_any_of([c.pattern for c in cues if c.where == where]) for where in ("after", "clause", "sentence")),
        any(c.where == "parenthesis" for c in cues),
    )


def _states_result(text: str, start: int, end: int, scope: str = "clause") -> bool:
    """Whether the number's own clause (or sentence), before and after it, holds a result verb or comparison."""
    if scope == "clause":
        before, tail = _clause(text, start), _CLAUSE_BREAK.split(text[end : end + 80], 1)[0]
    else:  # the sentence up to the number, and the rest of the number's brackets
        before, tail = _sentence(text, start), re.split(r"[)）]", text[end : end + 160], maxsplit=1)[0]
    return bool(RESULT_WORDS.search(before) or RESULT_WORDS.search(tail))


def _parenthesis(text: str, start: int, end: int) -> str | None:
    """The text inside the brackets the number stands in (up to 160 characters each side), or None."""
    opened = text.rfind("(", max(0, start - 160), start)
    closed = text.find(")", end, end + 160)
    if opened < 0 or closed < 0 or ")" in text[opened:start] or "(" in text[end:closed]:
        return None
    return text[opened + 1 : closed]


def _legend_entry(text: str, start: int, end: int) -> str | None:
    """A legend's entry the number ends ("...; Local 1x: one tenant alone"), up to the number, or None."""
    if not re.match(r"\s*:", text[end : end + 3]):
        return None
    lo = max(0, start - 40)
    breaks = list(re.finditer(r"[;\n:(]|[.,](?=\s)", text[lo:start]))
    return text[lo + breaks[-1].end() if breaks else lo : end]


def _clause(text: str, start: int) -> str:
    lo = max(0, start - 160)
    breaks = list(_CLAUSE_BREAK.finditer(text, lo, start))
    return text[breaks[-1].end() if breaks else lo : start]


def _sentence(text: str, start: int) -> str:
    lo = max(0, start - 300)
    breaks = list(_SENTENCE_BREAK.finditer(text, lo, start))
    return text[breaks[-1].end() if breaks else lo : start]


# -- table rows -------------------------------------------------------------------------------------------
# A table's rows come from the readers as lines of cells joined by " | " (Markdown, LaTeX tabular); they are
# residue, not prose, but a row that names a system and holds a ratio states a result ("Foo | 3.2x").
_CELL_SEP = " | "
_RATIO_CELL = re.compile(
    r"[~≈<>]?\s*[-−+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s*(?:[x×]|\\?%|％|times)"
    r"(?:\s*(?:[-–~]|to)\s*(?:\d+(?:\.\d+)?)\s*(?:[x×]|\\?%|％))?\s*(?:\([^)]*\))?\s*"
    # a mark set after the figure (an emoji, a dagger) is decoration: "1.8x ⚑" is the cell's ratio; so is the
    # comparative that says which way ("1.5x faster", "50% less", "5.8x slower without warm-up")
    r"(?:[^\w\s\d.,|()%％]{1,2}\s*)?"
    r"(?:(?:faster|slower|less|more|lower|higher|smaller|larger|fewer|cheaper|better|worse|shorter|longer)\b"
    r"(?:\s+[a-z][\w-]*){0,2}\s*)?",
    re.I,
)
_RATIO_CELLS = re.compile(rf"(?:{_RATIO_CELL.pattern})+", re.I)
# What a results table's header or caption says it measures, against what a hyperparameter table lists.
RESULT_HEADER = re.compile(
    r"speed-?ups?|improv|reduc|overhead|faster|slower|\bgains?\b|\bbenefits?\b|saving|\bv\.?\s?s\.?(?=\s)|versus|compar|relative|"
    r"normali[sz]ed|ratio|efficien|utili[sz]|throughput|latency|\bJCT\b|makespan|\bpeak\b|flop/?s|\bMFU\b|"
    r"\bCV\b|variation|stability|\bdifferen|\bchange\b|加速|提升|降低|开销|变化|差异|降幅|增幅|增量|减少|节省|"
    r"命中率|吞吐|延迟|时延",
    re.I,
)
_HYPERPARAMETERS = (
    r"hyper-?param|learning\s+rate|\blr\b|dropout|warm-?up|weight\s+decay|momentum|\bseed\b|sparsity|超参"
)
# Words a results table's caption uses too ("across all configurations, the overhead is negligible"): they
# mark a settings table only where nothing says what the table measures.
_SETTING_WORDS = r"configuration|setting"
SETTING_HEADER = re.compile(rf"{_HYPERPARAMETERS}|{_SETTING_WORDS}", re.I)
_HYPERPARAMETER = re.compile(_HYPERPARAMETERS, re.I)
#: A column of goals or thresholds a run is set ("Accuracy target", "Target loss", "Threshold"): settings.
_GOAL_HEADER = re.compile(r"\b(?:targets?|goals?|thresholds?)\b", re.I)
_TABLE_REACH = 2000
#: The unit ratio: a reference's own cell.
_UNIT_RATIO = re.compile(r"\s*(?:1(?:\.0+)?\s*[x×]|100(?:\.0+)?\s*\\?[%％])\s*")
_CAPTION_LINES = 4
_CAPTION_BELOW = re.compile(r"\s*(?:Table|Tab\.|表)\s*\d", re.I)


#: A column header naming what its figures are set against by name ("Speedup over DP", "Gain vs. FooRT").
_AGAINST_A_NAME = re.compile(r"\b(?:over|vs\.?|versus|relative\s+to|compared\s+(?:to|with))\s+(?:the\s+)?[A-Z]")
#: A configuration label opening with a grid of counts ("4x4", "2×8") and up to three short tokens after it.
_SETTING_LABEL = re.compile(r"\d+\s*[x×]\s*\d+(?:\s+[\w()\[\]/+-]{1,9}){1,3}")


#: A multiple in brackets right after a figure (``1.68 (0.87×)``): the figure normalised to the table's reference.
_NUMBER_BEFORE_BRACKET = re.compile(r"\d(?:\.\d+)?\s*\(\s*$")
_BRACKET_CLOSES = re.compile(r"\s*\)")


def bracketed_multiple(text: str, start: int, end: int, unit: str) -> bool:
    """Whether a multiple stands in brackets right after a figure (a flattened table's row ``28 1.93 1.68 (0.87×)
    1.45 (0.75×)``): the figure normalised to the reference, a result wherever the row stands."""
    return (
        unit == "x"
        and _NUMBER_BEFORE_BRACKET.search(text, max(0, start - 16), start) is not None
        and _BRACKET_CLOSES.match(text, end) is not None
    )


def table_result(text: str, start: int, end: int, unit: str) -> bool:
    """Whether a number in a table row states a result: the row names something in its first cell or is
    labelled by its setting (a GPU count, a batch size, a resolution), the number is a ratio filling a cell
    of its own (or a bare number under a header that writes its unit, ``% of Peak``), and the table is a
    results table -- its header or the caption above it says what it compares or measures (speedup,
    overhead, reduction, vs, peak, ...) and nothing there names hyperparameters; a multiple (``x``) in a row
    of names is a result by itself."""
    lo = text.rfind("\n", 0, start) + 1
    hi = text.find("\n", end)
    row = text[lo : len(text) if hi < 0 else hi]
    if _CELL_SEP not in row:
        return False
    row_cells = cells(row, lo)
    # the first label: a row under a label spanning several rows leaves its first cell empty, or writes a ditto
    # mark there ("-", which a Markdown reader may have turned into a bullet, '"', "〃")
    first = next((c.strip() for _, c in row_cells if c.strip() and c.strip() not in _DITTO), "")
    # a label of a setting: a count or a grid of counts, alone or before a few short tokens that name the
    # run's configuration ("8", "4x4 (A) 15-1", "2x8 (B) Straight")
    setting = setting_cell(first) or _SETTING_LABEL.fullmatch(first)
    by_setting = bool(setting) and not _RATIO_CELLS.fullmatch(first)
    # a label may open with a model's size ("3B TP8 8 4K", "1.7B CP2TP4 16 4K"): a name still
    # (or a context length before Chinese words: "1M 上下文 prefill 实测加速")
    named = re.match(r"[A-Za-z\u4e00-\u9fff]|\d+(?:\.\d+)?[BMK]\s+[A-Za-z\u4e00-\u9fff]", first)
    if not (named or by_setting) or SETTING_HEADER.search(first):
        return False
    column, own = next(((j, c) for j, (o, c) in enumerate(row_cells) if o <= start < o + len(c)), (0, ""))
    # a cell may hold two sub-columns' ratios side by side ("≈ 35% 1.1x") where the reader joined them
    # or a figure and its change beside it ("57,458M ▼37.7%", "92 GB (-15%)"): the change is the cell's ratio
    changed = changed_figure(own, start - row_cells[column][0]) if column else False
    if not column or not (_RATIO_CELLS.fullmatch(own) or changed or _unit_column(text, lo, column, own) == unit):
        return False
    if _GOAL_HEADER.search(column_header(text, lo, column)):
        return False  # "Accuracy target" over "75.9%": the goal a run trains to, a setting
    if SPREAD_AT.search(own):
        return True  # a mean with its spread over runs ("39.9 ± 2.2") is a measurement, whatever the table sets
    # a cell that says which way its figure goes ("50% less", "65% faster") states a comparison itself
    # (so does a sign written before it, ``+21.3%``: a change from something, no level)
    compared = bool(_COMPARATIVE_CELL.search(own) or _SIGNED_CELL.match(own)) or changed
    # (a 0% beside a signed cell of its row, "Quality | 0% | -12% | 0%", is a change too: none)
    compared = compared or (_ZERO_CELL.match(own) is not None and any(_SIGNED_CELL.match(c) for _, c in row_cells))
    header, own = _table_head(text, lo)
    # a row whose label writes the unit says what it measures itself ("Improved (%) | 18.6")
    across = row_unit(row_cells) is not None and bool(RESULT_HEADER.search(first))
    results = bool(RESULT_HEADER.search(header)) or across or compared
    if _HYPERPARAMETER.search(own) or (SETTING_HEADER.search(own) and not results):
        return False
    if by_setting:  # a row of a setting states results only where the table says it measures them
        # a quotient of the row's own figures is a restatement, and a column holding the unit a series
        # normalised to one setting, unless its header says what it sets against what ("A vs B"): then it is
        # the comparison the table was drawn for, row by row
        head = column_header(text, lo, column)
        if comparing_column(text, lo, column) or _AGAINST_A_NAME.search(head) or MULTIPLE_HEAD.search(head):
            # "A vs B", "Speedup over DP": the column sets each setting's run against what the header names;
            # a "Speed-up" column is the table's result, the quotient of the times beside it as it should be
            return results
        return results and not _quotient(row_cells, column, unit) and not _normalised(text, lo, column)
    return unit == "x" or results


_DITTO = frozenset({"-", "–", "—", "•", '"', "〃", "″", "''", "same"})
_SIGNED_CELL = re.compile(r"^\s*[+\u2212-]\s*\d[\d.,]*\s*[%％x×]\s*$")
_ZERO_CELL = re.compile(r"^\s*0(?:\.0+)?\s*[%％]\s*$")
_COMPARATIVE_CELL = re.compile(
    r"(?:[x×%％])\s*(?:faster|slower|less|more|lower|higher|smaller|larger|fewer|cheaper|better|worse|shorter|longer)\b",
    re.I,
)


def _unit_column(text: str, row_start: int, column: int, cell: str) -> str | None:
    """The unit a bare number's column header (or the table's caption) gives it ("% of Peak" over "50.6"), or
    None."""
    if not BARE_CELL.fullmatch(cell):
        return None
    top = table_top(text, row_start)
    units = column_units(text, top) if top != row_start else []
    if top != row_start and not any(units):  # measures along the rows: "Improved (%) | 18.6"
        end = text.find("\n", row_start)
        return row_unit(cells(text[row_start : len(text) if end < 0 else end], row_start))
    return units[column] if column < len(units) else None


def _quotient(row_cells: list[tuple[int, str]], column: int, unit: str) -> bool:
    """Whether a multiple is the quotient of two other numbers of its row ("5 | 38 | 7.6x"): it restates the
    measurements beside it rather than adding one."""
    if unit != "x":
        return False
    value = re.match(r"\s*[~≈]?\s*(\d+(?:\.\d+)?)", row_cells[column][1])
    if not value:
        return False
    ratio = float(value.group(1))
    numbers = [
        parse_number(m.group("num"))
        for j, (_, c) in enumerate(row_cells)
        if j not in (0, column) and (m := BARE_CELL.fullmatch(c))
    ]
    return any(
        b and i != k and abs(a / b - ratio) <= 0.02 * ratio
        for i, a in enumerate(numbers)
        for k, b in enumerate(numbers)
    )


def _normalised(text: str, row_start: int, column: int) -> bool:
    """Whether a column of a table whose rows are settings holds the unit in one of its rows ("1 GPU | 100%"
    over "8 GPUs | 77%"): a series normalised to one of its own settings, its reference set by the table
    (a scaling curve), not a result set against a system."""
    at = table_top(text, row_start)
    while True:
        end = text.find("\n", at)
        row = text[at : len(text) if end < 0 else end]
        if _CELL_SEP not in row and (
            row.strip() or _CELL_SEP not in text[end + 1 : text.find("\n", end + 1)]
        ):
            return False  # a blank line is crossed where rows go on under it (Markdown's header)
        here = row.split(_CELL_SEP)
        if column < len(here) and _UNIT_RATIO.fullmatch(here[column]):
            return True
        if end < 0:
            return False
        at = end + 1


def _table_head(text: str, row_start: int) -> tuple[str, str]:
    """The header row of the table a row belongs to, the paragraph just above the table and, where that is
    no caption, a caption just below it ("Table 1: ..." set under the rows): what the table says it
    measures; and what the table itself says (its header and caption): a table captioned below is not a
    hyperparameter table for the prose above it naming them ("... in a hyperparameter tuning job.")."""
    top = table_top(text, row_start)
    head = [h for h in (header_row(text, row_start),) if h]
    lines = text[max(0, top - _TABLE_REACH) : top].split("\n")[:-1]
    i = len(lines) - 1
    while i >= 0 and not lines[i].strip():
        i -= 1
    # the whole paragraph above (a caption wraps over lines), up to a few lines
    above: list[str] = []
    while i >= 0 and lines[i].strip() and len(above) < _CAPTION_LINES:
        above.insert(0, lines[i])
        i -= 1
    below = text[row_start : row_start + _TABLE_REACH].split("\n")
    j = 0
    while j < len(below) and (_CELL_SEP in below[j] or not below[j].strip()):
        j += 1
    # a caption below counts where the paragraph above is none (it is then the next table's caption)
    captioned = bool(above) and bool(_CAPTION_BELOW.match(above[0]))
    caption_below = below[j] if not captioned and j < len(below) and _CAPTION_BELOW.match(below[j]) else ""
    own = " ".join([*head, caption_below]) if caption_below else " ".join([*above, *head])
    return " ".join([*above, *head, caption_below]), own
