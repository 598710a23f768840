"""Where a line of an unknown format prints its step: a step key, a counter ``N/M`` after a counter word or
in brackets, a progress bar's position (counters that start again at each epoch are made global in
``_epoch_counters``)."""

from __future__ import annotations

import re

from assay.operators.logs._epochs import (  # noqa: F401 -- the epoch context is read with the steps
    EPOCH_NUMBER,
    EpochBars,
    EpochRelative,
    counts_each_epoch,
    says_epoch_ended,
)
from assay.operators.logs._evaluation_lines import EVALUATION_WORD, evaluation_line
from assay.operators.logs._names import counts_across_epochs, is_step_key
from assay.operators.logs._step_keys import (
    a_record_count,
    a_setting,
    after_a_setting_word,
    an_epochs_length,
    environment_steps,
    iterations_count,
    optimizer_step,
)

#: The training split in front of a counter word (``train batch``, named ``train_batch``).
_TRAINING_SPLIT = re.compile(r"^(?:train|training)_")
#: Counters printed as ``Batch 16/29316``: a step when no step key names one.
_COUNTER_WORDS = {"batch", "batches", "step", "steps", "iter", "iteration", "it", "update", "updates"}


def step_position(
    template: list[str], names: dict[int, str], not_counters: set[int] = frozenset(), rows: list | None = None
) -> int | None:
    """Where a template prints its step: a step key (``step 10``, ``iter: 10``), else a counter ``N/M``
    after a counter word (``Batch 16/29316``), before a bar's ``[`` (``10/100 [00:01<...``) or in brackets on a
    training line (``[  50/1000]``). With the template's ``rows``, a step key a setting's word qualifies is the
    step where the records print it (``_step_keys.a_record_count``)."""
    # a percentage is no step, nor where the best record was (``Best model at step 0:``, a summary's)
    names = {pos: word for pos, word in names.items() if pos not in not_counters and not _best_at(template, pos)}
    evaluating = evaluation_line(template)
    # an evaluation line's counter with a total (``[Eval][Epoch 3][Iter: 5/10]``) counts its batches: the line
    # takes the training step before it
    if evaluating:
        names = {pos: word for pos, word in names.items() if template[pos + 1 : pos + 2] != ["/"]}
    keys = [pos for pos, word in sorted(names.items()) if is_step_key(word) and not a_setting(template, pos)]
    if not keys and rows:
        keys = [pos for pos, word in sorted(names.items()) if is_step_key(word) and a_record_count(rows, pos)]
    if keys:  # the first step key, unless another on the line counts across epochs
        # a key printed with its total (``iter[ 14/ 15]``) counts within an epoch: a step key without one on
        # the same line (``[step]  1574``) counts across the run
        running = [pos for pos in keys if template[pos + 1 : pos + 2] != ["/"]]
        if running and len(running) < len(keys):
            keys = running
        keys = environment_steps(template, names, keys)
        across = next((pos for pos in keys if counts_across_epochs(names[pos])), None)
        if across is not None:
            return across
        return optimizer_step(keys, names)

    for pos in sorted(names):
        if template[pos + 1 : pos + 3] == ["/", "<*>"] and names[pos].lower() in _COUNTER_WORDS:
            return pos
    for pos in range(len(template) - 3 if not evaluating else 0):
        if template[pos : pos + 4] == ["<*>", "/", "<*>", "["]:
            return pos
        if template[pos : pos + 3] == ["<*>", "/", "<*>"] and template[pos + 3].lower() in COUNTED_AFTER.split("|"):
            return pos  # "200/ 2983 batches"
    if rows and not evaluating and (counted := iterations_count(template, rows)) is not None:
        return counted
    if rows and not evaluating and (trailing := _step_last(template, rows)) is not None:
        return trailing
    for pos in range(1, len(template) - 2):  # a bracketed counter: mmengine's [1][  50/1000], timm's [ 100/1251 (
        if evaluating:
            break  # it counts evaluation batches
        # the total closes the bracket or opens its percentage (timm's ``[ 100/1251 (  8%)]``); a bracketed date
        # (``[2024/05/01``, ``[02/04 22:46:24]``) goes on with another slash or a time
        if template[pos - 1 : pos + 3] == ["[", "<*>", "/", "<*>"] and template[pos + 3 : pos + 4] in (["]"], ["("]):
            if template[pos + 3 : pos + 8] == ["]", "[", "<*>", "/", "<*>"]:
                continue  # ``[1/25][300/3183]``: the first pair is the epoch, the second counts its batches
            return pos
    for pos in sorted(names):  # a counter word without a total (icefall's ``Epoch 1, batch 50``), also behind
        # the split it counts (``[Pass 0, train batch 10]``)
        if _TRAINING_SPLIT.sub("", names[pos].lower()) in _COUNTER_WORDS and not a_setting(template, pos):
            return pos
    epoch = next((pos for pos, word in sorted(names.items()) if word.lower() == "epoch"), None)
    # a line that opens with a counter and its total and names an epoch beside it (``40/2000 (epoch 0.200),
    # loss = 3.1``): the counter is the step, the epoch (often a fraction) is no step; not a date (``01/02 10:``)
    if epoch is not None and template[:3] == ["<*>", "/", "<*>"] and 0 not in not_counters:
        if template[3:4] not in (["/"], ["<*>"], [":"]):
            return 0
    if epoch is not None and rows and not evaluating and (inner := _within_epoch(template, names, rows)) is not None:
        return inner
    # a log of one line per epoch counts epochs
    return epoch


