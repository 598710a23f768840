"""Charts drawn in text (plotext, tplot, asciichart): their axes' numbers are no records.

A script that plots its history in the terminal at the end of a run prints the same numbers a record does, on
lines of their own: a value axis's ticks before ``┤`` (``0.126┤▝▖   │``), and under the plot's frame a row of
the time axis's ticks (``1.0     3.2     5.5     7.8   10.0``), two panels side by side printing two such
rows on one line. A tick row steps through its values evenly; a table's row of measurements does not."""

from __future__ import annotations

import re

#: A value axis's tick: a number right before the axis's tick mark (``0.126┤``, ``12.5┼``).
_VALUE_TICK = re.compile(r"\d[┤┼]")
#: A line of numbers only (signed decimals parted by spaces).
_NUMBERS_ONLY = re.compile(r"^\s*[-+]?\d+(?:\.\d+)?(?:\s+[-+]?\d+(?:\.\d+)?){3,}\s*$")
#: How far a tick's step may stray from the row's even step, as a share of it (ticks are rounded for print).
_EVEN = 0.15


def chart_line(text: str) -> bool:
    """Whether ``text`` is part of a chart drawn in text: a line with a value axis's tick, or a row of time-axis
    ticks (one panel's or two side by side), each stepping evenly over four values or more."""
    if _VALUE_TICK.search(text):
        return True
    if not _NUMBERS_ONLY.match(text):
        return False
    values = [float(v) for v in text.split()]
    if _even(values):
        return True
    half = len(values) // 2
    return len(values) % 2 == 0 and half >= 4 and _even(values[:half]) and _even(values[half:])


def _even(values: list[float]) -> bool:
    steps = [b - a for a, b in zip(values, values[1:], strict=False)]
    if len(steps) < 3:
        return False
    middle = sorted(steps)[len(steps) // 2]
    return middle > 0 and all(abs(s - middle) <= _EVEN * middle for s in steps)
