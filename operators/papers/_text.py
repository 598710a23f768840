"""Plain text: decoding bytes that may not be valid UTF-8, and a title from the first line."""

from __future__ import annotations

import codecs
import re

_FIRST_SENTENCE = re.compile(r"^.*?(?:[.!?](?=\s)|[。！？]|$)", re.S)
TITLE_CHARS = 120


def decode(data: bytes) -> str:
    """UTF-8 (a byte-order mark dropped; UTF-16 when its mark says so); invalid bytes become U+FFFD.

    Line ends become ``\\n`` and NUL characters are dropped, so offsets stay stable in the database.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16", errors="replace")
    else:
        text = data.decode("utf-8-sig", errors="replace")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\x00", "")


def require_text(text: str, what: str = "file") -> str:
    if not text.strip():
        raise ValueError(f"empty {what}: no text to read")
    return text


def title_of(text: str) -> str:
    """The first line when it reads as a heading (short, no final full stop, more text follows), else the
    first sentence, shortened."""
    head = text.lstrip()[:2000]
    first, _, rest = head.partition("\n")
    first = first.strip()
    if rest.strip() and 0 < len(first) <= 200 and not first.endswith((".", "。", "!", "?", "！", "？", ",")):
        return first
    sentence = _FIRST_SENTENCE.match(head)
    title = " ".join((sentence.group() if sentence else head).split())
    return title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1].rstrip() + "…"
