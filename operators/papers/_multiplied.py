"""Change words and fractions read as values (issue 26): a multiple said by its verb ("FooServe doubles the users
served", "tripled throughput": 2x, 3x), unless the words say a setting changes ("as the batch doubles", "we double
the number of GPUs") or name a thing ("data triples"); a share said as a fraction after a word of amount ("by up
to 1/2", "only 1/2 of X's", "only half of X's", "by 1/2 -- 1/3"), as a percentage. The patterns that tell a half
is a setting or an operation (``HALVES_NOT_RESULT``, ``HALVING_RESULT``: "as the batch halves", "Successive
Halving") live here too, and ``_claims`` reads them for "halves".

A module of its own: the rules read the words around a change verb, a concern apart from the numbers
``_claims`` scans for.
"""

from __future__ import annotations

import re

from assay.operators.papers._clause import not_a_result

# "as the batch halves": the setting that changes, not a result; "halving" names an operation ("Successive
# Halving", "window halving") unless a result clause takes it as its participle (", halving the memory").
HALVES_NOT_RESULT = re.compile(r"\b(?:as|when|if|once|whenever)\b[^,.;]*$", re.I)
HALVING_RESULT = re.compile(r"(?:[,;]|\bthereby|\bthus)[ \t]*$", re.I)

_MULTIPLES = {"doubl": 2.0, "tripl": 3.0, "quadrupl": 4.0}
# What a run is set to, doubled as an experiment's knob, before or after the verb ("the batch size doubles",
# "doubling the number of GPUs"): a setting that changes, not a result.
_SETTING_DOUBLED = (
    r"(?:batch[ \t]+sizes?|sequence[ \t]+lengths?|model[ \t]+sizes?|learning[ \t]+rates?|cluster[ \t]+sizes?|"
    r"world[ \t]+sizes?|(?:number|count)[ \t]+of[ \t]+(?:GPUs|nodes|workers|machines|devices|servers|layers|"
    r"experts|parameters|ranks|replicas|stages|micro-?batches)|GPU[ \t]+counts?|resources|inputs?|workloads?|load)"
)
_SETTING_BEFORE = re.compile(rf"{_SETTING_DOUBLED}[ \t]+(?:(?:is|are|was|were)[ \t]+)?$", re.I)
_SETTING_AFTER = re.compile(
    rf"^[ \t]+(?:(?:(?:the|its|their|our)[ \t]+)?{_SETTING_DOUBLED}\b|in[ \t]+(?:size|number|count|length)\b)", re.I
)
# The verb in -s takes an object ("doubles the users served"); with none, the word is a noun ("data triples, ...").
_OBJECT_AFTER = re.compile(r"[ \t\n]+(?!(?:of|and|or|in|with|using|for|to|from|that|which|are|were)\b)[A-Za-z]")
# The noun, not the verb: "100 triples are used", "consists of triples of (x, y, D)", "the doubles".
_NOUN_BEFORE = re.compile(r"(?:\b(?:of|the|these|those|such|all|each|many|\d+)[ \t\n]+)$", re.I)
_ACTOR_BEFORE = re.compile(r"\b(?:we|I|you|they|to|should|must|would)[ \t]+(?:\w+ly[ \t]+)?$", re.I)


def multiplied(text: str, span: tuple[int, int], verb: str) -> float | None:
    """The multiple a change verb at ``span`` says ("FooServe doubles the users served"): 2, 3 or 4, unless the verb
    changes a setting ("as the batch doubles", "we double the number of GPUs") or names an operation
    ("doubling" that no result clause takes as its participle)."""
    start, end = span
    if (
        HALVES_NOT_RESULT.search(text, max(0, start - 60), start)
        or _SETTING_BEFORE.search(text, max(0, start - 40), start)
        or _SETTING_AFTER.match(text[end : end + 60])
        or _ACTOR_BEFORE.search(text, max(0, start - 20), start)
        or _NOUN_BEFORE.search(text, max(0, start - 12), start)
        or verb.lower().endswith("ing") and not HALVING_RESULT.search(text, max(0, start - 12), start)
        or verb.lower().endswith("es") and not _OBJECT_AFTER.match(text, end)
        or not_a_result(text, start, end, "words")
    ):
        return None
    return next(v for k, v in _MULTIPLES.items() if verb.lower().startswith(k))


# A fraction after a word of amount ("by up to 1/2", "only 1/3 of"), perhaps a range of two ("1/2 -- 1/3"); or
# "half" after a word of amount and before what it is a half of ("only half of the benchmark's").
FRACTION = re.compile(
    r"\b(?:by|to|only|just|about|nearly|roughly|almost|than|around|approximately)[ \t]+"
    r"(?:(?:up[ \t]+to|more[ \t]+than|less[ \t]+than|about|over)[ \t]+)?\$?"
    r"(?P<fn>[1-9])/(?P<fd>10|[2-9])\$?(?![\w/])"
    r"(?:[ \t]*(?:--|–|-|to)[ \t]*\$?(?P<gn>[1-9])/(?P<gd>10|[2-9])\$?(?![\w/]))?"
    # (half of another's figure, "half of the benchmark's", "half that of X"; not "half of the nodes", a share of
    # a whole)
    r"|\b(?:only|just|about|nearly|roughly|almost|less[ \t]+than|more[ \t]+than)[ \t]+(?P<hf>half)[ \t]+"
    r"(?=(?:that|those)[ \t]+of\b|of[ \t]+(?:the[ \t]+)?[\w-]+['’]s?\b)",
    re.I,
)


def fraction_share(text: str, m: re.Match[str]) -> tuple[float, float] | None:
    """The percentage (or the low and high ends of a range) a fraction match says, or None where a fraction of one
    or more is no share."""
    if m.group("hf"):
        return 50.0, 50.0
    first = 100.0 * int(m.group("fn")) / int(m.group("fd"))
    if first >= 100:
        return None
    if m.group("gn") is None:
        return round(first, 2), round(first, 2)
    second = 100.0 * int(m.group("gn")) / int(m.group("gd"))
    if second >= 100:
        return None
    return round(min(first, second), 2), round(max(first, second), 2)
