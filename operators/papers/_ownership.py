"""Whose is a system a sentence names: the paper's own or another work's ("Park et al. introduce X, a ...",
"FooLib [4] introduces X", "张等人提出了X"), and whether a title's lead is a name at all or a phrase
("Democratizing AI: ...", "Towards ...")."""

from __future__ import annotations

import re

from assay.operators.papers._gazetteer import generic_names

# A capital or digit after a word's first letter: a name's shape ("GPipe", "TetriServe"), not a plain word's.
_DISTINCTIVE = re.compile(r"[A-Z0-9]")

# Whose statement names a system: the paper's ("we", "our", "this paper", 我们, 本文) or another work's: a
# third party as the subject ("Park et al. introduce X", "the authors", "they", 张等人提出了X), or, with no
# self-reference in the clause, a citation ("FooLib [4] introduces X, a ...").
_SELF = re.compile(r"\b(?:we|our|us|this\s+(?:paper|work|article))\b|我们|本文|本研究", re.IGNORECASE)
_THIRD_PARTY = re.compile(r"\bet\s+al\b|\bthe\s+authors\b|\bthey\b|等人|他们", re.IGNORECASE)
_CITATION = re.compile(
    r"\[\d+(?:\s*[,–-]\s*\d+)*\]|\(\s*[A-Z][A-Za-z-]+(?:\s+et\s+al\.?)?,?\s+(?:19|20)\d\d\s*\)"
)
# A sentence's end; "et al." and "e.g." end none.
_SENTENCE_END = re.compile(r"(?<!\bal)(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)[.!?](?=\s)|[。！？]|\n[ \t]*\n")


# "The authors" with no work named after them: in a text that never speaks as "we" (a reading note, a blog post
# about one paper: "作者提出了 X"), they are the authors of the paper the text is about.
_THE_AUTHORS = re.compile(r"^the\s+authors$", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:we|our)\b|我们", re.IGNORECASE)


def credited_to_others(text: str, start: int) -> bool:
    """Whether the clause that states the name at ``start`` credits it to another work."""
    window = text[max(0, start - 300) : start]
    cut = 0
    for m in _SENTENCE_END.finditer(window):
        cut = m.end()
    clause = window[cut:]
    selves = [m.start() for m in _SELF.finditer(clause)]
    others = [
        m.start()
        for m in _THIRD_PARTY.finditer(clause)
        if not (_THE_AUTHORS.match(m.group()) and not _FIRST_PERSON.search(text))
    ]
    if others and (not selves or others[-1] > selves[-1]):
        return True
    return not selves and _CITATION.search(clause) is not None


# A title's lead that reads as a phrase, not a name: a verb or adverb first ("Democratizing ...", "Towards
# ...", "Efficiently ..."), or several ordinary words with no name among them ("Taming Scale").
_PHRASE_FIRST = re.compile(
    r"^(?:[A-Z][a-z]+(?:ing|ly)|Towards?|Beyond|On|When|Why|How|What|Making|Revisit\w*|Rethink\w*)$"
)


def phrase_like(lead: str) -> bool:
    """Whether a title's lead ("Democratizing AI") reads as a phrase rather than a system's name."""
    words = lead.split()
    generic = generic_names()
    if any(
        _DISTINCTIVE.search(w, 1) and not {w.lower(), w.lower().removesuffix("s")} & generic for w in words
    ):
        return False  # a name among the words: "TetriServe", "Amazon SageMaker"
    return len(words) > 1 or bool(_PHRASE_FIRST.match(words[0]))
