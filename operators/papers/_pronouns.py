"""A baseline written as a pronoun ("within 3% of it"): the system named last before it that is not the claim's
subject. A module of its own: it reads the mentions and names before a claim's sentence, where ``_baselines``
reads the claim's own clause."""

from __future__ import annotations

import re

from assay.operators.papers._baselines import PRONOUN, name_key
from assay.operators.papers._claims import Claim
from assay.operators.papers._mentions import MentionIndex
from assay.operators.papers._proposals import acceptable

#: Characters before a pronoun searched for what it stands for (its sentence and the one before).
_ANTECEDENT_REACH = 400


def resolve_pronoun(text: str, claim: Claim, mentions: MentionIndex) -> None:
    """A baseline written as a pronoun ("within 3% of it") is the system named last before it that is not
    the claim's subject; none found, the claim has no baseline rather than "it"."""
    if not claim.versus or not claim.versus_span or not PRONOUN.match(claim.versus):
        return
    lo = max(0, claim.versus_span[0] - _ANTECEDENT_REACH)
    hi = claim.versus_span[0]
    found = [(m.start, m.end, m.name) for m in mentions.inside(lo, hi) if m.type in ("system", "method")]
    # A name the paper did not otherwise mark ("FooSched is the strongest baseline. ... within 3% of it").
    found += [(m.start(), m.end(), m.group()) for m in DISTINCT_NAME.finditer(text, lo, hi)]
    for start, end, name in sorted(found, reverse=True):
        if (
            name_key(name) != name_key(claim.subject or "")
            and acceptable(name)
            and not _covered(mentions, start, end)
        ):
            claim.versus, claim.versus_span = name, (start, end)
            return
    claim.versus, claim.versus_span, claim.versus_source = None, None, None


# A name with a capital or digit after its first letter ("FooSched", "vPipe"): a system's, not a word's.
DISTINCT_NAME = re.compile(
    r"(?<![A-Za-z0-9-])(?:[A-Z][a-z]+[A-Z0-9][A-Za-z0-9]*|[a-z]{1,3}[A-Z][A-Za-z0-9]*)\+{0,2}"
)


def _covered(mentions: MentionIndex, start: int, end: int) -> bool:
    """Whether a known mention other than a system covers the span (a model, a device: not a baseline)."""
    return any(m.type not in ("system", "method") for m in mentions.overlapping(start, end))
