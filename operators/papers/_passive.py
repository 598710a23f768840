"""Passive comparisons: "BarPipe is outperformed by Quill by 30%" measures the passive's agent (Quill) against its
grammatical subject (BarPipe), the reverse of the active order every other comparison phrase is read in; the
subject may be left to the clause before ("Quill beats A and is only slightly outperformed by B by 1.05x")."""

from __future__ import annotations

import re

from assay.operators.papers._baseline_lists import CITATION, ONE_NAME
from assay.operators.papers._context import CLAUSE_END

# A passive comparison: its grammatical subject is the baseline, its agent ("by X") the system measured.
# Its subject may be left to the clause before ("Quill beats A and is only slightly outperformed by B by 1.05x").
_PASSIVE = re.compile(
    rf"(?:(?P<v>{ONE_NAME})|\band)\s+(?:is|are|was|were|gets|got|being)\s+(?:\w+ly\s+){{0,2}}"
    r"(?:outperformed|beaten|surpassed|exceeded|outpaced|bested)\s+by\s+(?!\s*[\d$~])(?P<a>[^,;:()]{1,60}?)\s+by\s+"
    r"(?:(?:up\s+to|about|over|nearly|almost|roughly|on\s+average)\s+)?(?:a\s+)?$"
)
_SENTENCE_NAME = re.compile(rf"\s*(?P<v>{ONE_NAME})")
# The agent's name, perhaps with a variant's star ("SwitchML∗").
_AGENT_NAME = re.compile(rf"(?:{ONE_NAME})[∗*]?")


#: A passive is looked for over the whole sentence when it is this short, else over the last ``_REACH`` characters
#: before the number (a long "sentence" is often a table read flat: one search a claim must stay short).
_SHORT_SENTENCE = 240
_REACH = 160


def passive_comparison(
    text: str, s_start: int, claim_start: int
) -> tuple[tuple[str, int, int], str | None] | None:
    """A passive comparison the number ends ("BarPipe is outperformed by Quill by 30%"): its subject, the
    baseline, with its span (the sentence's first name where the clause leaves it out: "Quill ... and is
    outperformed by B by 1.05x"), and its agent, the system measured. ``s_start``: where the sentence starts."""
    whole = claim_start - s_start <= _SHORT_SENTENCE
    lo = s_start if whole else claim_start - _REACH
    if text.find("by", lo, claim_start) < 0:
        return None
    passive = _PASSIVE.search(text, lo, claim_start)
    if not passive or CLAUSE_END.search(text, passive.end(), claim_start):
        return None
    agent = CITATION.sub("", passive.group("a")).strip()
    agent = agent if _AGENT_NAME.fullmatch(agent) else None
    if passive.group("v") is not None:
        return (CITATION.sub("", passive.group("v")), passive.start("v"), passive.end("v")), agent
    first = _SENTENCE_NAME.match(text, lo) if whole else None  # (only where the search began at the sentence)
    if first is None:
        return None
    return (CITATION.sub("", first.group("v")), first.start("v"), first.end("v")), agent
