"""Source lines wrapped by an editor joined back into their paragraphs, as the format itself reads them.

Markdown and LaTeX sources are usually wrapped at a fixed width (72 or 80 columns, one sentence a line, or
wherever the author pressed return); both formats read a single line break inside a paragraph as a space. The
rules after the readers look for a claim's subject, comparison and baseline within a sentence, and a phrase
broken over two lines (``1.5x speedup over the`` / ``baseline system``) would otherwise be cut at the break.
Only what the format joins is joined: a blank line, a heading, a list item, a table row, a fenced block or a
forced break (two trailing spaces, a backslash) keep their lines. A line keeps its length in the output, so
the text's offsets only ever change where a line break became a space."""

from __future__ import annotations

import re

#: A Markdown line that opens a block of its own: a list item, a heading, a quote, a table row, a fence, a
#: rule, an HTML block, a display formula, an image, a footnote, a setext heading's underline.
_MD_BLOCK = re.compile(
    r"^\s*(?:[-*+•]\s|\d{1,3}[.)]\s|#|>|\||```|~~~|<|\$\$|!\[|\[\^|[-*_=]{3,}\s*$)"
)
#: A Markdown table's row (``| a | b |``, ``a | b``) or its delimiter row.
_MD_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$|^[^|\n]*\S\s*\|\s*\S[^|\n]*(?:\|[^|\n]*)*$|^\s*\|?\s*:?-{3,}")
_FENCE = re.compile(r"^\s*(?:```|~~~)")
#: A line of numbers only (a chart's tick labels, ``100% 80% 60%`` or ``1.5B 8B 20B``, left by a conversion
#: from PDF): no paragraph's words, kept on its own line.
_NUMBERS_ONLY = re.compile(r"^\s*(?:[-+]?\d[\d.,]*\s*(?:%|[xX×]|[KMGTB]|ms|s)?\s+)*[-+]?\d[\d.,]*\s*(?:%|[xX×]|[KMGTB]|ms|s)?\s*$")


def unwrap_markdown(source: str) -> str:
    """``source`` with each paragraph's (and list item's) wrapped lines joined by spaces."""
    out: list[str] = []
    fenced = False
    for line in source.split("\n"):
        fence = bool(_FENCE.match(line))
        if not fenced and not fence and out and _md_continues(out[-1], line):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
        if fence:
            fenced = not fenced
    return "\n".join(out)


def _md_continues(before: str, line: str) -> bool:
    """Whether ``line`` goes on the paragraph ``before`` ends (a lazy continuation line)."""
    if not line.strip() or not before.strip() or _MD_BLOCK.match(line):
        return False
    if _NUMBERS_ONLY.match(line) or _NUMBERS_ONLY.match(before):
        return False
    if before.endswith(("  ", "\\")) or before.lstrip().startswith(("#", "|", "```", "~~~", "<", "$$")):
        return False  # a forced break; a heading, a table, a fence, an HTML block, a formula end where they end
    return not (_MD_TABLE_ROW.match(before) and _MD_TABLE_ROW.match(line))


#: A LaTeX line break inside a paragraph: a line ending, not a blank line (trailing and leading blanks with it).
_TEX_SOFT_BREAK = re.compile(r"(?<=\S)[ \t]*\n(?![ \t]*\n)[ \t]*(?=\S)")


def unwrap_tex(source: str) -> str:
    """``source`` (comments already removed) with each paragraph's wrapped lines joined by a space, as TeX
    reads them; a blank line still ends a paragraph. The converter's structure does not hang on the source's
    lines: a table's rows end at ``\\\\`` and its cells at ``&``, an item at ``\\item``, a heading at its braces."""
    return _TEX_SOFT_BREAK.sub(" ", source)
