"""A line that only names the split the lines right under it measure (``Validating on dev``, ``Evaluation:``,
``Test set results``), over lines of values that do not name it themselves (``Loss = 1.656 | err = 0.447``, the
same line the training section prints): those values are the evaluation's. A heading that introduces the best
record (``Best model at step 0:``) is over values that restate a record printed before: no record of their own.
A record that opens with its split's word (two or more keys with numbers) is such a heading for the line right
under it; so is a line that ends by naming its block's split (``... - val metrics:``).
The heading holds for the lines that follow it one after another, until a line that prints a counter (a
training record goes on) or, after the heading's first line of values, one in the shape of a line read under no
heading before (the training's records are back, whatever they count by); a line between (a rule, ``-----``, a blank) ends it."""

from __future__ import annotations

import re

from assay.operators.logs._epochs import EPOCH_NUMBER
from assay.operators.logs._evaluation_lines import EVALUATION_WORD
from assay.operators.logs._steps import counter_step

#: A heading of a split: words only, no number, short; opening with the split's word.
HEADING = (
    # (``>>>> Start Evaluation >>>>``, ``Running validation...``: a verb that starts the split before it; the
    # lines are selected with a logger's prefix still on them, ``[... INFO train.py line 125]  >>>> ...``)
    r"^(?:[^\n]*?(?:\]|\s-|INFO:?)\s+)?\W*(?:(?i:start(?:ing)?|begin(?:ning)?|run(?:ning)?)\s+)?"
    # (and the epoch it runs after: ``Eval epoch: 4``)
    r"(?P<split>(?i:validat\w*|evaluat\w*|eval|test(?:ing)?|dev|train(?:ing)?))\b(?:\s+(?i:epoch)\s*[:#]?\s*\d+)?"
    # (and its size in brackets: PaddleSeg's ``Start evaluating (total_samples: 76, total_iters: 76)...``)
    r"(?:\s*\([^()\n]{0,80}\))?[^\d\n]{0,60}\s*$"
    # (also after a clause that says why the run stopped: LightGBM's ``Early stopping, best iteration is:``)
    r"|^\W*(?:[^\n]{0,40}?[,.]\s+)?(?P<best>(?i:best))\b[^\n]{0,60}:\s*$"
)
_HEADING = re.compile(HEADING)
#: A record that opens with its split's word (``Validate performance at epoch 1 is precision: ...``): the line
#: right under it that names none (``Loss is: 0.0688.``) goes on with it.
_OPENS_WITH_SPLIT = re.compile(
    r"^\W*(?:(?P<best>(?i:best))\s+)?(?P<split>(?i:validat\w*|evaluat\w*|test(?:ing)?|dev|train(?:ing)?))\b"
)
#: A line that ends by naming the split of the block under it (Ignite's ``Epoch 3 - Evaluation time (seconds):
#: 1.36 - val metrics:``, then ``Accuracy: 0.57`` and ``Loss: 1.18`` a line each): a heading whatever opens it.
_CLOSING_SPLIT = re.compile(
    r"(?i)(?<![\w-])(?P<split>validation|valid|val|eval(?:uation)?|test|dev|train(?:ing)?)\s+"
    r"(?:metrics|results|scores|stats|statistics)\s*:\s*$(?P<best>(?!x)x)?"
)
#: How many values a line prints for its shape to be a record's (one key and value a line is an evaluation's
#: block as often as a training's)
_RECORD_VALUES = 3
#: How many shapes of lines read under no heading are kept (a file of ever-new shapes keeps memory flat).
_SHAPES_KEPT = 4096
#: What ``split_of`` says of a line under a best record's heading: a restatement, no record.
RESTATED = "best"


