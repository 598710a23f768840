"""Bare numbers listed before a number with a unit ("by 1.3, 1.5 and 2.0x"): they share its unit where the list
measures one thing, not where it measures two, each named beside its own number ("a perplexity of 10.8 and
66.5% accuracy"), nor where its numbers name things (``Table 3 and 2.1x``) or years."""

from __future__ import annotations

import re

from assay.operators.papers._numbers import NUMBER, NUMBER_START, looks_like_year

#: A list of bare numbers ending right before the claim's number with "and", "or" or a Chinese conjunction.
_LIST_BEFORE = re.compile(
    rf"(?P<items>(?:{NUMBER_START}{NUMBER}[ \t]*(?:,|，|、)[ \t]*)*{NUMBER_START}{NUMBER})"
    r"[ \t]*(?:,?[ \t]*\b(?:and|or)[ \t]+|和|与|及|以及|、)[ \t]*$"
)
_LIST_ITEM = re.compile(rf"{NUMBER_START}{NUMBER}")
#: Words before a list whose numbers name things rather than measure them ("Table 3 and 2.1x").
_LIST_NOT_VALUES = re.compile(
    r"(?:table|figure|fig\.|section|sec\.|eq\.|equation|algorithm|appendix|chapter|"
    r"step|stage|layer|version|图|表|第)[ \t]*$",
    re.IGNORECASE,
)
_CONJUNCTION_END = re.compile(r"(?:\band|\bor|和|与|及|、)[ \t]*$", re.IGNORECASE)


def listed_before(text: str, claim_start: int, claim_end: int, floor: int) -> list[re.Match[str]]:
    """The bare numbers listed right before the number at ``claim_start``-``claim_end`` that share its unit (none
    before ``floor``, the end of the claim before), each a match of its text."""
    if not _CONJUNCTION_END.search(text, max(floor, claim_start - 8), claim_start):
        return []
    found = _LIST_BEFORE.search(text, max(floor, claim_start - 120), claim_start)
    if not found:
        return []
    items = list(_LIST_ITEM.finditer(text, found.start("items"), found.end("items")))
    if any(looks_like_year(i.group()) for i in items):
        return []
    if _LIST_NOT_VALUES.search(text, max(0, found.start("items") - 12), found.start("items")):
        return []
    if two_measures(text, found.start("items"), claim_end):
        return []
    return items

#: ``<measure> of`` right before a list's first number ("a perplexity of 10.8 and 66.5% accuracy").
_MEASURE_OF = re.compile(r"\b(?P<noun>[A-Za-z][\w-]*)[ \t]+of[ \t]*$")
#: The word after a list's last number, when it names what that number measures ("66.5% accuracy").
_MEASURE_AFTER = re.compile(r"[ \t]*(?P<noun>[A-Za-z][\w-]*)")
#: Words after a number that go on the comparison or the clause, naming no measure of their own.
_NO_MEASURE_AFTER = frozenset(
    """in on at for of over than to by with from across compared relative versus vs respectively and or
    higher lower faster slower better worse more less fewer greater smaller larger bigger speedup speedups
    improvement improvements reduction reductions increase increases decrease decreases gain gains
    overhead overheads""".split()
)


def two_measures(text: str, items_start: int, claim_end: int) -> bool:
    """A list whose numbers measure two things, each named beside its own: "a perplexity of 10.8 and 66.5%
    accuracy" (the first number is the perplexity's, the percentage the accuracy's), not "by 1.3 and 2.0x"."""
    before = _MEASURE_OF.search(text, max(0, items_start - 40), items_start)
    after = _MEASURE_AFTER.match(text, claim_end)
    if not before or not after:
        return False
    noun, other = before.group("noun").lower(), after.group("noun").lower()
    return other not in _NO_MEASURE_AFTER and noun != other
