"""A figure's or table's words on what its numbers are normalised to ("Throughput of FooSys normalized to
BarPipe. FooSys is up to 2.6x faster."): the later claims of the same paragraph that name no baseline of their
own are against it, as a reader of the figure takes them."""

from __future__ import annotations

import re

from assay.operators.papers._claims import Claim

# "normalized to BarPipe", "normalised to that of BarPipe", "(normalized to the BarPipe baseline)": the name.
_NORMALISED_TO = re.compile(
    r"\bnormali[sz]ed\s+(?:with\s+respect\s+)?to\s+(?:that\s+of\s+|those\s+of\s+|the\s+)?"
    # (a dot inside a name, "v1.5", never the sentence's full stop after it)
    r"(?P<v>(?:[A-Z]|[a-z]{1,3}[A-Z])[\w+-]*(?:\.[\w+-]+)*(?:[ -][A-Z][\w+-]*(?:\.[\w+-]+)*)?)"
)
#: How far back in its paragraph a claim looks for the words.
_REACH = 400


def normalised_baselines(text: str, claims: list[Claim]) -> None:
    """Give each claim without a baseline the name an earlier sentence of its paragraph says the numbers are
    normalised to."""
    for claim in claims:
        if claim.versus is not None or not claim.sentence:
            continue
        start = claim.sentence[0]
        paragraph = text.rfind("\n\n", max(0, start - _REACH), start)
        lo = paragraph + 2 if paragraph >= 0 else max(0, start - _REACH)
        said = list(_NORMALISED_TO.finditer(text, lo, start))
        if said:  # the nearest before the claim
            claim.versus, claim.versus_span, claim.versus_source = said[-1]["v"], said[-1].span("v"), "normalised"
