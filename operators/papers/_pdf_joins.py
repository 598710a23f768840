"""The lines of a PDF's paragraph joined into text: a word hyphenated at a line's end is joined (a compound keeps
its hyphen where the document writes it hyphenated elsewhere), a range broken after its dash (``15–`` / ``40%``)
is kept whole; a plain text converted from a PDF gets the same joins."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

#: The hyphens a line may end with (PDFium marks its own as U+0002).
_HYPHENS = "-\u2010\u2011\x02\xad"


def vocabulary(lines: Iterable[str]) -> Counter[str]:
    """The words of a document (lower case), hyphenated compounds whole: what decides whether a word
    broken at a line end was one word or a compound."""
    words: Counter[str] = Counter()
    for line in lines:
        words.update(w.lower() for w in _VOCAB_WORD.findall(line))
    return words


_VOCAB_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


def join_lines(lines: Sequence[str], words: Counter[str] | None = None) -> str:
    """Lines joined by line breaks; a word hyphenated across a break is joined (a compound such as
    ``state-of-the-`` / ``art`` keeps its hyphen) and a range broken after its dash is kept whole."""
    text = "\n".join(line.strip() for line in lines if line.strip())
    return _join_breaks(text, words or Counter()).replace("\x02", "-")


def join_hyphenated(text: str) -> str:
    """A plain text's words hyphenated across its line breaks joined, as a PDF's are (a text a converter wrote
    from a PDF, ``pdftotext``'s, keeps the breaks): its paragraphs and lines stay as they are otherwise."""
    return _join_breaks(text, vocabulary(text.split("\n")))


_BROKEN = re.compile(r"(?P<word>[^\s]*?)(?P<dash>[" + _HYPHENS + r"–—])\n(?P<next>\S+)[ \t]?")


def _join_breaks(text: str, words: Counter[str]) -> str:
    def fix(m: re.Match[str]) -> str:
        word, dash, nxt = m.group("word"), m.group("dash"), m.group("next")
        if re.search(r"\d[%×x]?$", word) and nxt[0].isdigit():  # 15– / 40%: one range
            return f"{word}{'–' if dash == chr(2) else dash}{nxt}\n"
        if dash in "–—":
            return m.group()
        if word and word[-1].isalpha() and nxt[0].islower():
            # a compound keeps its hyphen: one with a hyphen already (state-of-the- / art), or one the
            # document writes hyphenated elsewhere more often than as one word; a split word loses it
            head, tail = word.lower(), _VOCAB_WORD.match(nxt)
            tail_word = tail.group().lower() if tail else nxt.lower()
            keep = any(h in word for h in _HYPHENS) or words[f"{head}-{tail_word}"] > words[head + tail_word]
            return f"{word}{'-' if keep else ''}{nxt}\n"
        if word and word[-1].isalnum() and nxt[0].isalnum():  # Megatron- / LM
            return f"{word}-{nxt}\n"
        return m.group()

    return _BROKEN.sub(fix, text)
