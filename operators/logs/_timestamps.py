"""Wall-clock times printed in log lines, in the layouts training frameworks use."""

from __future__ import annotations

import datetime as dt
import re

_LAYOUTS: list[tuple[re.Pattern[str], str]] = [
    # 2024-05-01 12:00:00  2024-05-01T12:00:00,123  [2022-09-15 05:57:41,508]  2025-09-11-140838 (ezpz)
    (re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})[ T_](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?"), "ymd"),
    (re.compile(r"(?<!\d)(\d{4})/(\d{2})/(\d{2}) (\d{2}):(\d{2}):(\d{2})"), "ymd"),
    # 08/31/2024 14:37:22 (nanotron, HF datasets' logging)
    (re.compile(r"(?<!\d)(\d{2})/(\d{2})/(\d{4}) (\d{2}):(\d{2}):(\d{2})"), "mdy"),
    # [01/05/23 12:00:00] (rich, as Colossal-AI's logger prints)
    (re.compile(r"(?<![\d/])(\d{2})/(\d{2})/(\d{2}) (\d{2}):(\d{2}):(\d{2})"), "mdy2"),
]
_QUICK = re.compile(r"\d{2}:\d{2}:\d{2}")


def find_timestamp(text: str) -> dt.datetime | None:
    """The first plausible date and time in ``text``, or ``None``."""
    if not _QUICK.search(text):
        return None
    for pattern, layout in _LAYOUTS:
        m = pattern.search(text)
        if not m:
            continue
        g = m.groups()
        try:
            if layout == "ymd":
                year, month, day = int(g[0]), int(g[1]), int(g[2])
            elif layout == "mdy":
                month, day, year = int(g[0]), int(g[1]), int(g[2])
            else:
                month, day, year = int(g[0]), int(g[1]), 2000 + int(g[2])
            frac = g[6] if len(g) > 6 and g[6] else ""
            micro = int((frac + "000000")[:6]) if frac else 0
            stamp = dt.datetime(year, month, day, int(g[3]), int(g[4]), int(g[5]), micro)
        except ValueError:
            continue
        if 1990 <= stamp.year <= 2100:
            return stamp
    return None


def iso(stamp: dt.datetime | None) -> str | None:
    return stamp.isoformat(sep=" ") if stamp else None
