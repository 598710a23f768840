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

import re

from assay.operators.papers._cues import CUES
from assay.operators.papers._figure_text import even_row, label_line, tick_label, torn_decimal

# Verbs and comparisons that state a result: a clause holding one states a result whatever else it holds,
# unless the cue is a definition (a definition's "reaches 90%" is its condition, not a result).
RESULT_WORDS = re.compile(
    r"achiev|\breach|attain|obtain|deliver|sustain|improv|reduc|outperform|faster|slower|higher|lower|better|"
    r"worse|(?<![A-Za-z])speed|accelerat|\bgains?\b|\bsav(?:e|es|ing)\b|\bcuts?\b|shorter|cheaper|surpass|beats?\b|sooner|"
    r"earlier|quicker|\bkeeps?\b|\bkept\b|maintain|retain|preserv|slowdowns?\b|"
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
    ):
        return "figure text"
    clause = sentence = None
    for cue in CUES:
        if shape not in cue.shapes:
            continue
        if cue.where == "after":
            hit = bool(cue.pattern.match(text, end))
        elif cue.where == "parenthesis":
            inside = _parenthesis(text, start, end) or _legend_entry(text, start, end)
            hit = inside is not None and bool(cue.pattern.fullmatch(inside))
        else:
            if clause is None:
                clause, sentence = _clause(text, start), _sentence(text, start)
            hit = bool(cue.pattern.search(clause if cue.where == "clause" else sentence))
        if hit and (cue.overrides_result or not _states_result(text, start, end, cue.result_in)):
            return cue.name
    return None


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
    r"[~≈<>]?\s*[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s*(?:[x×]|\\?%|％|times)"
    r"(?:\s*(?:[-–~]|to)\s*(?:\d+(?:\.\d+)?)\s*(?:[x×]|\\?%|％))?\s*(?:\([^)]*\))?\s*",
    re.I,
)
_RATIO_CELLS = re.compile(rf"(?:{_RATIO_CELL.pattern})+", re.I)
# What a results table's header or caption says it measures, against what a hyperparameter table lists.
RESULT_HEADER = re.compile(
    r"speed-?ups?|improv|reduc|overhead|faster|slower|\bgains?\b|saving|\bvs\.?|versus|compar|relative|"
    r"normali[sz]ed|ratio|efficien|utili[sz]|throughput|latency|\bJCT\b|makespan|加速|提升|降低|开销",
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
_TABLE_REACH = 2000
_CAPTION_LINES = 4
_CAPTION_BELOW = re.compile(r"\s*(?:Table|Tab\.|表)\s*\d", re.I)


def table_result(text: str, start: int, end: int, unit: str) -> bool:
    """Whether a number in a table row states a result: the row names something in its first cell, the number
    is a ratio filling a cell of its own, and the table is a results table -- its header or the caption
    above it says what it compares (speedup, overhead, reduction, vs, ...) and nothing there names
    hyperparameters; a multiple (``x``) in a row of names is a result by itself."""
    lo = text.rfind("\n", 0, start) + 1
    hi = text.find("\n", end)
    row = text[lo : len(text) if hi < 0 else hi]
    if _CELL_SEP not in row:
        return False
    cells, offset = [], lo
    for cell in row.split(_CELL_SEP):
        cells.append((offset, cell))
        offset += len(cell) + len(_CELL_SEP)
    first = cells[0][1].strip()
    if not re.match(r"[A-Za-z\u4e00-\u9fff]", first) or SETTING_HEADER.search(first):
        return False
    own = next((c for o, c in cells if o <= start < o + len(c)), "")
    # a cell may hold two sub-columns' ratios side by side ("≈ 35% 1.1x") where the reader joined them
    if not _RATIO_CELLS.fullmatch(own):
        return False
    header = _table_head(text, lo)
    results = bool(RESULT_HEADER.search(header))
    if _HYPERPARAMETER.search(header) or (SETTING_HEADER.search(header) and not results):
        return False
    return unit == "x" or results


def _table_head(text: str, row_start: int) -> str:
    """The header row of the table a row belongs to, the paragraph just above the table and, where that is
    no caption, a caption just below it ("Table 1: ..." set under the rows): what the table says it
    measures."""
    floor = max(0, row_start - _TABLE_REACH)
    lines = text[floor:row_start].split("\n")
    head: list[str] = []
    i = len(lines) - 1
    while i >= 0 and (_CELL_SEP in lines[i] or not lines[i].strip()):
        if lines[i].strip():
            head = [lines[i]]  # the topmost row seen so far: the header
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
    return " ".join([*above, *head, caption_below])
