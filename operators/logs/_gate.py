"""Which lines of an unknown format are records, by their structure rather than by their words.

The general reader mines the lines that name a metric it knows (``loss``, ``lr``, ``xent`` ...). A tool whose
records use keys no list holds (``ep 3 | it 120 | obj 1.92 | tput 812``, ``[ 40/300] cost=0.51 gap=1.3``)
would give nothing, so a second, cheap pass admits a line by its shape: it holds two or more key-number pairs
(``key: 1.2``, ``key=3``, ``key 4.5 |``), the same line with its numbers masked (its *shape*) repeats in three
or more lines of the span, and a measurement changes among them: a value with a fractional part (a loss, a
rate, a time) that is not the same on every line. A setting printed once (a block of ``key=value`` lines, a
banner with two numbers) has a shape of its own and stays out; a line printed again with whole numbers only
or the same values (every rank's environment, ``RANK=3 LOCAL_RANK=3 WORLD_SIZE=8``; a config printed by each
rank) is no series; a communication library's diagnostics (``NCCL INFO``) are never records, whatever they
repeat. A record of whole numbers only (``round 3 | solved 45``) is left to the word list.

Both passes are RE2 over a block's lines (pyarrow), so the gate costs one scan of the block and a masking of
the few lines it picks."""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from assay.operators.logs._events import classify
from assay.operators.logs._lines import LineBlock

#: A number as printed in a record (``3``, ``-0.51``, ``1.2e-05``, ``.5``).
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
#: A key-number pair: a key that starts a word, then ``:`` or ``=`` and a number (``obj=0.51``, ``gap: 1.3``),
#: or a space and a number that ends at a separator or the line's end (``tput 812 |``, ``ep 3,``): a number
#: between words with only spaces around it is prose as often as a record (``zorp is 1.5 and ...``). RE2 and
#: Python alike.
PAIR = rf"\b[A-Za-z][\w./%-]*(?:\s*[:=]\s*{_NUMBER}|\s+{_NUMBER}\s*(?:[|,;]|$))"
#: A line that may be a record: two key-number pairs (the second after the first).
TWO_PAIRS = rf"{PAIR}[^\n]*?{PAIR}"
#: Lines never taken as records by their shape, with an example each: a communication library's diagnostics.
NOT_RECORDS = {
    r"\bNCCL (?:INFO|WARN)\b": "node3:1201:1290 [2] NCCL INFO Channel 01/04 : 0 1 2 3 4 5 6 7 comm 0x7f1a2b",
}
_NOT_RECORDS = "|".join(NOT_RECORDS)
#: The numbers of a line, masked to form its shape (``52.1ms`` and ``101ms`` alike), and the runs of blanks padding them, made one (a counter
#: right-aligned in a column, ``[  0]       0`` then ``[  0]      10``, keeps its shape as it grows a digit).
#: A number is one mark, its decimals or exponent printed or not, and so is a quantity with its unit glued to it
#: and a duration in parts: CatBoost's first round prints ``total: 61.2ms  remaining: 1m 1s`` where the next
#: print ``total: 2.1s  remaining: 18.7s``, one record's shape.
_MASKED = r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?:[A-Za-z]{1,3}\b(?:\s\d+(?:\.\d+)?[A-Za-z]{1,2}\b)*)?"
_PADDING = r"[ \t]+"
#: How often a shape repeats before its lines are taken as records.
REPEATS = 3
#: Shapes remembered per span at most (memory stays flat on a long log of ever-new lines).
_MAX_SHAPES = 50_000


#: A pair's value, for the measurement check (Python only; bytes, as the block's lines are).
_PAIR_VALUE = re.compile(rb"\b[A-Za-z][\w./%-]*(?:\s*[:=]\s*|\s+)(" + _NUMBER.encode() + rb")")
_FRACTION = re.compile(rb"\.\d|\d[eE]")


