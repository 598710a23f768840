"""A PDF's title: the information dictionary's where the first page prints it, else the title the first page sets.

Many papers carry no ``/Title`` (a LaTeX build without ``hyperref``'s ``pdftitle``) or a leftover one (a
template's, "Microsoft Word - draft.docx"), and a title wraps over two or three lines. The first page sets its
title in its largest type near the top: the lines of that size that follow one another there, joined as
lines are (a word hyphenated at a line's end rejoined), are the title. Figure labels and running heads are
set smaller, so they are not taken for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assay.operators.papers import _pdf_layout as layout
from assay.operators.papers._pdf_joins import join_lines

#: The title is set at least this much larger than the body text.
_LARGER = 1.15
#: Lines within this share of the largest size are set in the title's type.
_SAME_TYPE = 0.95
#: Two lines of one title are at most this many of their size apart (baseline to baseline, less one line).
_LINE_GAP = 1.0
_WORD = re.compile(r"\w+")
_LETTERS = re.compile(r"[^\W\d_]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
#: A title has this many letters at least (a figure's labels set large, "K80 P100 V100", have fewer).
_TITLE_LETTERS = 12


def choose_title(info_title: str | None, first_page: Sequence[layout.Line], height: float, body: float) -> str | None:
    """The information dictionary's title where the first page prints most of its words, else the title the
    first page sets (``first_page``: its lines, ``height``: its height, ``body``: the document's body size)."""
    page_text = " ".join(line.text for line in first_page).lower()
    if info_title and _printed(info_title, page_text):
        return info_title
    return page_title(first_page, height, body) or info_title


def page_title(lines: Sequence[layout.Line], height: float, body: float) -> str | None:
    """The lines in the page's largest type in its top half that follow one another, joined: of each size
    larger than the body's, largest first, the first run of lines that reads as a title (words, not a
    figure's labels and numbers set large)."""
    top = sorted((line for line in lines if line.top > height / 2 and line.text.strip()), key=lambda ln: -ln.top)
    for big in sorted({line.size for line in top if line.size >= _LARGER * body}, reverse=True):
        start = next(i for i, line in enumerate(top) if _same_type(line.size, big))
        picked = [top[start]]
        for line in top[start + 1 :]:
            if not _same_type(line.size, big) or picked[-1].bottom - line.top > _LINE_GAP * big:
                break
            picked.append(line)
        title = " ".join(join_lines([line.text for line in picked]).split())
        # a Han character is a word's worth of letters
        if 3 <= len(title) <= 300 and len(_LETTERS.findall(title)) + len(_HAN.findall(title)) >= _TITLE_LETTERS:
            return title
    return None


def _same_type(size: float, big: float) -> bool:
    return _SAME_TYPE * big <= size <= big / _SAME_TYPE


def _printed(title: str, page_text: str) -> bool:
    words = _WORD.findall(title.lower())
    return bool(words) and sum(1 for w in words if w in page_text) >= 0.6 * len(words)
