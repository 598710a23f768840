"""Two systems' figures set side by side, then the ratio between them: "NVIDIA BERT takes 67 minutes, whereas
DeepSpeed takes 44 minutes, reducing training time by 30%", "on 256 GPUs, A takes 236 minutes while B takes 144
minutes (39% faster)". The number that follows compares the second figure's system with the first's: its
subject is the second, its baseline the first.

Each side is a name (a capitalised word or up to three, as blog posts write "NVIDIA BERT"), a verb that states a
figure (takes, needs, reaches, runs at, uses, ...) and the figure with its unit; the two units must be the same
word, so the pair measures one quantity. The ratio stands after the second figure in the same sentence, with no
comparison phrase of its own (``_baselines`` gave it no baseline). A module of its own: it reads a sentence's two
clauses as one comparison, which the clause-by-clause rules do not."""

from __future__ import annotations

import re

from assay.operators.papers._claims import Claim

_NAME = r"(?:[A-Z][\w.+-]*[ \t]+){0,2}[A-Z][\w.+-]*"
_STATES = (
    r"(?:takes|took|needs|needed|requires|required|reaches|reached|achieves|achieved|attains|attained|"
    r"runs\s+at|ran\s+at|uses|used|consumes|consumed|completes\s+in|completed\s+in|finishes\s+in|finished\s+in|"
    r"trains\s+in|trained\s+in|delivers|delivered|sustains|sustained|spends|spent|processes|processed)"
)


def _side(n: str, v: str, u: str) -> str:
    """One side's pattern: its name, the verb stating its figure, the figure and its unit (named groups)."""
    return (
        rf"(?P<{n}>{_NAME})\s+{_STATES}\s+(?:only\s+|about\s+|roughly\s+|around\s+|just\s+|~\s*)?"
        rf"(?P<{v}>\d[\d,]*(?:\.\d+)?)\s*(?P<{u}>[A-Za-z][A-Za-z/]*)"
    )


_PAIR = re.compile(
    _side("a", "va", "ua")
    + r"[^.;]{0,60}?(?:,\s*)?\b(?:while|whereas|but|and|compared\s+(?:to|with))\s+(?:only\s+)?"
    + _side("b", "vb", "ub")
)
#: A clause of its own between the pair and the ratio, opened by a capitalised name and its verb ("..., and Lark is
#: 30% cheaper"): the ratio is about that name.
_ANOTHER_NAME = re.compile(r"(?:[,;]\s*(?:and|while|but)?\s*|\band\s+)[A-Z][\w.+-]*\s+(?:is|was|are|runs|takes|uses)\b")
#: Words that open a sentence or a clause, never a system's name.
_NOT_A_NAME = re.compile(r"^(?:The|This|That|These|Those|It|We|Our|In|On|At|For|With|By|As|A|An)$")


def paired_figures(text: str, claims: list[Claim]) -> None:
    """Give a claim without a baseline that follows two systems' figures of one unit in its sentence the second
    system as its subject and the first as its baseline."""
    for claim in claims:
        if claim.versus is not None or not claim.sentence or claim.unit not in ("%", "x"):
            continue
        lo = claim.sentence[0]
        pairs = [m for m in _PAIR.finditer(text, lo, claim.start) if m.group("ua").lower() == m.group("ub").lower()]
        if not pairs:
            continue
        pair = pairs[-1]
        a, b = _name(pair.group("a")), _name(pair.group("b"))
        if not a or not b or a.lower() == b.lower():
            continue
        if _ANOTHER_NAME.search(text, pair.end(), claim.start):
            continue  # "..., and Lark is 30% cheaper": the ratio's own clause names who it is about
        at = pair.end("a") - len(a)
        claim.subject, claim.subject_source = b, "paired"
        claim.versus, claim.versus_span, claim.versus_source = a, (at, pair.end("a")), "paired"


def _name(words: str) -> str | None:
    """The name a side's words give: its words from the first that can start a name."""
    parts = words.split()
    while parts and _NOT_A_NAME.match(parts[0]):
        parts = parts[1:]
    return " ".join(parts) or None
