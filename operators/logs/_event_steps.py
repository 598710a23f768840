"""The step of an event no record placed: a failure after an epoch header and before any value of that
epoch (``Epoch 90/450 ...:`` then a bar and a traceback; ``>>> Train Epoch: [9 / 500]`` then an OOM).

The common rule (``_collect``) gives an event the step of the last record before it. Two cases it cannot
place: a log with no record before the event (its only counter is an epoch header or a bare bar), and a
report glued after a progress bar that counts the batches of one epoch (``1/11 [...]Traceback``), whose
count is no step of the run. Both happened in the epoch the last header before them opened: that epoch is
the step where the run counts its steps by epochs (no record before the event, or the record before it is
the epoch before), else the last record's step stays."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from assay.operators.logs._epochs import epoch_opened

#: A bare progress bar: its count, and a report glued after it (``  9%|█▊ | 1/11 [00:00<00:06]Traceback``).
_BAR = re.compile(r"^\s*\d{1,3}%\|[^|]*\|\s*(\d+)/\d+ \[[^\]]*\]")
#: An event this many lines after an epoch header is still placed by it.
WINDOW = 5000


def _placeable(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events an epoch header may place (one with no step, or one after a bar), in line order."""
    return sorted(
        (ev for ev in events if ev.get("step") is None or _BAR.match(ev.get("detail") or "")),
        key=lambda ev: ev["line_no"],
    )


def last_placeable_line(events: list[dict[str, Any]]) -> int | None:
    """The line of the last event an epoch header may place; ``None`` when there is none (nothing to do): the
    span's lines and records past it are never needed."""
    wanted = _placeable(events)
    return wanted[-1]["line_no"] if wanted else None


def place_by_headers(
    events: list[dict[str, Any]], lines: Iterable[tuple[int, str]], record_steps: list[tuple[int, int]]
) -> None:
    """Give the events a step from the epoch header they follow (in place). ``lines`` are the span's
    ``(line_no, text)``, read only up to the last such event; ``record_steps`` the ``(line_no, step)`` of its
    metric rows with a step (those before the last such event suffice)."""
    wanted = _placeable(events)
    if not wanted:
        return
    headers: list[tuple[int, int]] = []  # (line_no, epoch) of each header line, in order
    last_line = wanted[-1]["line_no"]
    for line_no, text in lines:
        if line_no > last_line:
            break
        epoch = epoch_opened(text)
        if epoch is not None:
            headers.append((line_no, epoch))
    records = sorted(record_steps)
    for ev in wanted:
        before = [h for h in headers if h[0] < ev["line_no"] and ev["line_no"] - h[0] <= WINDOW]
        bar = _BAR.match(ev.get("detail") or "")
        if not before:
            if ev.get("step") is None and bar:
                ev["step"] = int(bar[1])
            continue
        _line, epoch = before[-1]
        prior = [s for n, s in records if n < ev["line_no"]]
        last = prior[-1] if prior else None
        if last is None or last == epoch - 1:
            ev["step"] = epoch  # the run counts epochs (or has no record): the event is in the header's epoch
        elif bar:
            ev["step"] = last  # a bar counting one epoch's batches is no step of the run


#: A whole number standing alone in a save's line, not part of a path, a name, a time or a decimal
#: (``Saving checkpoints for 2000 into ./ckpt/model.ckpt``: 2000).
_LONE_NUMBER = re.compile(r"(?<![\w./:\\+-])\d+(?![\w./:\\-]|\.\d)")


_EPOCH_NUMBER = re.compile(r"(?i)\b(?:epoch|ep)\s*[:=#]?\s*\d")


def saves_at_named_steps(events: list[dict[str, Any]], record_steps: list[tuple[int, int]]) -> None:
    """A save whose line names one whole number that lies between the steps of the records around it is at that
    number (in place): the step the save was taken at, which the record printed before it lags (``loss = ...,
    step = 1501`` then ``Saving checkpoints for 2000 into ...`` then ``step = 2001``; ``for 0`` before the first
    record at 1). After the last record, the number may run on by at most one stride of the records. A save
    count (``saving checkpoint 3``), an epoch (``best model at epoch 3``), a line of several numbers, or a save placed by its own
    words keeps its step."""
    saves = [ev for ev in events if ev.get("kind") == "checkpoint"]
    if not saves or not record_steps:
        return
    records = sorted(record_steps)
    steps = sorted({s for _, s in records})
    strides = sorted(b - a for a, b in zip(steps, steps[1:], strict=False))
    stride = strides[len(strides) // 2] if strides else None
    for ev in saves:
        detail = ev.get("detail") or ""
        numbers = _LONE_NUMBER.findall(detail)
        if len(numbers) != 1 or _EPOCH_NUMBER.search(detail):
            continue  # several numbers, or an epoch's (``Better model found at epoch 3``): no step named
        named = int(numbers[0])
        before = [s for line, s in records if line < ev["line_no"]]
        low = before[-1] if before else None
        if ev.get("step") is not None and ev["step"] != low:
            continue  # placed by its own words already (a ``checkpoint-6000/`` folder)
        # the next step the counter reaches (lines after the save at the same step, a rate's, are no later step)
        after = [s for line, s in records if line > ev["line_no"] and s != low]
        if after:
            fits = (low is None or low <= named) and named <= after[0]
        else:
            fits = low is not None and stride is not None and low <= named <= low + stride
        if fits:
            ev["step"] = named
