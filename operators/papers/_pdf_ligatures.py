"""Ligatures a font names in its encoding but PDFium cannot spell: the characters of a word behind a code it
returns as a control character.

A font may draw ``fi`` from a glyph its encoding's ``/Differences`` array names ``/f_i`` (the Libertine fonts of
ACM's template name them ``/f_i /f_f_i /f_f /f_l /f_f_l`` at codes 27-31) with no ``/ToUnicode`` map. PDFium knows
no Unicode for such a name and returns the raw code, U+001B-U+001F: read as they come, the ligature is dropped or
becomes a space ("signicant", "di erent"). The glyph's name says its letters: ``f_f_i`` is ``ffi`` (the Adobe
Glyph List's rule for a ligature's name, its components joined by underscores), as are the standard names
``fi``, ``fl``, ``ff``, ``ffi``, ``ffl``. This module reads those names from each font's encoding (pypdf) so the
reader can spell the characters PDFium returns at their codes, by the font PDFium says the character is in.
The fonts are read only when a page holds such a code (``Ligatures``): most PDFs never need them.
"""

from __future__ import annotations

import re
from typing import Any

#: The standard ligature glyph names and the letters they draw.
_NAMED = {"fi": "fi", "fl": "fl", "ff": "ff", "ffi": "ffi", "ffl": "ffl", "ft": "ft", "st": "st"}
#: A ligature's name as components joined by underscores: ``f_i``, ``f_f_l``, ``T_h`` (letters only).
_COMPONENTS = re.compile(r"^[A-Za-z](?:_[A-Za-z])+$")
#: A subset font's six-letter tag before its name (``QOBDPZ+LinLibertineTB``), which PDFium leaves out.
_SUBSET = re.compile(r"^[A-Z]{6}\+")


class Ligatures:
    """The letters of ``(font name, code)`` (``ligature_codes``), the document's fonts read at the first
    lookup."""

    def __init__(self, reader: Any) -> None:
        self._reader = reader
        self._codes: dict[tuple[str, int], str] | None = None

    def get(self, key: tuple[str, int]) -> str | None:
        if self._codes is None:
            self._codes = ligature_codes(self._reader)
        return self._codes.get(key)


def ligature_codes(reader: Any) -> dict[tuple[str, int], str]:
    """``(font name, code) -> letters`` for every ligature glyph the fonts of the document's pages name in
    their encodings' ``/Differences`` below code 32 (where PDFium returns a control character). A font that
    cannot be read costs only its ligatures."""
    out: dict[tuple[str, int], str] = {}
    seen: set[int] = set()
    for page in reader.pages:
        try:
            fonts = (page.get("/Resources") or {}).get("/Font") or {}
            items = list(fonts.values())
        except Exception:  # noqa: BLE001 -- a damaged resource dictionary only costs its fonts' ligatures
            continue
        for ref in items:
            if id(ref) in seen:
                continue
            seen.add(id(ref))
            try:
                out.update(_font_ligatures(ref.get_object()))
            except Exception:  # noqa: BLE001 -- as above, for one font
                continue
    return out


def _font_ligatures(font: Any) -> dict[tuple[str, int], str]:
    encoding = font.get("/Encoding")
    encoding = encoding.get_object() if encoding is not None else None
    if not hasattr(encoding, "get"):
        return {}
    differences = encoding.get("/Differences")
    if not differences:
        return {}
    name = _SUBSET.sub("", str(font.get("/BaseFont") or "").lstrip("/"))
    out: dict[tuple[str, int], str] = {}
    code = 0
    for item in differences:
        value = item.get_object() if hasattr(item, "get_object") else item
        if isinstance(value, int):
            code = int(value)
            continue
        glyph = str(value).lstrip("/")
        letters = _NAMED.get(glyph) or (glyph.replace("_", "") if _COMPONENTS.match(glyph) else None)
        if letters and code < 32:
            out[(name, code)] = letters
        code += 1
    return out
