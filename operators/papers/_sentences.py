"""Sentence boundaries for English and Chinese (and mixed) text, as character offsets.

Rule-based and linear in the text: one regex pass finds candidate boundaries, and only a full stop
needs a second look (an abbreviation such as "e.g." or "et al." does not end a sentence). Decimals such
as "1.42x" never look like boundaries because no space follows their point.
"""

from __future__ import annotations

import re
from array import array

import numpy as np

# Closing quotes and brackets that stay with the sentence they close.
_CLOSERS = re.escape("\"'”’」』）)】]")
_CANDIDATE = re.compile(
    rf"[。！？]+[{_CLOSERS}]*"  # Chinese terminators end a sentence wherever they are
    rf"|[!?]+[{_CLOSERS}]*(?=\s|$|[\u4e00-\u9fff])"
    rf"|\.[{_CLOSERS}]*(?=\s+[\"'“‘(\[]?[A-Z0-9\u4e00-\u9fff]|\s*$|[\u4e00-\u9fff])"
    r"|\n[ \t\r\f\v]*\n\s*"  # a blank line: a paragraph break
    r"|\n(?=[ \t]*[•◦▪‣●][ \t])"  # a line that opens with a bullet: a list's item, a statement of its own
)
_LAST_WORD = re.compile(r"(\S+)$")
#: Words that a full stop follows without ending the sentence (lower-cased, without their final dot).
ABBREVIATIONS = frozenset(
    """e.g i.e cf vs etc.al et al fig figs eq eqs sec sect secs tab ref refs no nos vol approx resp
    dr mr mrs ms prof inc ltd corp co st jan feb mar apr jun jul aug sep sept oct nov dec ch pp p
    u.s u.k e.u ph.d m.sc b.sc a.k.a w.r.t viz""".split()
)
_SPACE = " \t\r\n\f\v\u3000"


def split_sentences(text: str) -> np.ndarray:
    """Sentence spans as an ``(n, 2)`` int64 array of ``[start, end)`` offsets into ``text``.

    Spans exclude surrounding whitespace and cover every non-blank character once. An array rather than
    a list of pairs keeps a 50 MB document's spans small (16 bytes per sentence).
    """
    bounds = array("q")
    start = 0
    for match in _CANDIDATE.finditer(text):
        end = match.end()
        if match.group().startswith(".") and _is_abbreviation(text, match.start()):
            continue
        _add(text, start, end, bounds)
        start = end
    _add(text, start, len(text), bounds)
    return (
        np.frombuffer(bounds, dtype=np.int64).reshape(-1, 2).copy() if bounds else np.zeros((0, 2), np.int64)
    )


def _is_abbreviation(text: str, dot: int) -> bool:
    found = _LAST_WORD.search(text, max(0, dot - 24), dot)
    if not found:
        return False
    word = found.group(1).lstrip("(\"'[“").lower()
    if word in ABBREVIATIONS or (word.startswith("et") and word.endswith("al")):
        return True
    # A single capital letter is an initial ("J. Dean"), not the end of a sentence.
    return len(word) == 1 and word.isalpha() and text[found.start(1)].isupper()


def _add(text: str, start: int, end: int, bounds: array) -> None:
    while start < end and text[start] in _SPACE:
        start += 1
    while end > start and text[end - 1] in _SPACE:
        end -= 1
    if end > start:
        bounds.append(start)
        bounds.append(end)


def sentence_at(spans: np.ndarray, offset: int) -> tuple[int, int] | None:
    """The ``(start, end)`` of the sentence containing ``offset``, or None if it falls between sentences."""
    i = int(np.searchsorted(spans[:, 1], offset, side="right")) if len(spans) else 0
    if i < len(spans) and spans[i, 0] <= offset < spans[i, 1]:
        return int(spans[i, 0]), int(spans[i, 1])
    return None


def chunk_spans(text: str, sentences: np.ndarray, limit: int) -> list[tuple[int, int]]:
    """Cut ``text`` into spans of at most ``limit`` characters, at sentence ends where possible, else at a
    space, else anywhere (so one unpunctuated 50 MB line still goes through in pieces)."""
    if len(text) <= limit:
        return [(0, len(text))]
    ends = sentences[:, 1] if len(sentences) else np.zeros(0, np.int64)
    out = []
    start = 0
    while start < len(text):
        hard = min(len(text), start + limit)
        if hard == len(text):
            out.append((start, hard))
            break
        i = int(np.searchsorted(ends, hard, side="right")) - 1
        cut = int(ends[i]) if i >= 0 and ends[i] > start else -1
        if cut <= start:
            space = text.rfind(" ", start + limit // 2, hard)
            cut = space if space > start else hard
        out.append((start, cut))
        start = cut
    return out
