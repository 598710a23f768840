"""Reports drawn as a tree (``├──``, ``└──`` and ``│``, as a console's tree printer draws them): a value's
node sits under section nodes that say what it is (``Training``, ``Validation``), and the nodes under a value
are notes on it (its best so far, the epoch before's), not values of the record. The general reader gets each
value's node as a line of its own with its sections' labels before it (``Validation F1 = 0.25``), so that the
split words it already reads name the split."""

from __future__ import annotations

import re

#: A tree's node: its indentation (``│   `` or spaces per level, their width its depth), the branch glyph, the
#: node's text.
_NODE = re.compile(r"^(?P<indent>[ \t│┃|]*)[├└┣┗]─+\s*(?P<label>\S.*?)\s*$")
#: A node that holds a value (``Loss/total = 2.17``, ``lr: 0.01``), not a section's label.
_VALUE = re.compile(r"^[^=:]+?\s*[=:]\s*[-+]?(?:\d|\.\d|nan\b|inf)", re.I)
#: Tree lines for the reader's line selection (the section labels hold no number).
TREE_LINE = r"^[\s│┃|]*[├└┣┗]─"


class TreeReports:
    """The path of nodes above the current line of a tree report."""

    def __init__(self) -> None:
        self._path: list[tuple[int, str, bool]] = []  # (indentation, label, holds a value)

    def line(self, text: str) -> str | None:
        """A tree's line as the general reader should read it: a value's node with its sections' labels before
        it, ``""`` for a section's label or a note under a value (nothing to read), ``None`` for a line of no
        tree (read as it is; it ends the tree)."""
        m = _NODE.match(text)
        if not m:
            self._path = []
            return None
        depth = len(m["indent"])
        while self._path and self._path[-1][0] >= depth:
            self._path.pop()
        label = m["label"]
        holds = bool(_VALUE.match(label))
        under_value = bool(self._path) and self._path[-1][2]
        self._path.append((depth, label, holds))
        if under_value or not holds:
            return ""
        sections = " ".join(text for _, text, value in self._path[:-1] if not value)
        return f"{sections} {label}".strip()
