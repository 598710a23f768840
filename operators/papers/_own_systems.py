"""Which of a paper's proposals are its own systems: ranked by how each was found (the title's name, "we present
X") and by how often the body uses it, without names the body never uses (an affiliation, a venue), names of
hardware, models or datasets, and names the text mostly mentions as something compared against."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable

from assay.operators.papers._mentions import Mention
from assay.operators.papers._proposals import COMPARED_BEFORE, STRONG_EVIDENCE, Proposal
from assay.operators.papers._sections import ACKNOWLEDGEMENTS
from assay.operators.papers._title_names import occurrences

#: How much each kind of evidence says that a name is the paper's own system (see ``own_systems``).
_EVIDENCE = {
    "title": 4.0,
    "package": 3.5,
    "propose": 3.0,
    "ours": 3.0,
    "called": 2.0,
    "apposition": 1.5,
    "technique": 2.0,
    "verb": 0.5,
    "frequent": 0.0,
    "known": 0.0,
}
#: Proposals by words, not by a name (``_techniques``): the paper's own when it proposes no name.
_UNNAMED = ("technique",)
#: Kinds of known names that are never a paper's system: what it runs on or trains.
NOT_SYSTEMS = ("hardware", "model", "dataset")
#: Evidence that the paper presents a name itself (its title's, "we present X", its package's): a benchmark, a
#: model or a chip it presents is its own whatever kind the gazetteer knows the name as.
_PRESENTED = ("title", "propose", "package")


def own_systems(
    text: str, proposed: list[Proposal], known: list[Mention], section: Callable[[int], str]
) -> list[str]:
    """The paper's own systems, most likely first: its proposals ranked by how they were found (the
    title's name, "we present X" first) and by how often the body uses them (log-scaled), without names
    that the body never uses (an affiliation, a venue, an author in the title block), names of hardware,
    models or datasets, and names the text mostly mentions as something compared against."""
    not_systems = {m.name.lower() for m in known if m.type in NOT_SYSTEMS} | {
        m.text.lower() for m in known if m.type in NOT_SYSTEMS
    }
    scored: list[tuple[float, int, str]] = []
    names = {p.name for p in proposed}
    for p in proposed:
        # a benchmark, a model or a chip the paper itself presents ("We present MLPerf, an ML benchmark") is
        # its own; one it merely names is what it runs on or trains
        known_kind = p.name.lower() in not_systems and p.how not in _PRESENTED
        sized = p.how not in STRONG_EVIDENCE and _sized_model(text, p.name)
        if known_kind or sized or _footnoted(text, p.name, names) or _a_label(text, p.name):
            continue
        body = compared = 0
        forms: Counter[str] = Counter()
        # Case-blind: translations and headings vary the case ("FLUX", "Flux").
        for start, end in occurrences(text, p.name, False, 2000):
            if section(start) in ("front", "references", ACKNOWLEDGEMENTS) or (
                text[start:end].islower() and not p.name.islower()
            ):
                continue  # not the body, or an ordinary word ("compute" for a name "Compute")
            body += 1
            forms[text[start:end]] += 1
            if COMPARED_BEFORE.search(text, max(0, start - 30), start):
                compared += 1
        if body == 0 and p.how != "title":
            continue
        if p.how not in ("title", "propose") and compared * 2 > body:
            continue
        score = _EVIDENCE.get(p.how, 0.0) + math.log2(1 + body)
        # Named as the body writes it most often ("Flux" for a title's "FLUX").
        written = forms.most_common(1)[0][0] if forms and p.how == "title" else p.name
        scored.append((score, p.start, written, p.how))
    scored.sort(key=lambda s: (-s[0], s[1]))
    if any(how in STRONG_EVIDENCE for *_, how in scored):
        # The paper states its own system: names merely repeated are not its own.
        return [name for _, _, name, how in scored if how in STRONG_EVIDENCE]
    if any(how in _UNNAMED for *_, how in scored):
        # It names none but a technique by its words.
        return [name for _, _, name, how in scored if how in _UNNAMED]
    # No statement makes any name the paper's own: a name merely repeated (a blog's "AllReduce", an
    # operation it tunes) is no system of the whole document's; a name opening sentences ("Ravel
    # synthesizes ...") or a known system the text is all about still is.
    top = [name for _, _, name, how in scored[:1] if how != "frequent"]
    # A known system the text keeps naming stands even where repeated names outnumber it.
    return top or [name for _, _, name, how in scored if how == "known"][:1]


def _sized_model(text: str, name: str) -> bool:
    """Whether the text writes ``name`` with a parameter count joined to it (``OLMoE-10B``, ``Qwen2-72B``,
    ``Llama7B``): a model the paper runs, whatever the gazetteer knows, not a system of its own."""
    return bool(re.search(rf"(?<![\w-]){re.escape(name)}-?\d+(?:\.\d+)?[BM]\b", text))


def _footnoted(text: str, name: str, names: set[str]) -> bool:
    """A name that is another candidate with a footnote's number glued on ("FooServe1" beside "FooServe")."""
    stem = name.rstrip("0123456789")
    return stem != name and stem in names and len(occurrences(text, name, True, 3)) <= 2


#: A list's label: a capital or two and a number (``C1`` of "(C1) no visibility", ``RQ2``, ``Q3``).
_LABEL = re.compile(r"[A-Z]{1,2}\d{1,2}")


def _a_label(text: str, name: str) -> bool:
    """A name that is a list's label (a challenge, a question, a contribution) written in brackets: ``(C1)``."""
    return bool(_LABEL.fullmatch(name)) and f"({name})" in text
