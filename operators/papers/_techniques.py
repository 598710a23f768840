"""What a paper presents when it gives it no product name: a technique named by its words ("We propose
frozen-aware stage partitioning, which ...", "we propose a packing policy that ..."). The object of the
statement's verb is read as a noun phrase of two to four lower-case words, and kept only when the text names it
again: the phrase is then the subject of the paper's results, as the measuring sets' readers write it ("frozen
status-aware pipeline parallelism", "kernel fusion"). The proposal rules (``_proposals``) ask for these only
when no name is proposed.

A paper that gives its work no name at all and calls it "our approach" throughout (dozens of times, far more
often than it repeats any technique phrase) is read as the text names it: "our approach" is the subject of its
results (``self_reference``).

Left out: a measurement study's object ("we study how spot instances are priced", "we analyse the prices of X")
as the paper's own subject. It lost a baseline on a held-out paper and gained nothing; such a study's results
take their clause's subject instead (``_clause_subjects``)."""

from __future__ import annotations

import re

from assay.operators.papers._title_names import occurrences

# "we propose", "this paper presents", "in this work, we introduce": the statement's object follows.
_PROPOSE = re.compile(
    r"\b(?:we|this\s+(?:paper|work|article))\s+(?:(?:also|further|first)\s+)?"
    r"(?:propose[sd]?|presents?|introduce[sd]?|design(?:s|ed)?|develop(?:s|ed)?|devise[sd]?)\s+",
    re.I,
)
# Two to four lower-case words after an article and an evaluative adjective, ending where the clause goes on
# (a comma, a relative clause, a preposition, a verb, a participle: "instances offered by ...").
_PHRASE = re.compile(
    r"(?:(?:a|an|the)\s+)?(?:(?:novel|new|simple|general|lightweight|practical)\s+)?"
    r"(?P<p>[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*){1,3}?)"
    r"(?=\s*(?:[,.;:]|$)|\s+(?:that|which|to|for|in|where|called|named|dubbed|with|by|across|on|and|are|is|"
    r"was|were|can|over|under|when|[a-z]+ed)\b)"
)
# Words that make a phrase no technique's name: function words inside it, or a head that names the paper's
# own activity ("a detailed analysis", "a set of ...").
_FUNCTION = frozenset(
    "of to and or yet the a an for in on with our we its their this that these those is are be".split()
)
_NOT_HEADS = frozenset(
    "analysis study survey evaluation characterization characterisation overview way ways idea ideas set number "
    "series range variety result results question questions paper work "
    # what a paper reports of its measurements ("we also present the standard deviation where it was high")
    "deviation deviations variance mean means median average averages breakdown numbers figures data".split()
)


def technique_phrases(text: str) -> list[tuple[str, int, str]]:
    """``(phrase, start, how)`` for each technique the text proposes by words only (``how`` "technique"), first
    statement first, each named at least twice in the text."""
    out: list[tuple[str, int, str]] = []
    seen: set[str] = set()
    for m in _PROPOSE.finditer(text):
        phrase = _PHRASE.match(text, m.end())
        if not phrase:
            continue
        words = phrase.group("p").split()
        if _FUNCTION.intersection(words) or words[-1] in _NOT_HEADS:
            continue
        name = " ".join(words)
        if name in seen or len(occurrences(text, name, False, 2)) < 2:
            continue
        seen.add(name)
        out.append((name, phrase.start("p"), "technique"))
    return out


# How a paper with no product name refers to its work: "our approach", "our method", "our scheme".
_OURS = re.compile(
    r"\b[Oo]ur\s+(?P<n>approach|method|technique|scheme|solution|design|system|framework|algorithm|"
    r"implementation)(?:es|s)?\b"
)
#: "our approach" names the paper's work when it is written this often, and more than twice as often as the
#: technique phrase the paper proposes by words.
SELF_REFERENCE_MIN = 8


def self_reference(text: str, techniques: list[tuple[str, int, str]]) -> tuple[str, int] | None:
    """``("our approach", first start)`` when the text calls its unnamed work so far more often than by any
    technique phrase that the phrase is no name the reader would use."""
    counts: dict[str, list[int]] = {}
    for m in _OURS.finditer(text):
        counts.setdefault(m.group("n"), []).append(m.start())
    if not counts:
        return None
    noun, starts = max(counts.items(), key=lambda kv: len(kv[1]))
    named = max((len(occurrences(text, t, False, 1000)) for t, _, _ in techniques), default=0)
    if len(starts) < SELF_REFERENCE_MIN or len(starts) <= 2 * named:
        return None
    return f"our {noun}", starts[0]
