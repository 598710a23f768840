"""Which line templates of a log are evaluation records, told by structure where no word says so.

A training loop that evaluates every N steps often prints its evaluation record in a shape of its own
(``step 600 loss 1.97 acc 0.45`` beside ``epoch 1 step 600 loss 1.80 lr 0.001``) without a word such as
``val`` before its loss. Read alone, that record's loss would become the training loss, and its step the last
training step. What gives it away is its place in the log: a second template with a loss, printed at a much
lower rate than the training template, whose steps are the training template's steps (it runs *at* a
training step, after the training record of that step) and whose loss differs from the training loss printed
at that step (a second logger repeating the same record prints the same value). A rate needs two records:
a template printed once (a log's last line cut short) is never taken for an evaluation."""

from __future__ import annotations

import re

from assay.operators.logs._numbers import parse_quantity

#: A template printed at most this share of the training template's records is a candidate.
_RATE = 1 / 3
#: This share of the candidate's steps must be steps the training template printed.
_SHARED = 0.8
#: Words that make a template training's own (a summary or a component of the training record), not an
#: evaluation: a running average of the training loss is printed at a lower rate too.
_TRAINING_WORDS = re.compile(r"^(?:train\w*|trn|avg|average|mean|running|smoothed|ema|epoch|total)$", re.I)


def _steps_and_losses(cluster, step_pos: int | None, loss_pos: int) -> dict[int, float]:
    """The template's loss by step, from its own counter or the step its line took from the line before."""
    found: dict[int, float] = {}
    for _line_no, _rank, tokens, current in cluster.rows:
        step = current
        if step_pos is not None:
            parsed = parse_quantity(tokens[step_pos])
            step = int(parsed[0]) if parsed and parsed[0] == parsed[0] and float(parsed[0]).is_integer() else None
        value = parse_quantity(tokens[loss_pos])
        if step is not None and value is not None:
            found[step] = value[0]
    return found


def evaluation_templates(candidates: list[tuple[object, int | None, int]]) -> set[int]:
    """The ``id`` of each cluster that is an evaluation record by structure. ``candidates``: the clusters whose
    fields would give the training loss, each with its step's position (or ``None``) and its loss's position."""
    read = [(c, _steps_and_losses(c, step_pos, loss_pos)) for c, step_pos, loss_pos in candidates]
    read = [(c, losses) for c, losses in read if losses]
    if len(read) < 2:
        return set()
    main, main_losses = max(read, key=lambda item: len(item[0].rows))
    if len(main_losses) < _SHARED * len(main.rows):
        return set()  # the training template's step does not move (a bar drawn to its end, ``833/833``)
    found = set()
    for cluster, losses in read:
        if cluster is main or len(losses) < 2 or len(cluster.rows) > _RATE * len(main.rows):
            continue
        if any(_TRAINING_WORDS.match(w) for w in cluster.template if w != "<*>"):
            continue
        shared = [s for s in losses if s in main_losses]
        if len(shared) < _SHARED * len(losses):
            continue
        differ = sum(abs(losses[s] - main_losses[s]) > 1e-9 * max(1.0, abs(main_losses[s])) for s in shared)
        if differ * 2 > len(shared):
            found.add(id(cluster))
    return found