def _step_last(template: list[str], rows: list) -> int | None:
    """A record written as its name, its value and then its step (``losses/q1_loss 65.36 193000``, a scalar
    logger's tag-value-step): the whole number closing every line, never going back over two or more records."""
    last = len(template) - 1
    if last < 2 or template[last] != "<*>" or template[last - 1] != "<*>" or not template[last - 2][:1].isalpha():
        return None
    counts = [row[2][last] for row in rows if last < len(row[2])]
    if len(counts) < 2 or len(counts) < len(rows) or not all(c.isdigit() for c in counts):
        return None
    values = [int(c) for c in counts]
    return last if all(b >= a for a, b in zip(values, values[1:], strict=False)) and values[-1] > values[0] else None


def _within_epoch(template: list[str], names: dict[int, str], rows: list) -> int | None:
    """An unnamed count and its total set apart by separators beside the epoch (Demucs' ``Train | Epoch 1 |
    143/573 | Loss 0.23``): where the total stays and the count moves, it counts the epoch's batches."""
    for pos in range(len(template) - 2):
        if template[pos : pos + 3] != ["<*>", "/", "<*>"] or pos in names:
            continue
        if (pos and template[pos - 1] not in _FIELD_SEPARATORS) or template[pos + 3 : pos + 4] not in ([], *_AFTER_FIELD):
            continue
        pairs = [(row[2][pos], row[2][pos + 2]) for row in rows if pos + 2 < len(row[2])]  # (a cut record: none)
        if len({total for _, total in pairs}) == 1 and len({count for count, _ in pairs}) > 1:
            return pos
    return None


_FIELD_SEPARATORS = ("|", ",", ";", "-", "]", ":")
_AFTER_FIELD = (["|"], [","], [";"], ["-"])


#: What stands between a counter's word and its number: a separator, and the quotes of a JSON object whose
#: counters are strings (``"iter": "90/159"``, ``"epoch": "10/50"``).
QUOTED_SEP = r"""["']?\s*[:=#]?\s*["']?\s*"""
#: The words a counter is printed after (``Batch 16/29316``, ``step: 10``, ``iter #7``).
COUNTER_KEYS = r"global_step|step|steps|iter|iters|iteration|batch|it|update|tick"
#: A count printed with thousands separators (BasicSR's ``iter: 135,000``): one number, not 135 and a comma.
_THOUSANDS = r"\d{1,3}(?:,\d{3})+(?![\d.])"
#: A step counter anywhere in a line: a counter word's number (with an index suffix too: ``batch_id: 3820``,
#: ``step_idx=5``), a bar's ``10/100 [``.
_COUNTER = re.compile(
    # (the loop's index letter after the word too: ``batch i:12``)
    rf"\b(?P<key>(?:{COUNTER_KEYS})(?:_(?:id|idx|num|no))?)\b(?:\s[ijkt](?=\s*[:=]))?\s*[:=#]?\s*(?P<n>{_THOUSANDS}|\d+)"
    # (a whole count printed as a float, ``step=6.0000``, is that count)
    r"(?:\.0+(?!\d))?(?P<k>[kK](?![\w/]))?(?!\d|\.\d)"  # ``Step: 11k``: thousands
    r"(?P<of>\s*/\s*\d+)?|(?P<bar>\d+)/\d+ \["
    r"|\d+-(?P<range>\d+)batch\b",  # ESPnet reports over a range of batches: ``1-100batch`` is at batch 100
    re.I,
)
#: A key's value after its separator (``step=6.0000``, ``step: 6.0``).
_KEYED = re.compile(r"\s*[:=]")
#: A report over a range of batches after its counter word (``Minibatch[ 501-1000]``, ``minibatches 40-49``):
#: at the range's end. Apart from ``_COUNTER`` and searched only where a line has a dash and such a word (an
#: unanchored alternative costs every line).
_RANGE_WORDS = ("batch", "iter", "steps", "updates")
#: What follows such a word up to the range (matched right after the word: ``es[ 501-1000``, ``ations 40-49``).
_RANGE_AFTER = re.compile(r"(?:es|ations?|s)?\s*\[?\s*(?P<from>\d+)\s*-\s*(?P<to>\d+)\b")


