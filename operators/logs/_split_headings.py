"""A line that only names the split the lines right under it measure (``Validating on dev``, ``Evaluation:``,
``Test set results``), over lines of values that do not name it themselves (``Loss = 1.656 | err = 0.447``, the
same line the training section prints): those values are the evaluation's. The heading holds for the lines that
follow it one after another, until a line that prints a counter (a training record goes on); a line between
(a rule, ``-----``, a blank) ends it."""

from __future__ import annotations

import re

from assay.operators.logs._evaluation_lines import EVALUATION_WORD

#: A heading of a split: words only, no number, short; opening with the split's word.
HEADING = r"^\W*(?P<split>(?i:validat\w*|evaluat\w*|test(?:ing)?|dev|train(?:ing)?))\b[^\d\n]{0,60}\s*$"
_HEADING = re.compile(HEADING)


class SplitHeadings:
    """The evaluation heading the lines of one stream are under, if any."""

    def __init__(self) -> None:
        self.evaluating = False
        self._next = -1  # the line the heading reaches next

    def split_of(self, text: str, line_no: int, counted: bool) -> str | None:
        """``val`` where ``text`` is a line of values right under an evaluation's heading (it is named so), else
        None; ``counted``: the line prints a counter of its own (a training record: the heading no longer holds)."""
        heading = _HEADING.match(text)
        if heading:
            self.evaluating = not heading["split"].lower().startswith("train")
            self._next = line_no + 1
            return None
        if not self.evaluating or line_no != self._next or counted:
            self.evaluating = False
            return None
        self._next = line_no + 1
        return None if EVALUATION_WORD.search(text) else "val"
