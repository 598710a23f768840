"""A sentence that opens by pointing back at the numbers before it ("These ratios drop further to 58% and 32%",
"This gap grows to 9% on 64 GPUs", "This grows to 20x on 64 GPUs", "With more replicas, this speedup drops to 15%")
states the same measures again, for another setting: its numbers keep the subjects and baselines of the
previous sentence's, in order (issue 26).

The demonstrative with a noun naming numbers (ratio, gap, share, speedup, ...) is the English construction;
the previous sentence must end right before it (no other sentence between) and hold as many claims, so each
number pairs with one of them. A baseline phrase the sentence names itself is kept.
"""

from __future__ import annotations

import re

from assay.operators.papers._claims import Claim

# "These ratios", "This gap", "Those two shares", "Both speedups": a determiner pointing back at numbers.
# Also after an opening adverbial set off by a comma ("With more accumulation, this speedup drops to 15%"),
# and a bare "This" whose verb moves the number to a new value ("This grows to 20x on 64 GPUs").
_POINTS_BACK = re.compile(
    r"\s*(?:[A-Z][^.;:,]{0,80},\s+(?=[Tt]h|[Bb]oth))?(?:(?:[Tt]hese|[Tt]hose|[Tt]his|[Tt]hat|[Bb]oth)\s+"
    r"(?:[\w-]+\s+)?(?:ratios?|numbers?|figures?|values?|gaps?|shares?|"
    r"fractions?|percentages?|speedups?|improvements?|reductions?|savings|overheads?)\b|"
    r"(?:This|That)\s+(?:grows|rises|drops|falls|shrinks|increases|decreases|climbs|widens|narrows)\s+"
    r"(?:further\s+)?to\b)"
)


def continue_numbers(text: str, claims: list[Claim]) -> None:
    """Give the claims of a sentence opening "These ratios ..." the subjects and baselines of the previous
    sentence's claims, pairwise."""
    by_sentence: dict[tuple[int, int], list[Claim]] = {}
    for claim in claims:
        if claim.sentence:
            by_sentence.setdefault(claim.sentence, []).append(claim)
    ordered = sorted(by_sentence)
    for before, sentence in zip(ordered, ordered[1:], strict=False):
        if not _POINTS_BACK.match(text, sentence[0]) or text[before[1] : sentence[0]].strip():
            continue
        now, then = by_sentence[sentence], by_sentence[before]
        if len(now) != len(then) or any(c.versus_source == "phrase" for c in now):
            continue
        for claim, earlier in zip(now, then, strict=True):
            if earlier.subject:
                claim.subject, claim.subject_source = earlier.subject, earlier.subject_source
            claim.versus, claim.versus_span, claim.versus_source = (
                earlier.versus,
                None,
                earlier.versus_source,
            )