def counter_step(text: str) -> int | None:
    """The step a line's counter says (the innermost one: ``Epoch 2/50, Batch 16/5000`` is 16)."""
    found, at = None, -1
    for m in _COUNTER.finditer(text):
        if m.group("key") and after_a_setting_word(text, m.start()):
            continue  # ``Gradient Accumulation steps = 4``, ``Total steps = 60``: a setting, no progress
        if m.group("key") and text[max(0, m.start() - 2) : m.start()] == "--":
            continue  # a command's option (``python train.py --batch 20``), no progress
        if m.group("key") and an_epochs_length(text, m.start(), m.group("key")):
            continue  # ``Epoch: 3, Steps: 9 | ...``: how many steps the epoch had, no position in it
        if m.group("key") and _BEST_BEFORE.search(text, max(0, m.start() - 40), m.start()):
            continue  # ``Best model at step 0:``: where the best record was, a summary's, no progress
        if m.group("n") and text[m.end("n") : m.end("n") + 1] == "." and not _KEYED.match(text, m.end("key")):
            continue  # a whole float only as a key's value (``step=6.0000``), not ``STEP 5512.0`` (a Slurm step's id)
        at = m.start()
        if m.group("range"):
            found = int(m.group("range"))
        elif m.group("bar"):
            found = int(m.group("bar"))
        elif m.group("key").lower() != "batch" or m.group("of"):
            found = int(m.group("n").replace(",", "")) * (1000 if m.group("k") else 1)
    if "-" in text:
        low = text.lower()
        for word in _RANGE_WORDS:
            start = low.find(word)
            while start >= 0:
                m = _RANGE_AFTER.match(text, start + len(word))
                if m and start >= at and int(m.group("to")) > int(m.group("from")):
                    found, at = int(m.group("to")), start
                start = low.find(word, start + 1)
    return found


def step_before_evaluation(text: str) -> int | None:
    """The training step an evaluation line names before its evaluation word (Caffe's ``Iteration 200, Testing
    net (#0)``), for the lines after it; a counter after the word (``Test: [10/48]``) counts evaluation batches."""
    evaluation, found = EVALUATION_WORD.search(text), None
    for m in _COUNTER.finditer(text, 0, evaluation.start() if evaluation else 0):
        if m.group("key") and not m.group("of") and not after_a_setting_word(text, m.start()):
            found = int(m.group("n").replace(",", "")) * (1000 if m.group("k") else 1)
    return found


def _best_at(template: list[str], pos: int) -> bool:
    """Whether the step key before ``pos`` says where the best record was (``Best model at step <*>``)."""
    return any(t.lower() == "best" for t in template[max(0, pos - 5) : pos])


#: The best record named before a counter (``Best model at step 0``, ``best epoch: 12``, ``best_iter``).
_BEST_BEFORE = re.compile(r"(?i)\bbest\b[\w ]{0,25}(?:\bat\s+|[_:=\s]\s*)?$")
#: Words a counter is printed before: ``|   200/ 2983 batches |`` (PyTorch's word language model).
COUNTED_AFTER = "batches|steps|iters|iterations|updates"
#: A progress bar that shows only its progress, time and rate (``100%|#####| 11/11 [00:02<00:00,  4.86it/s]``):
#: no record, but its counter is the context of the lines after it (a bar drawn once per epoch: the epoch).
BARE_BAR = r"^\s*(?:[A-Za-z][A-Za-z _-]*:\s*)?\d+%\|[^|\n]*\|\s*\d+/\d+\s*\[[^\]=\n]*\]\s*$"


#: A Python list of a record's numbers printed alone (after a logger's ``LEVEL:name:``), all fractions but one whole
#: number: that number is the run's step (VITS-style trainers log ``[global_step, lr]`` or ``[loss_d, loss_g, ...,
#: global_step, lr]``), the values after it in the line's record. Group 1: the step.
_FRACTION = r"[-+]?(?:\d*\.\d+|\d+\.\d*)(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+"
LISTED_STEP = rf"(?:^|[:\t])\s*\[\s*(?:(?:{_FRACTION})\s*,\s*)*(\d+)\s*(?:,\s*(?:{_FRACTION})\s*)+\]\s*$"