class ShapeGate:
    """The lines of each block that are records by their shape; counts persist across the blocks of a span, so
    that a record printed rarely still reaches its third repeat in a later block (its lines from then on)."""

    def __init__(self) -> None:
        # shape -> (lines seen, the fractional values of its first line while every line has the same; None once
        # they differ)
        self.seen: dict[bytes, tuple[int, tuple[bytes, ...] | None]] = {}

    def admit(self, block: LineBlock, skip: np.ndarray) -> np.ndarray:
        """Indices (sorted) of the lines of ``block`` outside ``skip`` that are records by their shape."""
        if not block.n:
            return np.empty(0, dtype=np.int64)
        picked = block.matching(TWO_PAIRS)
        if len(skip):
            picked = picked[~np.isin(picked, skip)]
        if not len(picked):
            return picked
        lines = block.body.take(pa.array(picked, type=pa.int64()))  # each line's own text: its shape
        noise = np.asarray(pc.match_substring_regex(lines, _NOT_RECORDS), dtype=bool)
        if noise.any():
            picked, lines = picked[~noise], lines.filter(pa.array(~noise))
            if not len(picked):
                return picked
        texts = lines.to_pylist()
        masked = pc.replace_substring_regex(lines, _MASKED, b"#")
        shapes = pc.replace_substring_regex(masked, _PADDING, b" ").to_pylist()
        for shape, text in zip(shapes, texts, strict=True):
            seen = self.seen.get(shape)
            if seen is None:
                if len(self.seen) < _MAX_SHAPES:
                    self.seen[shape] = (1, _measured(text))
            elif seen[1] is None:
                self.seen[shape] = (seen[0] + 1, None)
            else:
                self.seen[shape] = (seen[0] + 1, seen[1] if _measured(text) == seen[1] else None)
        kept = [i for i, shape in zip(picked.tolist(), shapes, strict=True) if self._record(shape)]
        last = block.n - 1
        if picked[-1] == last and (not kept or kept[-1] != last) and self._cut_record(shapes[-1]):
            kept.append(last)
        return np.asarray(kept, dtype=np.int64)

    def _cut_record(self, shape: bytes) -> bool:
        """The block's last line is the start of a record's shape (the file ends in the middle of a record,
        ``... | C: 7.35 | M: 5.7``): that record, cut; the reader mends or drops its last value (``_cut``)."""
        shape = shape.rstrip()
        return any(s.startswith(shape) and len(s) > len(shape) and self._record(s) for s in self.seen)

    def _record(self, shape: bytes) -> bool:
        n, first = self.seen.get(shape, (0, ()))
        return n >= REPEATS and first is None


def not_only_tables(block: LineBlock, skip: np.ndarray, table: str, words: str) -> np.ndarray:
    """``skip`` without the lines that the pattern ``table`` selects (a row with ``|`` or wide gaps between its
    fields) and the pattern ``words`` (a metric word) does not: such a line is still weighed by its shape, since
    a record whose keys no list holds (``[ 2]  40 || A: 1.2 | Q: 3.4 | Z: 4.6``) is no table's row."""
    if not len(skip):
        return skip
    tables = block.matching_among(skip, table)  # the words are searched in those lines only (one pass each)
    if not tables:
        return skip
    only_table = tables - block.matching_among(np.asarray(sorted(tables), dtype=np.int64), words)
    return skip[~np.isin(skip, list(only_table))] if only_table else skip


def _measured(text: bytes) -> tuple[bytes, ...]:
    """The fractional values of a line's key-number pairs (``obj=0.51`` gives ``0.51``; ``rank=3`` none)."""
    return tuple(v for v in _PAIR_VALUE.findall(text) if _FRACTION.search(v))


