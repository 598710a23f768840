"""A PDF table read one cell a line: a row's label on a line of its own (``PROMPTCACHE``, ``FooSys 1``), or with
its first figure (``Finetuned Upperbound 46.9%``), then each figure of the row on the next lines (``18.6%``,
``19.5%``, ...). A figure on a line alone belongs to the label above the run of lone figures it stands in, not
to the paper's system or to a name in the prose before the table; the label names the row's system where the
paper names that system elsewhere (small capitals come out in capitals: ``PROMPTCACHE`` is ``PromptCache``)."""

from __future__ import annotations

import re

#: A line that is one figure, as a table cell (``18.6%``, ``0.197``, ``2.3×``).
_FIGURE = r"[-+]?\d[\d.,]*\s*(?:%|x|×)?"
_FIGURE_LINE = re.compile(rf"^\s*{_FIGURE}\s*$")
#: A row's label: up to three words starting with a letter, a variant's number after them (``FooSys 1``), and
#: the row's first figure on the same line.
_LABEL = re.compile(
    rf"^\s*(?P<name>[A-Za-z][\w+.\-]*(?:\s+[A-Za-z][\w+.\-]*){{0,2}}?)(?:\s+\d{{1,2}})?(?:\s+{_FIGURE})?\s*$"
)
#: Lone figures walked back over to find the label (a row of a wide table).
_MOST_CELLS = 16


def stacked_row_label(text: str, start: int, end: int) -> str | None:
    """The label of the row whose cell the figure ``text[start:end]`` is, where the table was read one cell a
    line; None where the figure shares its line with other words (prose) or no label heads its run."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    if not _FIGURE_LINE.match(line):
        own = _LABEL.match(line)  # the row's first cell, on its label's line
        return own["name"] if own and line.rstrip().endswith(text[start:end].strip()) and line_start else None
    pos = line_start
    for _ in range(_MOST_CELLS):
        if pos <= 0:
            return None
        previous = text.rfind("\n", 0, pos - 1) + 1
        above = text[previous : pos - 1]
        if not _FIGURE_LINE.match(above):
            label = _LABEL.match(above)
            return label["name"] if label else None
        pos = previous
    return None