class SplitHeadings:
    """The heading the lines of one stream are under, if any."""

    def __init__(self) -> None:
        self.under: str | None = None  # ``val`` or ``RESTATED`` while a heading holds, else None
        self._next = -1  # the line the heading reaches next
        self._last: int | None = None  # the last line it reaches, where it is a record's
        self._outside: set[tuple[str, ...]] = set()  # the shapes of lines read under no heading
        self._given = False  # whether the heading that holds has named a line's values already
        self._total: int | None = None  # the total of the last ``done/total`` counter read under no heading
        self._read = -2  # the line ``split_of`` read last

    def split_of(self, text: str, line_no: int, shape: tuple[str, ...] = ()) -> str | None:
        """``val`` where ``text`` is a line of values right under an evaluation's heading (it is named so),
        ``RESTATED`` under a best record's, else None. A line that prints a counter of its own (a training
        record), or one in the shape of a line read outside any heading before (``shape``: its words, numbers
        as ``<*>``), ends the heading: the training's records have come back. "Right under" is the next line the
        reader reads: lines it never read between (a library's warnings) do not part them."""
        try:
            return self._split_of_line(text, line_no, shape)
        finally:
            self._read = line_no

    def _reaches(self, line_no: int) -> bool:
        """Whether the heading reaches ``line_no``: the line after its last, or the next line read after it."""
        return line_no == self._next or self._read == self._next - 1

    def _split_of_line(self, text: str, line_no: int, shape: tuple[str, ...]) -> str | None:
        if (
            self.under is not None
            and self._given
            and shape.count("<*>") >= _RECORD_VALUES
            and shape in self._outside
            and not self.evaluating(text, line_no)
        ):
            self.under = None  # (a heading's first line may print the training's shape: ``Loss = 1.6``, its split's)
            return None
        split = self._split_of(text, line_no)
        self._given = split is not None and (self._given or self._next == line_no + 1)
        if split is None and shape and len(self._outside) < _SHAPES_KEPT:
            self._outside.add(shape)
        if split is None and (of := _OF_TOTAL.search(text)):
            self._total = int(of[2])
        return split

    def evaluating(self, text: str, line_no: int) -> bool:
        """Whether ``text``, right under an evaluation's heading of words, counts the evaluation's own loop: a
        ``done/total`` counter of another total than the training's (``Eval begin...`` then ``step 10/157``
        after ``step 938/938``). Its counter is the evaluation's batches, no step of the run."""
        if self.under != "val" or not self._reaches(line_no) or self._last is not None or self._total is None:
            return False
        of = _OF_TOTAL.search(text)
        return of is not None and int(of[2]) != self._total

    def _split_of(self, text: str, line_no: int) -> str | None:
        if self.under == RESTATED and line_no == self._next and not _counts(text):
            self._next = line_no + 1
            return RESTATED  # the best record's lines go on, whatever split they name (``train loss: ...``)
        words_only = _HEADING.match(text) or _CLOSING_SPLIT.search(text)
        heading = words_only or _record_heading(text)
        if heading:
            self._last = None if words_only else line_no + 1  # a record's heading reaches one line only
            self.under = RESTATED if heading["best"] else None if heading["split"].lower().startswith("train") else "val"
            self._next = line_no + 1
            return None
        if self.under is None:
            return None
        # a record's heading ends at a line with any counter; a heading of words alone at a finer step's (the
        # evaluation's own line may print the epoch it evaluates: ``epoch: 116/520, total loss: -0.07``)
        counted = _counts(text) if self._last else counter_step(text) is not None
        if counted and self.evaluating(text, line_no):
            counted = False  # the evaluation's own loop, counted to another total
        if not self._reaches(line_no) or (self._last and line_no > self._last) or counted:
            self.under = None
            return None
        if self.under == "val" and EVALUATION_WORD.search(text):
            self.under = None  # a line that names its split itself: the heading has handed over to it
            return None
        self._next = line_no + 1
        return self.under


def _record_heading(text: str) -> re.Match[str] | None:
    """A record that opens with its split's word and prints two or more keyed numbers (the anchored match is
    tried first: most lines open with no split's word, and counting their pairs would read each whole)."""
    m = _OPENS_WITH_SPLIT.match(text)
    return m if m and len(_PAIRS.findall(text)) >= 2 else None


def _counts(text: str) -> bool:
    """Whether a line prints a counter of its own (a step, an epoch)."""
    return counter_step(text) is not None or EPOCH_NUMBER.search(text) is not None or _EPOCH.search(text) is not None


#: A key and its number (``precision: 0.88``): a record that opens with its split prints two or more (a sentence
#: about the split, ``Validation loss decreased (0.47 --> 0.45).``, is none).
_PAIRS = re.compile(r"[A-Za-z][\w-]*\s*[:=]\s*-?\d")
#: A counter printed with its total (``step 10/157``).
_OF_TOTAL = re.compile(r"(?<![\d.])(\d+)\s*/\s*(\d+)(?![\d.])")
#: An epoch's number in any brackets (``Epoch [26/100]``).
_EPOCH = re.compile(r"(?i)\bepoch\W{0,3}\d")
