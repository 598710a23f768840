"""Result or not, by the clause: a number with a ratio unit is dropped when its clause describes a setting,
a workload, a definition or a label instead of stating a result.

Papers write their settings with the same units as their results ("oversubscription of 1.5x", "nodes linked
by 4x HDR links", "a trace where 15% of jobs run 30x longer", "a run counts as scalable if it keeps 70% of
ideal throughput", "(Local 1x)"). What tells them apart is what the clause says: a result verb or comparison
(achieves, reduces, speeds up, outperforms, faster than, by X%) against a setting verb, a workload's
description, a definition or a name. The cues are a declared table (``CUES``), one own-worded example per
row; the tests run every example through the whole extraction path.

Why a module of its own: the claim finder (``_claims``) says where a number and its unit are; this module
says, from the words around it, whether the number is a claim, so either can change without the other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Where a cue is looked for, relative to the number: ``after`` (the text right after the unit), ``clause``
#: (the clause before the number, from the last comma, semicolon or sentence end), ``sentence`` (the
#: sentence before the number, up to a semicolon), ``parenthesis`` (the whole of the brackets the number
#: stands in).
WHERE = ("after", "clause", "sentence", "parenthesis")

# Verbs and comparisons that state a result: a clause holding one states a result whatever else it holds,
# unless the cue is a definition (a definition's "reaches 90%" is its condition, not a result).
RESULT_WORDS = re.compile(
    r"achiev|\breach|attain|obtain|deliver|sustain|improv|reduc|outperform|faster|slower|higher|lower|better|"
    r"worse|speed|accelerat|\bgains?\b|\bsav(?:e|es|ing)\b|\bcuts?\b|shorter|cheaper|surpass|beats?\b|"
    r"提高|提升|降低|减少|达到|实现|加速|缩短",
    re.I,
)
_CLAUSE_BREAK = re.compile(r"[.;!?](?=\s)|[。；！？,，]|\n\s*\n")
_SENTENCE_BREAK = re.compile(r"[.;!?](?=\s)|[。；！？]|\n\s*\n")

# Nouns that count members of a workload (a share of them is a statistic of the workload, not a result).
_POPULATION = (
    r"(?:tasks|jobs|blocks|requests|users|workers|threads|kernels|queries|samples|iterations|steps|files|"
    r"experts|tokens|warps|pages|accesses|flows|calls|functions|invocations|operators|layers|models|tenants)"
)


@dataclass(frozen=True)
class Cue:
    """A sign that a number is not a result: its name, the claim shapes it applies to, where it is looked for,
    its pattern(s), whether it holds even when the clause states a result, an own-worded example and the
    claims (value, unit) the example still holds (its results)."""

    name: str
    shapes: frozenset[str]
    where: str
    pattern: re.Pattern[str]
    overrides_result: bool
    example: str
    kept: tuple[tuple[float, str], ...] = ()


_RATIOS = frozenset({"x", "pct", "times", "fold", "words"})
_X = frozenset({"x", "times", "fold"})

CUES: tuple[Cue, ...] = (
    Cue(
        "link count",
        _X,
        "after",
        re.compile(
            r"[ \t]*(?:(?:HDR|EDR|NDR|FDR|QDR)[ \t]+)?(?:InfiniBand|IB\b|NVLinks?|NVSwitch|RoCE|Ethernet|NICs?|"
            r"HCAs?|links?\b|ports?\b|lanes?\b|SSDs?\b|NVMe|disks?\b|HBM)",
            re.I,
        ),
        True,
        "The servers are joined by 4x HDR InfiniBand, and Foo trains 1.6x faster than Bar on them.",
        ((1.6, "x"),),
    ),
    Cue(
        "resource multiple",
        _X,
        "after",
        re.compile(
            r"[ \t]*(?:\)|[ \t])?(?:of[ \t]+(?:the[ \t]+|its[ \t]+|their[ \t]+)?)?(?:GPU[ \t-]+|device[ \t-]+)?"
            r"(?:over-?subscri\w+|working[ \t-]+sets?|memory[ \t]+(?:capacity|budget|limit)|capacity\b|"
            r"headroom|replication\b|redundancy\b)(?![^.;,]{0,40}\b(?:than|compared|relative|over|versus|vs)\b)",
            re.I,
        ),
        True,
        "Each node runs at 1.5x oversubscription of its device memory, where Foo cuts stalls by 35%.",
        ((35.0, "%"),),
    ),
    Cue(
        "label",
        _X,
        "parenthesis",
        # "(Local 1x)", "(2x Local 1x)": a name with its multiple, the whole of a parenthesis.
        re.compile(
            r"[ \t]*(?:\d+(?:\.\d+)?[ \t]*[x×][ \t]*)?[A-Z][\w-]*(?:[ \t]+[A-Za-z][\w-]*){0,2}"
            r"(?:[ \t]+\d+(?:\.\d+)?[ \t]*[x×])?[ \t]*"
        ),
        True,
        "We compare tuned sharing, the plain runtime (Local 1x) and two copies (2x Local 1x); sharing is 1.7x faster.",
        ((1.7, "x"),),
    ),
    Cue(
        "name after the multiple",
        _X,
        "after",
        # "2×Local": a multiplication sign glued to a capitalised word names a configuration; a comparative
        # glued to it ("3×Faster", text from a PDF that lost its spaces) is not one.
        re.compile(
            r"(?=[A-Z][a-z])(?!(?i:faster|slower|higher|lower|more|less|fewer|larger|smaller|better|greater|"
            r"speed|improv|reduc|cheaper|shorter|longer|over|than|the|as)\b)[A-Z][a-z]+"
        ),
        True,
        "The bound for two tenants is 2×Local, and Foo reaches 1.8× over one tenant.",
        ((1.8, "x"),),
    ),
    Cue(
        "setting verb",
        _RATIOS,
        "sentence",
        re.compile(
            r"\b(?:(?:is|was|are|were|be)[ \t]+(?:set|fixed|configured|chosen|capped|limited)[ \t]+(?:to|at|as)\b|"
            r"we[ \t]+(?:configure|set|fix|choose|pick|vary|sweep|provision|allocate)\b|"
            r"(?:configure[ds]?|setting)[ \t]+(?:\w+[ \t]+){0,3}?(?:ratios?|factors?|levels?)[ \t]+(?:of|to|at)\b)",
            re.I,
        ),
        False,
        "The batch was fixed at 96, which is 1.8x larger than the largest batch the old runtime fits.",
        (),
    ),
    Cue(
        "workload statistic",
        _RATIOS,
        "clause",
        re.compile(
            r"\b(?:workloads?|traces?|distributions?|scenarios?|regimes?|datasets?|benchmarks?)\b[^.;,]{0,60}?"
            r"\b(?:where|in[ \t]+which|whose|such[ \t]+that)\b[^.;,]*$",
            re.I,
        ),
        True,
        "On skewed traces where 15% of jobs run 30x longer than the median, Foo cuts waiting time by 12%.",
        ((12.0, "%"),),
    ),
    Cue(
        "after a share of a population",
        _RATIOS,
        "clause",
        re.compile(
            rf"(?<![\w.])\d+(?:\.\d+)?[ \t]*%[ \t]+of[ \t]+(?:the[ \t]+|all[ \t]+)?(?:\w+[ \t]+)?{_POPULATION}\b"
            r"[^.;,]*$",
            re.I,
        ),
        False,
        "In the sampled trace, 10% of requests carry 40x more tokens than the rest.",
        (),
    ),
    Cue(
        "share of a population",
        frozenset({"pct"}),
        "after",
        re.compile(
            rf"[ \t]+of[ \t]+(?:the[ \t]+|all[ \t]+)?(?:\w+[ \t]+)?{_POPULATION}[ \t]+"
            rf"(?:do|does|perform|performs|run|runs|take|takes|request|requests|have|has|use|uses|are|is|"
            rf"need|needs|carry|carries|hold|holds|touch|touches|arrive|arrives)\b",
            re.I,
        ),
        False,
        "In the production log, 20% of jobs request eight GPUs, and Foo lowers their wait by 2.5x.",
        ((2.5, "x"),),
    ),
    Cue(
        "definition",
        _RATIOS,
        "sentence",
        re.compile(
            r"\b(?:valid|considered|deemed|regarded|defined|classified|counted|counts|labell?ed|treated|"
            r"qualif\w+|called|said)\b[^.;]*\b(?:if|when|once|whenever|as[ \t]+long[ \t]+as|provided)\b[^.;]*$"
            r"|\b(?:we[ \t]+define|is[ \t]+defined[ \t]+as|are[ \t]+defined[ \t]+as|by[ \t]+definition|"
            r"we[ \t]+call|we[ \t]+say)\b[^.;]*$"
            r"|\b(?:a|an|the)[ \t]+(?:perfect|ideal|optimal|theoretical(?:ly)?[ \t]+optimal)[ \t]+[^.;,]{0,60}?"
            r"\b(?:has|have|is|would|achieves?|reaches|gets|yields|attains)\b[^.;,]*$"
            r"|(?:完美|理想)的?[^，。；,;]{0,40}(?:具有|为|是|达到|可达|实现)[^，。；,;]*$",
            re.I,
        ),
        True,
        "A layout is deemed scalable if it reaches 70%-95% of linear throughput.",
        (),
    ),
    Cue(
        "probability",
        frozenset({"pct"}),
        "after",
        re.compile(r"[ \t]*(?:probability|chance|likelihood|of[ \t]+the[ \t]+time[ \t]+at[ \t]+random)\b", re.I),
        True,
        "Each step draws a short sequence with 70% probability, and Foo is 9% faster than Bar.",
        ((9.0, "%"),),
    ),
)


def not_a_result(text: str, start: int, end: int, shape: str) -> str | None:
    """The name of the first cue saying the number at ``text[start:end]`` (written as ``shape``) is no
    result, or None when it may be one."""
    clause = sentence = None
    for cue in CUES:
        if shape not in cue.shapes:
            continue
        if cue.where == "after":
            hit = bool(cue.pattern.match(text, end))
        elif cue.where == "parenthesis":
            inside = _parenthesis(text, start, end)
            hit = inside is not None and bool(cue.pattern.fullmatch(inside))
        else:
            if clause is None:
                clause, sentence = _clause(text, start), _sentence(text, start)
            hit = bool(cue.pattern.search(clause if cue.where == "clause" else sentence))
        if hit and (cue.overrides_result or not _states_result(text, start, end, clause)):
            return cue.name
    return None


def _states_result(text: str, start: int, end: int, clause: str | None) -> bool:
    """Whether the number's own clause (before and after it) holds a result verb or comparison."""
    before = clause if clause is not None else _clause(text, start)
    tail = _CLAUSE_BREAK.split(text[end : end + 80], 1)[0]
    return bool(RESULT_WORDS.search(before) or RESULT_WORDS.search(tail))


def _parenthesis(text: str, start: int, end: int) -> str | None:
    """The text inside the brackets the number stands in (up to 40 characters each side), or None."""
    opened = text.rfind("(", max(0, start - 40), start)
    closed = text.find(")", end, end + 40)
    if opened < 0 or closed < 0 or ")" in text[opened:start] or "(" in text[end:closed]:
        return None
    return text[opened + 1 : closed]


def _clause(text: str, start: int) -> str:
    lo = max(0, start - 160)
    breaks = list(_CLAUSE_BREAK.finditer(text, lo, start))
    return text[breaks[-1].end() if breaks else lo : start]


def _sentence(text: str, start: int) -> str:
    lo = max(0, start - 300)
    breaks = list(_SENTENCE_BREAK.finditer(text, lo, start))
    return text[breaks[-1].end() if breaks else lo : start]
