"""A number set against another number: "7.7%, compared to 35.8% under BarPipe", "lower overhead than BarPipe
(3% vs 85%)". The second number is no result measured against a baseline but the comparand's own figure, so
its subject is the system the text gives it and it has no baseline (issue 26).

English writes the comparand's figure right after "vs", "versus", "compared to/with" or "against" following the
first number, and names whose figure it is in one of two ways:

* a preposition with a system after the second number ("compared to 35.8% under BarPipe's partitioning",
  "vs 2.1x for BarPipe"): that system (``_OWNER_AFTER``);
* nothing after it, the first number having a baseline named in its own sentence ("lower overhead than BarPipe
  (3% vs 85%)"): the second number is that baseline's.

A second number whose owner is neither (a setting, "compared to 1.4x for the static trace", or a baseline with
no system's name) is left as the other rules read it.
"""

from __future__ import annotations

import re

from assay.operators.papers._claims import Claim
from assay.operators.papers._mentions import MentionIndex

# Between the first number and the second: the comparison word alone (a comma, "only", a bracket's space).
_VS_GAP = re.compile(
    r"\s*,?\s*(?:vs\.?|versus|compared\s+(?:to|with)|against)\s+(?:(?:only|just|about|roughly|nearly)\s+)?[~∼≈]?$",
    re.I,
)
# After the second number: the preposition that names whose figure it is.
# A baseline phrase that is a name alone: capitalised or with a capital inside ("Ferret", "NVBit", "FooLib 2").
_BARE_NAME = re.compile(r"[A-Z][\w.+-]*[A-Z0-9][\w.+-]*(?:\s+[A-Z0-9][\w.+-]*){0,2}|[A-Z][a-z]+")
_OWNER_AFTER = re.compile(r"\s*(?:under|with|for|by|from|using|in)\s+(?:the\s+)?", re.I)


def comparand_numbers(text: str, claims: list[Claim], mentions: MentionIndex) -> None:
    """Give each comparand's figure (the number after "vs"/"compared to" a first number) the system it is
    the figure of, and no baseline."""
    for first, second in zip(claims, claims[1:], strict=False):
        if first.sentence != second.sentence or second.start <= first.end or first.unit != second.unit:
            continue
        if not _VS_GAP.fullmatch(text, first.end, second.start):
            continue
        owner = _owner_after(text, second, mentions) or _named_baseline(first, mentions)
        if owner:
            second.subject, second.subject_source = owner, "comparand"
            second.versus, second.versus_span, second.versus_source = None, None, None


# Between the comparand's figure with its owner and the number derived from the pair: "..., a 22% gain".
_DERIVED_GAP = re.compile(
    r"[^,;:.()]{0,40},\s*(?:i\.e\.,?\s*)?(?:an?\s+|or\s+)?(?:\$\s*)?$", re.I
)


def derived_numbers(text: str, claims: list[Claim]) -> None:
    """A number derived from a pair just set against each other ("FooTune reaches 6100 tokens/s versus 5000
    tokens/s for BarTune, a 22% gain") compares the first number's system with the comparand's owner: its
    subject is the first's, its baseline the owner the comparand was given. Run after ``comparand_numbers``."""
    for first, second, third in zip(claims, claims[1:], claims[2:], strict=False):
        if not first.sentence == second.sentence == third.sentence:
            continue
        if third.unit not in ("x", "%") or first.unit == third.unit or third.versus is not None:
            continue
        if not _VS_GAP.fullmatch(text, first.end, second.start) or not _DERIVED_GAP.fullmatch(
            text, second.end, third.start
        ):
            continue
        owner = second.subject if second.subject_source == "comparand" or _named_after(text, second) else None
        if owner and first.subject and owner != first.subject:
            third.subject, third.subject_source = first.subject, first.subject_source
            third.versus, third.versus_span, third.versus_source = owner, None, "comparand"


def _named_after(text: str, claim: Claim) -> bool:
    """Whether the number's subject is the name its preposition gives it ("5000 tokens/s for Dense FT")."""
    after = _OWNER_AFTER.match(text, claim.end)
    return bool(after and claim.subject and text.startswith(claim.subject, after.end()))


def _owner_after(text: str, claim: Claim, mentions: MentionIndex) -> str | None:
    """The system named by the preposition right after the number ("35.8% under BarPipe's ...")."""
    after = _OWNER_AFTER.match(text, claim.end)
    if not after:
        return None
    for m in mentions.inside(after.end(), after.end() + 60):
        if m.start == after.end() and m.type in ("system", "method"):
            return m.name
    return None


def _named_baseline(claim: Claim, mentions: MentionIndex) -> str | None:
    """The one system the first number's baseline phrase in its sentence names."""
    if claim.versus_source != "phrase" or not claim.versus_span:
        return None
    named = {m.name for m in mentions.inside(*claim.versus_span) if m.type in ("system", "method")}
    if len(named) == 1:
        return named.pop()
    # a name no list knows, standing alone as the baseline ("than Ferret"), not a description
    return claim.versus if not named and claim.versus and _BARE_NAME.fullmatch(claim.versus) else None
