"""Numbers as training logs print them: ``6,647``, ``11.4K``, ``7.365868E+00``, ``nan``, ``30.1GiB``,
``12.3%``, ``tensor(2.31, device='cuda:0')``. Parsing never raises: text that is not a number gives
``None``."""

from __future__ import annotations

import math
import re

#: Decimal suffixes of human-formatted numbers (nanotron's ``human_format``, tqdm rates).
_SCALE = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "G": 1e9, "T": 1e12, "P": 1e15}

_NUMBER = re.compile(
    r"""^\s*
    (?:tensor\(|np\.float\d*\(|np\.int\d*\(|torch\.tensor\()?      # repr wrappers
    (?P<num>[-+]?(?:
        \d\.\#(?:QNAN|SNAN|IND|INF)\d*                                # MSVC: 1.#QNAN0 1.#IND00 -1.#INF00
        |(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?(?:[eE][-+]?\d+)?       # 6,647  7.3E+00  12.
        |\.\d+(?:[eE][-+]?\d+)?
        |nan|NaN|NAN|inf|Inf|INF|infinity|Infinity
    ))
    (?P<suffix>[kKMBGTP](?![a-zA-Z]))?
    (?P<unit>[A-Za-z/%]*)""",
    re.VERBOSE,
)

#: Memory units to mebibytes.
_MEMORY_MB = {
    "b": 1 / 2**20,
    "kb": 1e3 / 2**20,
    "kib": 1 / 1024,
    "mb": 1.0,
    "mib": 1.0,
    "m": 1.0,
    "gb": 1024.0,
    "gib": 1024.0,
    "g": 1024.0,
    "tb": 1024.0**2,
    "tib": 1024.0**2,
}


def parse_number(text: str | bytes | None) -> float | None:
    """The number at the start of ``text`` with its decimal suffix applied (``11.4K`` is 11400)."""
    parsed = parse_quantity(text)
    return parsed[0] if parsed else None


def parse_quantity(text: str | bytes | None) -> tuple[float, str] | None:
    """``(value, unit)`` for text such as ``30.12GiB(31.70%)`` -> ``(30.12, 'GiB')``; suffixes K/M/G applied
    only when no unit letters follow them, so ``4.71K`` is 4710 and ``520M`` is 520e6."""
    if text is None:
        return None
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    m = _NUMBER.match(text)
    if not m:
        return None
    raw = m.group("num").replace(",", "")
    if "#" in raw:  # MSVC's spelling of a non-finite float: only ``#INF`` is an infinity, the rest NaN
        raw = ("-inf" if raw[0] == "-" else "inf") if "#INF" in raw else "nan"
    try:
        value = float(raw)
    except ValueError:
        return None
    suffix = m.group("suffix") or ""
    unit = m.group("unit") or ""
    if suffix and not math.isnan(value):
        value *= _SCALE[suffix]
    return value, unit


def to_floats(values: list[bytes] | list[str]) -> list[float | None]:
    """Many numbers at once: C-speed ``float`` for the usual case, the full parser for the rest."""
    try:
        return list(map(float, values))
    except ValueError:
        return [parse_number(v) for v in values]


def memory_mb(value: float, unit: str, default_unit: str = "MiB") -> float | None:
    """Memory in MiB from ``value`` in ``unit`` (GiB, GB, MB, MiB, B...); ``None`` if the unit is not one."""
    factor = _MEMORY_MB.get((unit or default_unit).lower().rstrip("s"))
    return None if factor is None else value * factor


_MEMORY = re.compile(r"^\s*(?P<num>\d[\d,]*(?:\.\d*)?)\s*(?P<unit>[KMGTkmgt]i?[Bb]?|[Bb])?\s*$")


def memory_of(token: str, after: str = "") -> float | None:
    """MiB from a memory figure as logs print it: ``2845M``, ``34235Mb``, ``4.1G``, ``12.3`` followed by
    ``GB``, or a bare number (MiB, as mmengine and most trainers print it). A suffix letter is a unit here,
    not a decimal scale (``2845M`` is 2845 MiB, not 2.8e9)."""
    m = _MEMORY.match(token)
    if not m:
        return None
    unit = m.group("unit") or (after if _MEMORY_MB.get(after.lower().rstrip("s")) else "")
    if unit and unit.lower() in ("k", "m", "g", "t"):
        unit += "iB"  # a bare letter: binary units, as PyTorch's allocator reports
    return memory_mb(float(m.group("num").replace(",", "")), unit)


def whole_number(token: str) -> int | None:
    """A whole number as a field prints it, a separator glued after it (``100,`` in ``iters: 100, time:``)."""
    token = token.rstrip(",;")
    return int(token) if token.isdigit() else None
