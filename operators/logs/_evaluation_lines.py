"""Which lines report an evaluation: their counters count evaluation batches, and they take the training step
of the records around them instead of giving one."""

from __future__ import annotations

import re

#: A line about evaluation (``Epoch(val) [2][100/100]``, ``Test: [ 10/50]``): its counter counts evaluation
#: batches, not training steps. The word alone: ``val_loss:`` on a training line's end is a metric's name.
#: What a record's type joins to its split (PySlowFast's ``val_iter``, ``train_epoch``, ``train_iter_``).
JOINED_COUNT = r"_(?:iter|epoch)_?"
EVALUATION_WORD = re.compile(
    # (also a record's type that joins the split to what it counts: PySlowFast's ``"_type": "val_iter"``)
    r"(?i)(?:^|[^a-z_/])(?:val|valid|validation|validating|eval|evaluation|evaluating|test|testing|cv|dev)"
    rf"(?:{JOINED_COUNT})?(?:[^a-z_/]|$)"
)
#: A training word standing alone (``Train loss:``, ``[train]``), not a file's name (``train.py``).
_TRAINING_WORD = re.compile(r"(?i)(?:^|[^a-z_/.])(?:train|training)(?:[^a-z_/.]|$)")


def evaluation_line(words) -> bool:
    """A line (its text, or its template's words) about evaluation: it names an evaluation before any training
    word. A line that reports its training values first and the validation's after them (``[20000/300000] Train
    loss: 0.15, Valid loss: 0.10``) is a training record, and its counter counts training steps; so is a
    template that prints three named values before the evaluation's word names its own field (MATLAB's ``Epoch
    25/1000, Time 3.7, Performance 0.03/0, ..., Validation Checks 0/6``); a logger's time before it names none."""
    text = words if isinstance(words, str) else " ".join(word for word in words if word != "<*>")
    evaluation = EVALUATION_WORD.search(text)
    if evaluation is None:
        return False
    training = _TRAINING_WORD.search(text)
    if training is not None and training.start() < evaluation.start():
        return False
    return isinstance(words, str) or _values_before_evaluation(words) < _REPORTED_FIRST


#: Named values a template prints before its evaluation word for that word to name one field, not the line.
_REPORTED_FIRST = 3


def _values_before_evaluation(template: list[str]) -> int:
    """How many values right after a word (``Time <*>``) the template prints before its evaluation word."""
    for i, word in enumerate(template):
        if word != "<*>" and EVALUATION_WORD.search(word):
            return sum(
                1 for j in range(1, i) if template[j] == "<*>" and template[j - 1][:1].isalpha()
            )
    return 0
