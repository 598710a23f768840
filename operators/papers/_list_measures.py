"""Whether the numbers of a list measure one thing, so that the unit the last one is written with is theirs
too ("by 1.3, 1.5 and 2.0x"), or two things, each named beside its own number."""

from __future__ import annotations

import re

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
