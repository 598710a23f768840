"""A step counter printed rounded once it grows (LeRobot's ``step:800`` then ``step:1K`` three times, ``2K``
...): the records after the rounding go on by the stride the exact ones kept, each checked against the rounded
figure it printed. Read from the counter's values alone; where they disagree, the printed counter stands."""

from __future__ import annotations

import re

#: A count printed with a thousands or millions suffix (``1K``, ``12k``, ``1.2M``).
_ROUNDED = re.compile(r"^(?P<n>\d+(?:\.\d+)?)(?P<s>[kKmM])$")
_SCALE = {"k": 1_000, "m": 1_000_000}


def unround_steps(rows: list, pos: int) -> None:
    """Rewrite, in place, the step tokens at ``pos`` of ``rows`` (a template's records, in line order) where a
    counter printed exactly at first goes on rounded and repeats a rounded figure: each rounded record is the
    record before plus the exact records' stride, as long as that step rounds to what it printed."""
    tokens = [row[2][pos] if pos < len(row[2]) else "" for row in rows]
    rounded = [_ROUNDED.match(t) for t in tokens]
    if not any(rounded) or not any(a and b and a[0] == b[0] for a, b in zip(rounded, rounded[1:], strict=False)):
        return  # nothing rounded, or a rounded figure that never repeats: each record's own figure is its step
    first = next(i for i, r in enumerate(rounded) if r)
    exact = [int(t) for t in tokens[:first] if t.isdigit()]
    if len(exact) < 2 or len(exact) != first:
        return
    strides = {b - a for a, b in zip(exact, exact[1:], strict=False)}
    if len(strides) != 1 or (stride := strides.pop()) <= 0:
        return
    steps, step = [], exact[-1]
    for r in rounded[first:]:
        step += stride
        if r is None:
            return
        scale = _SCALE[r["s"].lower()]
        if abs(step - float(r["n"]) * scale) > scale / 2 + stride:
            return  # the stride does not carry the count the record printed: leave the counter as printed
        steps.append(step)
    for row, step in zip(rows[first:], steps, strict=True):
        row[2][pos] = str(step)
