"""The step of an event no record placed: a failure after an epoch header and before any value of that
epoch (``Epoch 90/450 ...:`` then a bar and a traceback; ``>>> Train Epoch: [9 / 500]`` then an OOM).

The common rule (``_collect``) gives an event the step of the last record before it. Two cases it cannot
place: a log with no record before the event (its only counter is an epoch header or a bare bar), and a
report glued after a progress bar that counts the batches of one epoch (``1/11 [...]Traceback``), whose
count is no step of the run. Both happened in the epoch the last header before them opened: that epoch is
the step where the run counts its steps by epochs (no record before the event, or the record before it is
the epoch before), else the last record's step stays. An event whose own line names its epoch is in that
epoch by the same rule (Keras's ``Epoch 00001: saving model to ...`` before any record with a step)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np
import pyarrow.compute as pc

from assay.operators.logs._epochs import epoch_opened
from assay.operators.logs._settings_lines import SettingsTable

#: A bare progress bar: its count, and a report glued after it (``  9%|█▊ | 1/11 [00:00<00:06]Traceback``).
_BAR = re.compile(r"^\s*\d{1,3}%\|[^|]*\|\s*(\d+)/\d+ \[[^\]]*\]")
#: An epoch an event's own line names (``Epoch 00003: saving model``, ``nan loss in epoch 4``); not ``3/50``.
_OWN_EPOCH = re.compile(r"(?i)\bepoch\s*[:=#]?\s*(\d+)\b(?!\s*/\s*\d|\.\d)")
#: An event this many lines after an epoch header is still placed by it.
WINDOW = 5000


def _placeable(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events an epoch header may place (one with no step, one after a bar, or one whose line names its
    epoch: Keras's ``Epoch 00004: ... saving model`` printed before that epoch's record), in line order."""
    return sorted(
        (
            ev
            for ev in events
            if ev.get("step") is None or _BAR.match(ev.get("detail") or "") or _OWN_EPOCH.search(ev.get("detail") or "")
        ),
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
    settings = SettingsTable()  # a row of a table of settings (``epoch : 1000``) opens no epoch
    for line_no, text in lines:
        if line_no > last_line:
            break
        if settings.see(text):
            continue
        epoch = epoch_opened(text)
        if epoch is not None:
            headers.append((line_no, epoch))
    records = sorted(record_steps)
    for ev in wanted:
        before = [h for h in headers if h[0] < ev["line_no"] and ev["line_no"] - h[0] <= WINDOW]
        if ev.get("step") is not None and not before and not _BAR.match(ev.get("detail") or ""):
            continue  # placed by a record already, and no epoch header says the run counts epochs
        own = _OWN_EPOCH.search(ev.get("detail") or "")
        if own:  # the event's line names its epoch (``Epoch 00001: saving model to ...``): its own header
            before.append((ev["line_no"], int(own[1])))
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
#: (``Saving checkpoints for 2000 into ./ckpt/model.ckpt``: 2000); nor the milliseconds a comma glues to a clock
#: (``21:25:04,976``).
_LONE_NUMBER = re.compile(r"(?<![\w./:\\+,-])\d+(?![\w./:\\-]|\.\d)")


_EPOCH_NUMBER = re.compile(r"(?i)\b(?:epoch|ep)\s*[:=#]?\s*\d")
#: The number a saved file's name ends on, after its stem and a ``_`` or ``-``: a file in a path or with a weights
#: file's extension (``./exp/G_5500.pth``, ``model_step_1200.pt``), or a checkpoint named so (``ckpt-5500``); not
#: a run's name (``dqn_pong_0 itr #9999 saving snapshot``).
_FILE_NUMBER = re.compile(
    r"(?:[/\\][\w.-]*?[_-](\d+)(?:\.[A-Za-z]\w{0,11})?"
    r"|\b[A-Za-z][\w-]*?[_-](\d+)\.(?:pth?|ckpt|safetensors|bin|h5|pdparams|msgpack|pkl|tar|npz|params)"
    r"|\b(?:ckpt|checkpoint|snapshot|model|weights)[_-](\d+))(?=$|[\s'\",;)\]])"
)

#: A count the save's line says it is at, beside the epoch it closes (fairseq's ``save checkpoint for epoch 35 @
#: 20254 updates``): the step, as a folder named by it is.
AT_UPDATES = re.compile(r"@\s*(\d+)\s+(?:updates|steps|iterations|iters)\b")
#: A folder a save goes into, named by its step (``global_step_110/``, ``iter_0004000/``).
_STEP_FOLDER = re.compile(r"[/\\](?:global_step|step|iter|iteration)[_-]?(\d+)[/\\]")


def saves_at_named_steps(events: list[dict[str, Any]], metrics: Any) -> None:
    """A save whose line names one whole number that lies between the steps of the records around it is at that
    number (in place): the step the save was taken at, which the record printed before it lags (``loss = ...,
    step = 1501`` then ``Saving checkpoints for 2000 into ...`` then ``step = 2001``; ``for 0`` before the first
    record at 1). The number a saved file's name ends on (``G_3300.pth``, ``ckpt-5500``) is such a number, also
    on a line that names the epoch too. After the last record, the number may run on by at most one stride of the records. A save
    count (``saving checkpoint 3``), an epoch (``best model at epoch 3``), a line of several numbers, or a save
    placed by its own words keeps its step. ``metrics``: the span's metric rows (an Arrow table), read only when
    a save names a number."""
    saves = []
    for ev in events:
        detail = ev.get("detail") or ""
        if ev.get("kind") != "checkpoint":
            continue
        # a folder named by the step (``/ckpt/global_step_110/actor/model_rank_3.pt``) or the updates a save is at
        # (``@ 20254 updates``), else the number the saved
        # file's name carries (``G_5500.pth``), also beside the epoch the save is in
        folder = set(_STEP_FOLDER.findall(detail)) or set(AT_UPDATES.findall(detail))
        numbers = set(folder) or {n for found in _FILE_NUMBER.findall(detail) for n in found if n}
        if not numbers and not _EPOCH_NUMBER.search(detail):  # an epoch's number names no step (``Better
            numbers = set(_LONE_NUMBER.findall(detail))  # model found at epoch 3``)
        if len(numbers) == 1:
            saves.append((ev, int(numbers.pop()), bool(folder)))
    if not saves:
        return
    stepped = metrics.filter(pc.is_valid(metrics["step"]))
    if not stepped.num_rows:
        # no record to check the number against: a folder named by the step still names it
        for ev, named, in_folder in saves:
            if in_folder and ev.get("step") is None:
                ev["step"] = named
        return
    order = pc.sort_indices(stepped, sort_keys=[("line_no", "ascending")])
    lines = stepped["line_no"].take(order).to_numpy()
    steps = stepped["step"].take(order).to_numpy()
    distinct = np.unique(steps)
    stride = int(np.median(np.diff(distinct))) if len(distinct) > 1 else None
    by_line = {ev["line_no"]: ev for ev in events if ev.get("kind") == "checkpoint" and "line_no" in ev}
    for ev, named, _ in saves:
        at = int(np.searchsorted(lines, ev["line_no"], side="left"))
        low = int(steps[at - 1]) if at else None
        if ev.get("step") is not None and ev["step"] != low:
            continue  # placed by its own words already (a ``checkpoint-6000/`` folder)
        # the next step the counter reaches (lines after the save at the same step, a rate's, are no later step)
        rest = steps[int(np.searchsorted(lines, ev["line_no"], side="right")) :][:_LOOK_AHEAD]
        later = rest[rest != low] if low is not None else rest
        if len(later):
            fits = (low is None or low <= named) and named <= int(later[0])
        else:
            fits = low is not None and stride is not None and low <= named <= low + stride
        if fits:
            ev["step"] = named
            _same_save_follows(by_line, ev, low)


def _same_save_follows(by_line: dict[int, dict[str, Any]], named: dict[str, Any], low: int | None) -> None:
    """The save's next lines (``Saving checkpoint to ...`` right after ``Preparing to save checkpoint for epoch 35 @
    20254 updates``), placed at the record before them, are the same save: at its named step too. ``by_line``:
    the saves by their lines."""
    line = named["line_no"]
    while (ev := by_line.get(line + 1)) is not None and ev.get("step") == low:
        if ev.get("rank") != named.get("rank") or _LONE_NUMBER.search(ev.get("detail") or ""):
            break  # (a line that counts something of its own, ``saving checkpoint 3``, is another save)
        ev["step"], line = named["step"], ev["line_no"]


#: Metric rows after a save searched for the next step the counter reaches.
_LOOK_AHEAD = 10_000
