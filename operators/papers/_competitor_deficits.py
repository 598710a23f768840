"""A language-level attribution rule read from the claim's clause (issue 26).

* A slowdown or deficit whose grammatical subject is a competitor is the competitor's claim: "BarPipe takes
  2.1x longer than ours", "BarPipe leaves 30% of the throughput on the table", "BarPipe is 40% slower". Its
  subject is the competitor, and its baseline the paper's own system where the clause names it
  (``competitor_deficits``); without the rule the paper's prior gave it to the paper's own system.

The cues are declared tables, one own-worded example per row (tests/unit/test_papers_competitor_deficits.py runs
each through ``segment_text`` -> ``extract_knowledge``).
"""

from __future__ import annotations

import re

from assay.operators.papers._baselines import inside
from assay.operators.papers._claims import Claim
from assay.operators.papers._mentions import MentionIndex
from assay.operators.papers._subjects import _NOT_TOPIC_BEFORE, _SELF_WORDS, _TOPIC_BREAK
from assay.operators.papers._table_units import CELL_SEP

#: A slowdown or deficit after the number: (pattern, example).
DEFICITS: tuple[tuple[str, str], ...] = (
    (r"slower", "BarPipe is 40% slower than FooSched"),
    (r"longer", "BarPipe takes 2.1x longer than ours"),
    (r"more\s+(?:GPU\s+)?(?:time|memory|hours|energy|cost|iterations|steps)", "needs 2.4x more memory"),
    (r"(?:lower|less|worse)\b", "BarPipe reaches 28% lower throughput"),
    (r"behind", "BarPipe falls 25% behind FooSched"),
    (r"higher\s+(?:\w+\s+)?(?:latency|cost|overhead|makespan|JCT|completion\s+time)", "1.9x higher latency"),
    (r"of\s+(?:the\s+|its\s+)?[\w\s-]{0,40}?\bon\s+the\s+table", "leaves 30% of the throughput on the table"),
    (r"of\s+(?:the\s+|its\s+)?[\w\s-]{0,40}?\b(?:idle|unused|wasted)", "leaves 35% of the GPUs idle"),
)
_DEFICIT = re.compile(r"\s*(?:" + "|".join(p for p, _ in DEFICITS) + r")", re.I)
# The comparison word before the paper's own system in the clause after the number.
_AGAINST = re.compile(r"\b(?:than|behind|compared\s+(?:to|with)|relative\s+to|over|versus|vs\.?)\s+", re.I)
_SELF_BASELINE = re.compile(
    r"(?:ours|us|our\s+(?:[\w-]+\s+){0,2}?(?:system|approach|method|design|"
    r"scheduler|framework|solution|technique|work|implementation)s?)\b",
    re.I,
)
_CLAUSE_AFTER = re.compile(r"[;；。:]|,\s*(?:while|whereas|but|and|which)\b|\.\s", re.I)


def competitor_deficits(
    text: str, claims: list[Claim], mentions: MentionIndex, own: set[str], primary: str | None
) -> None:
    """Give each slowdown or deficit whose clause's subject is another system to that system, against
    the paper's own system where the clause names it after the number."""
    for claim in claims:
        if not claim.sentence or claim.unit not in ("x", "%") or claim.subject_source == "component":
            continue  # a component the clause makes the cause ("<system> with X") is no competitor
        if not _DEFICIT.match(text, claim.end, claim.sentence[1]) or _in_a_table_row(text, claim):
            continue  # (a table's row is no clause: ``Qwen3 | 2x faster | 70% less``, its rows no sentence)
        rival = _clause_subject(text, claim, mentions, own)
        if rival is None:
            continue
        claim.subject, claim.subject_source = rival, "topic"
        named = _own_after(text, claim, mentions, own, primary)
        if named:
            claim.versus, claim.versus_source = named, "phrase"


def _in_a_table_row(text: str, claim: Claim) -> bool:
    """Whether the claim's line is a table's row as the readers leave it: cells joined by `` | ``."""
    lo = text.rfind("\n", 0, claim.start) + 1
    hi = text.find("\n", claim.end)
    return text.count(CELL_SEP, lo, hi if hi >= 0 else len(text)) >= 2


def _clause_subject(text: str, claim: Claim, mentions: MentionIndex, own: set[str]) -> str | None:
    """The first other system opening the claim's clause before the number ("However, BarPipe takes
    ..."), unless the paper's system or a self-reference stands between it and the number."""
    assert claim.sentence is not None
    lo = claim.sentence[0]
    for brk in _TOPIC_BREAK.finditer(text, lo, claim.start):
        lo = brk.end()
    if _ABLATION.search(text, lo, claim.start):
        return None
    names = [
        (m.start, m.end, m.name)
        for m in mentions.inside(lo, claim.start)
        if m.type in ("system", "method") and not inside(m, claim.versus_span)
    ]
    if not names:  # a system the paper names too rarely to be marked: a name written like one (BarPipe)
        names = [
            (n.start(), n.end(), n.group())
            for n in _NAME_LIKE.finditer(text, lo, claim.start)
            if not re.search(r"\d\s*$", text[max(lo, n.start() - 4) : n.start()])  # "64 GPUs": a count
            and not mentions.overlapping(n.start(), n.end())  # a model, hardware or dataset ("ResNet-152")
        ]
    for start, end, name in sorted(names)[:1]:
        if name.lower() in own or _NOT_TOPIC_BEFORE.search(text[max(lo, start - 30) : start]):
            return None
        if _SELF_WORDS.search(text[end : claim.start]) or any(
            o.name.lower() in own for o in mentions.inside(end, claim.start)
        ):
            return None
        return name
    return None


# A system's name as papers write one: an inner capital or a digit after a capital ("BarPipe", "Megatron-LM").
# An acronym alone ("JCT", "GPUs") is more often a metric or hardware than a system.
_NAME_LIKE = re.compile(r"\b[A-Z][A-Za-z]*(?:[a-z][A-Z]|-[A-Z])[\w-]*")
# "without X, the JCT is 1.4x longer": an ablation (``_ablation``), not another system's deficit.
_ABLATION = re.compile(r"\bwithout\b", re.I)


def _own_after(
    text: str, claim: Claim, mentions: MentionIndex, own: set[str], primary: str | None
) -> str | None:
    """The paper's own system named after a comparison word in the claim's clause ("than ours", "behind
    FooSched"), as the paper writes it."""
    assert claim.sentence is not None
    hi = claim.sentence[1]
    stop = _CLAUSE_AFTER.search(text, claim.end, hi)
    hi = stop.start() if stop else hi
    against = _AGAINST.search(text, claim.end, hi)
    if not against:
        return None
    for m in mentions.inside(against.end(), hi):
        if m.name.lower() in own and m.start - against.end() <= 4:
            return m.name
    if primary and _SELF_BASELINE.match(text, against.end(), hi):
        return primary
    return None
