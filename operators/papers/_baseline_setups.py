"""What the paragraph and the document say about a claim's baseline when its sentence names none: "We compare
A against ours" names the baseline of the paper's own results after it (``comparison_setups``, ``from_setup``),
an ablation's variant named once in its setup does too, and a result restated without its baseline keeps the
one it was stated with (``restated``); a number that continues the one before it in its clause ("by 17% on
average, growing to 30% at the largest batch") is measured against the same baseline (``continued``).

A module of its own (split from ``_baselines``, which reads one sentence's comparison phrase) because these
rules read beyond the sentence: a section, a paragraph, the document's other statements.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from assay.operators.papers._claims import Claim
from assay.operators.papers._sections import Structure
from assay.operators.papers._table_units import CELL_SEP

# "We compare the native scheduler against Quokka": the evaluation's setup names the baseline of the
# results that follow it in its section ("Quokka cuts the tail latency by 95%").
_SETUP = re.compile(
    r"\b(?:we|We)\s+(?:also\s+|then\s+|further\s+)?compare\s+(?P<a>[^.;:!?\n]{2,80}?)\s+"
    r"(?:against|with|to)\s+(?P<b>[^.;:!?\n]{2,80}?)(?=\s*[.;:!?\n]|\s+(?:using|on|under|across|for|in|at)\b)"
)
# "We also run the baseline version of our framework, i.e. with both optimizations disabled, and call it
# FooSys (baseline)": an ablation names its variant of the paper's own system once, in its setup, and the
# results after it are measured against that name. The sentence must say the variant is one of the paper's
# own ("our", the system's name) and cut down ("baseline", "without", "disabled", "vanilla", ...), so
# "we call it FooSys" naming the system itself is no baseline.
_NAMED_VARIANT = re.compile(
    r"\b(?:(?:(?:we|We|and)\s+)?(?:call|name|denote|label|refer\s+to)\s+"
    r"(?:it|this\s+(?:version|variant|configuration))(?:\s+as)?"
    r"|(?:referred\s+to|denoted|labell?ed)\s+as|hereafter)\s+"
    r"(?P<b>[^\s.;:!?,()][^.;:!?\n()]{0,59}?(?:\s*\([^()\n]{1,30}\))?)(?=\s*(?:[.;:!?,)]|$))",
    re.M,
)
_CUT_DOWN = re.compile(
    r"\b(?:baseline|without|disabled|turned\s+off|switched\s+off|vanilla|unoptimi[sz]ed|no\s+\w+)\b", re.I
)
_SENTENCE_START = re.compile(r"[.!?]\s+(?=[A-Z0-9])|\n\s*\n")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_PAREN_NOTE = re.compile(r"\s*[(\[][^)\]]*[)\]]")
_OWN_WORDS = re.compile(r"\b(?:our|ours)\b", re.I)


def comparison_setups(text: str, structure: Structure, own: set[str]) -> list[tuple[int, str]]:
    """(position, baseline) of each "we compare A against B" whose one side is the paper's system, and of
    each cut-down variant of the paper's own system that its setup names ("... and call it FooSys (base)")."""
    out = []
    for m in _SETUP.finditer(text):
        a, b = (_PAREN_NOTE.sub("", m.group(g)).strip() for g in ("a", "b"))
        a_own, b_own = (_names_own(side, own) for side in (a, b))
        if a_own != b_own:
            baseline = b if a_own else a
            baseline = re.sub(r"^(?:the|a|an)\s+", "", baseline, flags=re.I)
            if 2 <= len(baseline) <= 60 and " and " not in baseline and "," not in baseline:
                out.append((m.start(), baseline))
    for m in _NAMED_VARIANT.finditer(text):
        opening = max(
            (s.end() for s in _SENTENCE_START.finditer(text, max(0, m.start() - 300), m.start())),
            default=max(0, m.start() - 300),
        )
        described = text[opening : m.start()]
        if _CUT_DOWN.search(described) and _names_own(described, own):
            out.append((m.start(), m.group("b").strip()))
    return sorted(out)


