"""Parsing numbers as papers write them: ``1,024``, ``1.42``, English number words, Chinese numerals."""

from __future__ import annotations

import re

#: A number as written in a paper: thousands separators allowed, an optional decimal part.
NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
#: Where a number starts: not inside a word, an identifier or another number ("ResNet-50", "v1.3").
NUMBER_START = r"(?<![A-Za-z0-9_.])(?<![A-Za-z0-9]-)"
#: Between two numbers of one list: "50% and 37%", "4x, 6x and 8x", "30% 和 40%" (no clause between them).
NUMBER_LIST_GAP = re.compile(r"[\s,，、]*(?:(?:and|和|与|及|以及|or)[\s,，、]*)?", re.I)

_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "twenty": 20,
    "twice": 2,
    "double": 2,
    "triple": 3,
    "thrice": 3,
}
#: Words that count as numbers in front of "times", "-fold" or "orders of magnitude".
NUMBER_WORDS = r"(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty)"

_ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}
#: Chinese numerals small enough to express a ratio ("三倍", "两个数量级").
ZH_NUMBER = r"[零〇一二两三四五六七八九十百千]+"


def parse_number(text: str) -> float:
    """``"1,024"`` -> 1024.0, ``"1.42"`` -> 1.42, ``"two"`` -> 2.0, ``"十二"`` -> 12.0."""
    text = text.strip()
    lowered = text.lower()
    if lowered in _WORDS:
        return float(_WORDS[lowered])
    if text and text[0] in _ZH_DIGITS or text[:1] in _ZH_UNITS:
        return float(parse_chinese(text))
    return float(text.replace(",", "").replace("−", "-"))


def parse_chinese(text: str) -> int:
    """Chinese numerals below ten thousand: ``"三"`` 3, ``"十二"`` 12, ``"二十"`` 20, ``"一百零五"`` 105."""
    total, digit = 0, None
    for ch in text:
        if ch in _ZH_DIGITS:
            digit = _ZH_DIGITS[ch]
        elif ch in _ZH_UNITS:
            total += (1 if digit is None else digit) * _ZH_UNITS[ch]
            digit = None
        else:
            raise ValueError(f"not a Chinese numeral: {text!r}")
    return total + (digit or 0)


def is_integer_text(text: str) -> bool:
    return text.replace(",", "").isdigit()


def looks_like_year(number: str) -> bool:
    return is_integer_text(number) and 1900 <= int(number.replace(",", "")) <= 2100


_SCOPE = re.compile(r"[ \t]*(?:/|per)[ \t]*(?P<what>[A-Za-z]+)$")


def rate_unit(written: str) -> tuple[str, str | None]:
    """A rate's unit as written, spaces collapsed, and its scope when stated per device or node: "tokens/s
    per GPU" -> ("tokens/s", "per GPU"); "tokens/s" -> ("tokens/s", None)."""
    unit = re.sub(r"\s+", " ", written.strip(" \t~"))
    found = _SCOPE.search(unit)
    if not found or found.group("what").lower() in ("s", "sec", "second"):
        return unit, None
    return unit[: found.start()], f"per {found.group('what')}"


_CHANGE_FROM = re.compile(r"\bfrom[ \t]+$|从$", re.IGNORECASE)
# "benefits scaling from 27% to 40% as the load grows": a result that varies over the setting is a range, not a
# change of one quantity ("overhead drops from 18% to 2%").
_RANGE_LEAD = re.compile(
    r"(?:\b(?:benefits?|gains?|improvements?|speed-?ups?|reductions?|savings?|advantages?|overheads?[ \t]+"
    r"reductions?)\b(?:[ \t]+\w+){0,3}|\b(?:scal|vary|varies|varied|grow|span|rang)\w*)[ \t]+from[ \t]+$",
    re.IGNORECASE,
)


def is_change(text: str, sep: str | None, start: int, unit: str) -> bool:
    """ "from A to B" of a percentage or a quantity is a change ("utilization rises from 41% to 85%"); of a
    ratio, or written "A-B", or "ranging from", it is a range ("speedups from 1.3x to 2.4x")."""
    sep = (sep or "").strip().lower()
    if (
        unit == "x"
        or sep not in ("to", "至", "到")
        or not _CHANGE_FROM.search(text, max(0, start - 6), start)
    ):
        return False
    return not _RANGE_LEAD.search(text, max(0, start - 60), start)


# What follows a multiplication sign when it is not a ratio: a dimension ("3x3", "2 x 10^5") or a machine
# ("8x A100", "4 × GPUs", "8x" at a line's end and "A100" on the next, where a number on the next line is a
# cell of its own); a measure of the machine ("4x GPU memory", "3x GPU hours") is a ratio again.
_MACHINE = (
    r"(?:NVIDIA[ \t]+)?(?:[A-Z]{1,3}\d{2,4}[A-Z]?\b|TPU|GPU|node|machine|server|device|worker|core|chip|card|"
    r"accelerator)(?![ \t-]*(?:显存|内存|memory|hours?|time|utili[sz]ation))"
)
_AFTER_X_NOT_RATIO = re.compile(
    # on the next line, a device followed by numbers is a table's next row ("1.52x" / "V100 1.12x 1.20x")
    rf"[ \t]*(?:\d|\$?[ \t]*\d|{_MACHINE}|\n[ \t]*{_MACHINE}(?![ \t|]*\d))",
    re.IGNORECASE,
)
# A change verb right before the multiple ("reduce 3x GPU memory", "降低11倍 GPU 显存") makes it a ratio.
_CHANGE_BEFORE = re.compile(r"(?:降低|减少|提升|提高|\breduc\w*|\bcut(?:s|ting)?)[ \t]*(?:by[ \t]+)?$", re.I)


def counts_machines(text: str, start: int, end: int, sign: str) -> bool:
    """Whether the multiple ``text[start:end]`` (written with ``sign``) counts machines or spans a dimension
    ("8x A100", "3x3") rather than stating a ratio; a multiple in 倍 ("11倍") never counts machines."""
    return (
        not sign.endswith("倍")
        and bool(_AFTER_X_NOT_RATIO.match(text, end))
        and not _CHANGE_BEFORE.search(text, max(0, start - 12), start)
    )
