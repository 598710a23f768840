"""The steps of Trainer log records that carry only their epoch: printed in bursts behind a progress bar, or
with no bar at all and the saves naming the steps.

A trainer run under ``nohup`` or with its output sent to a file writes its bar to stderr at once and its log
records to a block-buffered stdout: the records come out several at a time, long after they were logged, each
burst after the bar drawn when the buffer filled. The bar then shows the step of the burst's *last* record, not
its first. The Trainer's ``epoch`` is its step over the steps of an epoch, so the one ratio that holds across
the bursts tells which reading the log supports: where the bar over the last record's epoch is the same for
every burst (and the bar over the first's is not), the records were buffered, and each one's step is its
burst's bar less its distance in epochs from the burst's end. A console that showed each record at once (one
record per bar, or a record printed after a bar left stale) keeps its own reading (``None`` here).

With no bar in the log (stderr not kept), a save into ``checkpoint-500`` names the step of the record logged
just before it; the saves give the steps per epoch the same way, and every record its step from its epoch."""

from __future__ import annotations

from statistics import median

#: How far the bursts' ratios (the bar over the last record's epoch) may spread around their median and still
#: be one number of steps per epoch; epochs printed with two decimals put the ratio within about 1 %.
_ONE_RATIO = 0.05


def buffered_steps(held: list[tuple[float | None, int]]) -> list[int] | None:
    """``held`` is each record's ``(epoch, bar step when it was printed)`` in print order. The steps, one per
    record, where at least two bursts of several epochs agree on the last-record reading; else ``None``."""
    bursts: list[list[int]] = []  # indices into held, one list per run of records under the same bar
    for i, (_epoch, bar) in enumerate(held):
        if bursts and held[bursts[-1][-1]][1] == bar:
            bursts[-1].append(i)
        else:
            bursts.append([i])
    epochs_of = [[held[i][0] for i in burst if held[i][0]] for burst in bursts]
    several = [(held[b[0]][1], e) for b, e in zip(bursts, epochs_of, strict=True) if len(set(e)) >= 2 and held[b[0]][1] > 0]
    if len(several) < 2:
        return None
    by_last = [bar / max(epochs) for bar, epochs in several]
    by_first = [bar / epochs[0] for bar, epochs in several]
    if _spread(by_last) > _ONE_RATIO or _spread(by_last) >= _spread(by_first):
        return None
    per_epoch = median(by_last)
    # the records are logged every so many steps: the grid their steps lie on, from the epochs between them
    every = _logging_every(epochs_of, per_epoch)
    steps = []
    for burst, epochs in zip(bursts, epochs_of, strict=True):
        bar, end = held[burst[0]][1], max(epochs, default=None)
        for i in burst:
            epoch = held[i][0]
            at = bar - (end - epoch) * per_epoch if epoch and end else bar
            steps.append(_on_grid(at, every))
    return steps


def saved_steps(epochs: list[float | None], saves: list[tuple[int, float]]) -> list[int | None] | None:
    """Each record's step from its epoch, where two or more ``saves`` (a save's step, the epoch of the record
    printed just before it) agree on one number of steps per epoch; else ``None``. A record with no epoch has no step."""
    ratios = [step / epoch for step, epoch in saves if epoch and step > 0]
    if len(ratios) < 2 or _spread(ratios) > _ONE_RATIO:  # one save alone shows no ratio that holds
        return None
    per_epoch = median(ratios)
    every = _logging_every([[e for e in epochs if e is not None]], per_epoch)
    return [_on_grid(epoch * per_epoch, every) if epoch is not None else None for epoch in epochs]


def _logging_every(runs: list[list[float]], per_epoch: float) -> int:
    """The records are logged every so many steps: the grid their steps lie on, from the epochs between
    consecutive records."""
    gaps = [b - a for epochs in runs for a, b in zip(epochs, epochs[1:], strict=False) if b > a]
    return max(1, round(median(gaps) * per_epoch)) if gaps else 1


def _on_grid(at: float, every: int) -> int:
    """The nearest step on the logging grid; a record is logged after a step is taken, never at step 0 (the
    Trainer's first log, ``logging_first_step``, is step 1: its epoch prints as ``0.0``)."""
    return max(1, round(at / every) * every)


def _spread(ratios: list[float]) -> float:
    middle = median(ratios)
    return (max(ratios) - min(ratios)) / middle if middle > 0 else float("inf")
