"""Units printed after a number that name its metric (``12000 tok/s``, ``1.62 updates/sec``), how a
template says whether its units follow their values or its keys precede them, and durations: in parts, and
whether a time column is a clock of the whole run."""

from __future__ import annotations

import re

#: Rate units the synonym table maps to the contract's names.
RATE_UNITS = {
    "tok/s": "tokens_per_s",
    "tokens/s": "tokens_per_s",
    "tokens/sec": "tokens_per_s",
    "samples/s": "samples_per_s",
    "samples/sec": "samples_per_s",
    "img/s": "samples_per_s",
    "img/sec": "samples_per_s",
    "images/sec": "samples_per_s",
}
#: Any other count per second (``updates/sec``, ``words/s``): a rate unit too, named as printed.
_PER_SECOND = re.compile(r"^[A-Za-z]+/(?:s|sec)$")


def rate_unit(word: str) -> bool:
    return word.lower() in RATE_UNITS or bool(_PER_SECOND.match(word))


def units_follow_values(template: list[str], i: int) -> bool:
    """The value at ``i`` and the value after its unit are both followed by rate units (``Speed: 185.09
    samples/sec 8671.95 tokens/sec 1.62 updates/sec``): the template prints value then unit, so each unit
    names the value before it, even where a key stands before the first value (``Speed:``). A lone unit
    between two values (``loss 0.9 tok/s 1234``) is the next value's key."""
    return template[i + 2 : i + 3] == ["<*>"] and i + 3 < len(template) and rate_unit(template[i + 3])


#: A duration as a console prints it, in one unit or in parts (``61.2ms``, ``2.1s``, ``1m 4s``, ``1h 39m 38s``).
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)")
_DURATION = re.compile(r"^\d+(?:\.\d+)?(?:ms|s|m|h|d)(?:\s+\d+(?:\.\d+)?(?:ms|s|m|h|d))*$")
_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def durations_in_seconds(column: list[str]) -> list[float] | None:
    """A column of a template's values in seconds where it prints durations whose unit changes from record to
    record (CatBoost's ``total: 61.2ms`` then ``total: 2.1s``, ``remaining: 1m 1s`` then ``18.7s``): each read
    whole, its parts added; ``None`` where the column is no such duration (one unit throughout keeps the
    number as printed)."""
    if not column or not all(_DURATION.match(v) for v in column):
        return None
    units = {u for v in column for _, u in _DURATION_PART.findall(v)}
    if len(units) < 2 and not any(" " in v for v in column):
        return None
    return [sum(float(n) * _SECONDS[u] for n, u in _DURATION_PART.findall(v)) for v in column]


def rises_as_a_clock(values: list[float]) -> bool:
    """A time column that rises on every record, over three or more, to at least twice its first value: the
    run's time so far (an elapsed clock, ``time 3m 40s`` then ``6m 21s``), not each step's time, which wanders
    around its mean."""
    return (
        len(values) >= 3
        and values[0] > 0
        and all(a < b for a, b in zip(values, values[1:], strict=False))
        and values[-1] >= 2 * values[0]
    )
