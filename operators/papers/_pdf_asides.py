"""A PDF's pages put together as one text, each page's asides (captions, figure and table text, with the
places ``_pdf_layout.page_parts`` read them at) set in as paragraphs where they cut no sentence and cross no
section's heading."""

from __future__ import annotations

import re
from collections.abc import Sequence

from assay.operators.papers._pdf_joins import join_lines, vocabulary
from assay.operators.papers._pdf_layout import SENTENCE_END, TABLE_CAPTION

#: A section's heading line: a numbered title (``7 Related Work``, ``II. DESIGN``; not a line of prose that
#: starts with a number, ``512 GPUs and a``, nor a list item, ``2. We design``) or a known section's name.
_HEADING_LINE = re.compile(
    r"^(?:\d{1,2}(?:\.\d{1,2})*\.?|[IVX]+\.)\s+(?!(?:We|Our|It|Its|This|These|They)\b)"
    r"(?=[^\n]{1,40}$)[A-Z][\w-]*(?:\s+[\w&:-]+){0,5}$"
    r"|^(?i:abstract|introduction|related work|background|evaluation|conclusions?|references|acknowledge?ments?)$"
)


def _tables(asides: Sequence[str]) -> set[int]:
    """The places in a page's asides of its tables (read as rows, ``a | b``) with their captions next to
    them: what is set in before a section's heading when it stood before it."""
    grids = {j for j, a in enumerate(asides) if " | " in a}
    return grids | {
        j for j, a in enumerate(asides) if TABLE_CAPTION.match(a) and (j - 1 in grids or j + 1 in grids)
    }


def document_text(pages: Sequence[tuple[list[str], list[tuple[int, str]]]]) -> str:
    """The pages' body lines as one text, each page's asides (with their places, ``page_parts``) set in
    as paragraphs after the first sentence end that follows them, so a sentence running across a page or
    around a figure stays whole; but never past a section's heading: the asides that stood before a
    heading line (on its page or carried from the page before) are set in right before it. A table of
    section 6 set in after section 7's first sentence is read there, where its cells are no results."""
    words = vocabulary(line for lines, asides in pages for line in [*lines, *(a for _, a in asides)])
    body: list[str] = []
    pending: list[str] = []
    chunks: list[str] = []

    def flush() -> None:
        chunks.append(join_lines(body, words))
        chunks.extend(join_lines(a.split("\n"), words) for a in pending)
        body.clear()
        pending.clear()

    for lines, page_asides in pages:
        asides = [(place, a) for place, a in page_asides if a.strip()]
        tables = _tables([a for _, a in asides])
        for i, line in enumerate(lines):
            if _HEADING_LINE.match(line.strip()):
                stood = [j for j in sorted(tables) if asides[j][0] <= i]
                pending += [asides[j][1] for j in stood]
                tables -= set(stood)
                if pending:
                    flush()
            body.append(line)
            if pending and SENTENCE_END.search(line):
                flush()
        moved = _tables([a for _, a in asides]) - tables
        pending += [a for j, (_, a) in enumerate(asides) if j not in moved]
    if body:
        chunks.append(join_lines(body, words))
    chunks += [join_lines(a.split("\n"), words) for a in pending]
    return "\n\n".join(c for c in chunks if c.strip())
