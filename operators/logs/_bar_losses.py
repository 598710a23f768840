"""Whether a bar drawn once per epoch is a record of the epoch or of its last step: the loss its postfix
shows (``157/157 [02:34<00:00, loss=0.48]``) against the loss the epoch's summary prints after it (``Epoch 1/100
- Train Loss: 0.4569``). A bar whose loss is the summary's (a running mean that ends at the epoch's mean, as
SpeechBrain's ``train_loss=5.86`` then ``train loss: 5.86``) says nothing of its own: the epoch is the record.
A bar whose loss differs is the last step's value beside the epoch's average (docs/gold-conventions.md L3: a
per-step value beats an epoch average printed after it): the bar is a step record, made global by the length
it prints (D7)."""

from __future__ import annotations

import re

#: The loss a bar's postfix shows (``loss=0.48``, ``train_loss=5.86``).
_POSTFIX_LOSS = re.compile(r"(?i)\b(?:train_)?loss=(?P<v>[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)")
#: A bar drawn to its total (``157/157 [``): only finished bars are compared, so a file of bars keeps one entry
#: an epoch, not one a redraw.
_FINISHED = re.compile(r"\b(\d+)/\1\s*\[")
#: A number on a summary line.
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
#: How many lines after a bar its epoch's summary may come (a validation bar may stand between).
_WITHIN = 4


class BarLosses:
    """The loss each finished bar showed and the numbers of the loss line after it."""

    def __init__(self) -> None:
        self._bar: dict[int, str] = {}  # bar line -> the loss its postfix showed, as printed
        self._summary: dict[int, list[str]] = {}  # bar line -> the numbers of the first loss line after it
        self._last: int | None = None

    def bar(self, text: str, line_no: int) -> None:
        m = _POSTFIX_LOSS.search(text) if _FINISHED.search(text) else None
        if m:
            self._bar[line_no] = m["v"]
            self._last = line_no

    def line(self, text: str, line_no: int) -> None:
        """Any other line: the first after a bar that names a loss is that bar's epoch's summary."""
        last = self._last
        if last is None or line_no - last > _WITHIN or last in self._summary or "|" in text[:40]:
            return
        if "loss" in text.lower() and "=" not in text[:3]:
            self._summary[last] = _NUMBER.findall(text)

    def step_records(self, lines: list[int]) -> bool:
        """Whether the bars at ``lines`` show losses their summaries do not (two or more bars compared, most
        of them different): each bar is its epoch's last step, not the epoch."""
        compared = [(self._bar[n], self._summary[n]) for n in lines if n in self._bar and n in self._summary]
        if len(compared) < 2:
            return False
        differ = sum(not _among(shown, numbers) for shown, numbers in compared)
        return differ * 2 > len(compared)


def _among(shown: str, numbers: list[str]) -> bool:
    """``shown`` (as a bar rounds it) is one of ``numbers`` rounded alike."""
    decimals = len(shown.split(".")[1]) if "." in shown and "e" not in shown.lower() else None
    value = float(shown)
    for number in numbers:
        x = float(number)
        if (round(x, decimals) if decimals is not None else x) == value or x == value:
            return True
    return False
