"""Parsing numbers as papers write them: ``1,024``, ``1.42``, English number words, Chinese numerals."""

from __future__ import annotations

#: A number as written in a paper: thousands separators allowed, an optional decimal part.
NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"

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
