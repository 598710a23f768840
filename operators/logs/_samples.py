"""A counter of samples, not batches (open_clip's ``Train Epoch: 0 [ 6464/109468 (6%)]``): read as the batch's
index only where the log prints the batch that converts it (docs/gold-conventions.md, D7)."""

from __future__ import annotations

import math


def printed_batches(settings: dict) -> set[int]:
    """The batch sizes a log's settings print: per device, of the whole step, and per device times the world."""
    micro, whole, world = (settings.get(k) for k in ("micro_batch_size", "global_batch_size", "world_size"))
    found = {b for b in (micro, whole) if isinstance(b, int) and b > 0}
    if isinstance(micro, int) and isinstance(world, int) and micro > 0 and world > 0:
        found.add(micro * world)
    return found


def samples_per_step(rows: list[list[str]], step_pos: int, printed: set[int] = frozenset()) -> tuple[int, int] | None:
    """A counter ``n/N`` that counts samples, not batches (open_clip's ``Train Epoch: 0 [ 6464/109468 (6%)]``):
    its values are all multiples of a batch (a power of two, 8 or more) and advance by several batches per
    record, and the total (a data set's size) is no multiple of it. Then ``(batch, first)``: the step is
    ``n / batch - first`` (``first`` is 1 where the count includes the batch just done: 64, 6464, ...). Only
    where the log prints that batch (``printed``: the batch sizes its settings give, per device and of the
    whole step): the values alone do not say a batch, so the counter stays as printed
    (docs/gold-conventions.md, D7)."""
    values, totals = [], set()
    for tokens in rows:
        if len(tokens) <= step_pos + 2 or not (tokens[step_pos].isdigit() and tokens[step_pos + 2].isdigit()):
            return None
        values.append(int(tokens[step_pos]))
        totals.add(int(tokens[step_pos + 2]))
    if len(values) < 3 or len(totals) != 1:
        return None
    batch = math.gcd(*values)
    if batch < 8 or batch & (batch - 1) or totals.pop() % batch == 0 or batch not in printed:
        return None
    strides = {b - a for a, b in zip(values, values[1:], strict=False) if b > a}
    if not strides or min(strides) <= batch:
        return None
    every = math.gcd(*strides) // batch
    first = 1 if all((v // batch) % every == 1 % every for v in values) else 0
    return batch, first