#: Function words and verbs that, between a line's numbers, make it a sentence rather than a record, with an
#: example each: ``Engine run resuming from iteration 0, epoch 6 until 7 epochs`` has a step word and a number
#: (``iteration 0``) but says where a run starts again, not a step it measured.
PROSE_WORDS = {
    "from": "copied 3 shards from node 2",
    "until": "run resuming at iteration 0, epoch 6 until 7 epochs",
    "to": "warming up 0 to 1000 steps",
    "in": "finished 3 epochs in 12 minutes",
    "for": "sleeping 5 s for rank 2",
    "with": "started 8 workers with 4 threads each",
    "after": "stopping 3 rounds after epoch 9",
    "before": "waiting 30 s before retry 2",
    "since": "no gain 4 times since epoch 9",
    "into": "split 900 into 3 parts",
    "resuming": "job 4 resuming at epoch 5",
    "will": "rank 2 will save 3 copies",
    "would": "3 h would take 2 days",
    "then": "run 5 times then 2 more",
}
#: (a sentence's full stop may end one: ``Loss is 1.72.``; a version's next part may not: ``1.2.3``)
_NUMBER_IN_TEXT = re.compile(r"(?<![\w.])[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?(?!\w|\.\w)")
#: A number set as a key's value (``loss: 0.5``, ``epoch=3``): a record's pair, not a sentence's number.
_KEYED_NUMBER = re.compile(rf"[A-Za-z_][\w/.-]*\s*[:=]\s*{_NUMBER}")
_WORD = re.compile(r"[A-Za-z]+")
_NAME = re.compile(r"[A-Za-z][\w/-]*")


def is_prose(text: str, names_metric) -> bool:
    """A sentence with numbers, not a key-number record: two or more numbers with a function word or verb of
    ``PROSE_WORDS`` between them (``N of M``, a counter's total, is no such gap), no number set as a key's value
    (``key: v``, ``key=v``) and no number right after a word ``names_metric`` knows (``loss 2.1``)."""
    numbers = list(_NUMBER_IN_TEXT.finditer(text))
    if len(numbers) < 2 or _KEYED_NUMBER.search(text):
        return False
    gap = False
    for before, after in zip(numbers, numbers[1:], strict=False):
        words = [w.lower() for w in _WORD.findall(text[before.end() : after.start()])]
        gap = gap or (words != ["of"] and any(w in PROSE_WORDS for w in words))
    if not gap:
        return False
    # a non-finite value is a metric's value as much as a number (``Loss is NaN. Current learning rate ...``)
    for number in [*numbers, *_NON_FINITE_WORD.finditer(text)]:
        head = text[max(0, number.start() - 40) : number.start()]
        named = _NAME.findall(head)
        # ``Loss is 1.72``: the copula between a metric's name and its number names it as a key would
        while len(named) >= 2 and named[-1].lower() in _COPULAS and head.rstrip().endswith(named[-1]):
            head = head.rstrip()[: -len(named[-1])]
            named = named[:-1]
        if named and head.rstrip().endswith(named[-1]) and names_metric(named[-1]):
            return False
    return True


#: Words that join a name to its number in a sentence-shaped record (``Loss is 1.72``, ``lr was 0.1``).
_COPULAS = {"is", "was", "are", "were"}


_NON_FINITE = {"nan", "inf", "+inf", "-inf", "infinity", "-infinity"}
_NON_FINITE_WORD = re.compile(r"(?<![\w.])[-+]?(?i:nan|inf|infinity)(?![\w])")


def only_a_nan_message(template: list[str], rows: list[list[str]]) -> bool:
    """A line template whose every value is a NaN or an infinity word and whose line the event table reads as
    a NaN (``Stopping epoch because loss is NaN``): the event's message, not a record. A template that also
    prints finite values (``Loss is 2.31`` ... ``Loss is nan``) stays a record of the run diverging."""
    values = [tokens[i] for tokens in rows for i, t in enumerate(template) if t == "<*>" and i < len(tokens)]
    values = [v for v in values if v.lower() in _NON_FINITE or not v[:1].isalpha()]  # words that vary are no values
    return bool(values) and all(v.lower() in _NON_FINITE for v in values) and classify(" ".join(rows[0])) == "nan"