def _names_own(side: str, own: set[str]) -> bool:
    words = set(re.findall(r"[\w+-]+", side.lower()))
    return bool(_OWN_WORDS.search(side)) or any(name in words for name in own)


def from_setup(claim: Claim, setups: list[tuple[int, str]], structure: Structure) -> None:
    """The baseline of the nearest setup before the claim, in the same section and its paragraph or the
    next ("We compare A against ours. <blank line> Figure 5 shows the results: ours cuts ... by 40%")."""
    section = bisect.bisect_right(structure.starts, claim.start)
    for pos, baseline in reversed(setups):
        if pos < claim.start:
            if (
                bisect.bisect_right(structure.starts, pos) == section
                and len(_PARAGRAPH_BREAK.findall(structure.text, pos, claim.start)) <= 1
            ):
                claim.versus, claim.versus_source = baseline, "setup"
            return


def restated(claims: list[Claim], text: str = "") -> None:
    """A result restated without its baseline (the conclusion's "improves JCT by 3.5x") keeps the one the
    paper gave it where it stated it with one ("by 3.5x compared to X"): the same subject, unit and value,
    and one baseline only among those statements. A run without a component ("than the best throughput
    achieved without recomputation") is the baseline of a statement about that component only: a sentence
    not naming it ("poor splits lead to up to 2x lower throughput") restates another result."""
    stated: dict[tuple[Any, ...], set[str]] = {}
    for claim in claims:
        # (a statement whose sentence names its subject, or a table's row: one that only the paper's prior gives a
        # subject, "50% of the rows draw 10% less power than the hungriest row", is no result of the system to
        # restate)
        named = claim.subject_source != "primary" or _in_a_row(text, claim.start)
        if claim.versus and claim.versus_source in ("phrase", "respectively", "list") and named:
            stated.setdefault(_result_key(claim), set()).add(claim.versus)
    for claim in claims:
        if claim.versus is None and claim.subject_source in ("proposed", "primary"):
            found = stated.get(_result_key(claim))
            if found and len(found) == 1:
                versus = next(iter(found))
                without = re.match(r"without\s+(?:the\s+|our\s+|its\s+)?(.+)", versus, re.I)
                if (
                    without
                    and claim.sentence
                    and without.group(1).lower()
                    not in " ".join(text[claim.sentence[0] : claim.sentence[1]].lower().split())
                ):
                    continue
                claim.versus, claim.versus_source = versus, "restated"
    continued(claims, text)


def _in_a_row(text: str, at: int) -> bool:
    """Whether the number at ``at`` stands on a table's row (``a | b | c``)."""
    lo, hi = text.rfind("\n", 0, at) + 1, text.find("\n", at)
    return CELL_SEP in text[lo : hi if hi >= 0 else len(text)]


# "by 17% on average, growing to 30% at the largest batch": a participle of change carries the number before
# it on to another setting, against the same baseline.
_CONTINUES = re.compile(
    r"(?:(?!\b(?:but|while|whereas|yet)\b)[^.;:!?\d\n]){0,60}?,\s*(?:and\s+)?"
    r"(?:growing|rising|increasing|climbing|reaching|going|dropping|falling|shrinking|widening)\s+"
    r"(?:up\s+)?to\s+(?:(?:about|around|roughly|nearly|almost|over|up\s+to)\s+)?[~∼≈]?$",
    re.I,
)


def continued(claims: list[Claim], text: str) -> None:
    """A number carried on from the one before it by a participle of change ("by 17% on average, growing to
    30% at the largest batch size") keeps that number's baseline, when it has none of its own."""
    for before, claim in zip(claims, claims[1:], strict=False):
        if (
            claim.versus is None
            and before.versus
            and before.unit == claim.unit
            and before.sentence == claim.sentence
            and before.end <= claim.start
            and _CONTINUES.fullmatch(text, before.end, claim.start)
        ):
            claim.versus, claim.versus_span, claim.versus_source = before.versus, before.versus_span, "continued"


def _result_key(claim: Claim) -> tuple[Any, ...]:
    return (claim.subject, claim.unit, claim.value, claim.value_low, claim.value_high)
