"""A result set in contrast to the sentence before it: "EnvPipe only trims the slack of one stage. In contrast,
Foo cuts the energy by up to 30%" measures Foo against what that sentence was about.

A contrast marker opening the claim's sentence ("In contrast,", "By contrast,", "Conversely,") says the
number is read against the previous sentence of the paragraph; its baseline is that sentence's subject when
it is another system named at its start, or the condition it opens with ("Without sharing, 42 GPUs are
needed. In contrast, Foo needs one, a 42x gain": "without sharing"). A module of its own because it reads
across sentences, which the clause rules of ``_baselines`` never do; it runs before the section- and
paper-level defaults, which are weaker evidence than the discourse marker.
"""

from __future__ import annotations

import re

import numpy as np

from assay.operators.papers._claims import Claim
from assay.operators.papers._mentions import MentionIndex
from assay.operators.papers._pronouns import DISTINCT_NAME as _DISTINCT_NAME
from assay.operators.papers._sentences import sentence_at

_MARKER = re.compile(r"\s*(?:in\s+contrast|by\s+contrast|conversely|on\s+the\s+contrary)\s*,", re.I)
# The previous sentence opening with a condition: "Without MPS or Foo, 42 GPUs are needed".
_WITHOUT = re.compile(r"\s*(?P<b>without\s+[^,.;:]{2,50}?)\s*,", re.I)
#: Characters from the previous sentence's start within which its subject must be named (its first words,
#: after a connective: "However, EnvPipe ...", "The EnvPipe scheduler ...").
_SUBJECT_REACH = 30
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_SYSTEMS = ("system", "method")


def contrast_baselines(
    text: str, sentences: np.ndarray, claims: list[Claim], mentions: MentionIndex, own: set[str]
) -> None:
    """Give a claim of the paper's own system that has no baseline, in a sentence opening with a contrast
    marker, the subject (or opening condition) of the sentence before it in the same paragraph."""
    for claim in claims:
        if claim.versus is not None or not claim.sentence or (claim.subject or "").lower() not in own:
            continue
        start = claim.sentence[0]
        marker = _MARKER.match(text, start)
        if not marker or marker.end() > claim.start:
            continue
        previous = sentence_at(sentences, start - 1) or sentence_at(sentences, start - 2)
        if previous is None or _PARAGRAPH_BREAK.search(text, previous[1], start):
            continue
        found = _WITHOUT.match(text, previous[0], previous[1])
        if found:
            claim.versus, claim.versus_span = found.group("b"), found.span("b")
            claim.versus_source = "contrast"
            continue
        reach = min(previous[1], previous[0] + _SUBJECT_REACH)
        named = [(m.start, m.end, m.name) for m in mentions.inside(previous[0], reach) if m.type in _SYSTEMS]
        # A name the paper did not otherwise mark, written as a system's ("FooFreq", "vPipe").
        named += [(m.start(), m.end(), m.group()) for m in _DISTINCT_NAME.finditer(text, previous[0], reach)]
        for lo, hi, name in sorted(named):
            if name.lower() not in own:
                claim.versus, claim.versus_span, claim.versus_source = name, (lo, hi), "contrast"
                break


# "FooSys reaches the target while A and B each lose 1.5% and 2.6%": the losers' numbers, in a clause a
# "while"/"whereas" sets against a main clause about the paper's own system, are measured against it.
_WHILE = re.compile(r"\b(?:while|whereas)\b", re.I)
# A while-clause of a participle ("FooSys matches X while boosting the cost efficiency of MoE models by 1.5x")
# has the main clause's subject: nothing in it is set against that subject.
_PARTICIPLE = re.compile(r"\s+(?:also\s+|still\s+)?[a-z]+ing\b")
# The clause ends before the number: "..., when achieving a speedup of 28%" is another statement.
_CLAUSE_BREAK = re.compile(r"[,;:]|\b(?:when|where|after|before|if|since|because|with)\b", re.I)


def while_baselines(text: str, claims: list[Claim], mentions: MentionIndex, own: set[str]) -> None:
    """Give a claim whose while-clause names another system ("FooSys converges while A and B each lose 2%"),
    set against a main clause naming the paper's own system, that system as its baseline (versus FooSys)."""
    for claim in claims:
        if claim.versus is not None or not claim.sentence:
            continue
        lo = claim.sentence[0]
        marks = list(_WHILE.finditer(text, lo, claim.start))
        if not marks:
            continue
        mark = marks[-1]
        if _PARTICIPLE.match(text, mark.end()):
            continue  # "while boosting ...": the main clause's subject goes on, no other system set against it
        named = [
            (m.start, m.end, m.name) for m in mentions.inside(mark.end(), claim.start) if m.type in _SYSTEMS
        ]
        named += [
            (m.start(), m.end(), m.group()) for m in _DISTINCT_NAME.finditer(text, mark.end(), claim.start)
        ]
        others = [(a, b) for a, b, name in named if name.lower() not in own]
        if not others or any(name.lower() in own for *_, name in named):
            continue
        if _CLAUSE_BREAK.search(text, max(b for _, b in others), claim.start):
            continue  # "..., when reaching a speedup of 28%": another statement
        main = text[lo : mark.start()]
        found = [m for name in own for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", main, re.I)]
        if found:
            last = max(found, key=lambda m: m.start())
            claim.versus, claim.versus_span = last.group(), (lo + last.start(), lo + last.end())
            claim.versus_source = "contrast"


# "FooSys shows a 1.34x speedup over BarGen, while others achieve 1.18x and 1.28x each": the while-clause's
# subject is the other systems as a group (no name), and its numbers are the same comparison as the main
# clause's, against the same baseline.
_GROUP_SUBJECT = re.compile(
    r"\s*(?:,\s*)?(?P<s>(?:the\s+)?others|(?:the\s+|all\s+)?other\s+(?:[a-z][\w-]*\s+){0,2}?"
    r"(?:systems|baselines|methods|approaches|schemes|designs|frameworks|works|techniques))\b",
    re.I,
)


def group_while_baselines(text: str, claims: list[Claim]) -> None:
    """Give a claim in a while-clause whose subject is the other systems as a group ("while others achieve
    1.18x") that group as its subject and, where it is the same comparison, the main clause's baseline (the
    sentence's earlier claim's, "1.34x over BarGen") as its own."""
    by_sentence: dict[tuple[int, int], list[Claim]] = {}
    for claim in claims:
        if claim.sentence:
            by_sentence.setdefault(claim.sentence, []).append(claim)
    for (lo, _), group in by_sentence.items():
        group.sort(key=lambda c: c.start)
        for claim in group:
            marks = list(_WHILE.finditer(text, lo, claim.start))
            if not marks:
                continue
            mark = marks[-1]
            subject = _GROUP_SUBJECT.match(text, mark.end(), claim.start)
            # the same comparison: the main clause's unit, and no measure of the clause's own ("lose accuracy
            # by 2%" after "21% faster" is another comparison, against no named baseline)
            main = [
                c for c in group
                if c.end <= mark.start() and c.versus and c.unit == claim.unit and claim.metric in (None, c.metric)
            ]
            if not subject or not main or _CLAUSE_BREAK.search(text, subject.end(), claim.start):
                continue
            claim.subject, claim.subject_source = subject.group("s"), "contrast"
            claim.versus, claim.versus_span = main[-1].versus, main[-1].versus_span
            claim.versus_source = "contrast"
