"""Whether a gold value is printed in the input text: the measuring scripts count a miss of a value the text
never prints apart from the total (docs/gold-conventions.md, section 4), so that a figure tuned on shows the
misses a reading of the text could avoid.

Decided from the gold value and the input text only, never from what assay read. Each test leans to
"printed" where in doubt (a name found inside a longer word, a number at any precision finer than the gold's),
so a miss is called outside the text only when the value is plainly not there.

- ``number_printed``: a number among the text's numbers, an integer as itself, a decimal at the gold's own
  precision (0.7884 is printed as ``0.78840``, ``0.78843`` or ``7.884e-01``, not as ``0.788``); NaN and the
  infinities as the words ``nan``, ``inf``, ``infinity``.
- ``name_printed``: a name as a word start in the text, case-insensitive, with its parts joined by a space, a
  hyphen, an underscore or nothing (``llama_recipes``: ``llama recipes``, ``Llama-Recipes``, ``llamarecipes``).
- ``phrase_printed``: a phrase in the text, case-insensitive, runs of whitespace as one space (a phrase broken
  over lines is found); or, for four or more letters and digits, the same with spaces and punctuation dropped
  on both sides (``Megatron-LM`` in ``Megatron LM``, or hyphenated over a PDF line). CJK text is compared as
  a plain substring, which the same rule gives. A name composed as rule D2 writes a configuration, "<system>
  with X", "<system> without X", "<system> alone", is printed when each of its parts is.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_NAN = re.compile(r"(?<![a-z])nan(?![a-z])", re.I)
_INF = re.compile(r"(?<![a-z])inf(?:inity)?(?![a-z])", re.I)


def decimals(value: float) -> int:
    """The places after the decimal point of a number as Python writes it shortest (``1e-05``: 5)."""
    text = repr(float(value))
    mantissa, _, exponent = text.partition("e")
    places = len(mantissa.partition(".")[2].rstrip("0"))
    return max(places - int(exponent or 0), 0)


def numbers(text: str) -> list[float]:
    """Every number the text prints, in order (a sign kept: ``loss=-0.5`` is -0.5)."""
    found = []
    for token in _NUMBER.findall(text):
        try:
            found.append(float(token))
        except ValueError:  # pragma: no cover - the pattern only finds numbers float reads
            continue
    return found


def number_printed(value: float | int, text: str, printed: Iterable[float] | None = None) -> bool:
    """Whether ``text`` prints ``value`` (``printed``: its ``numbers``, when already found)."""
    if isinstance(value, float) and math.isnan(value):
        return bool(_NAN.search(text))
    if isinstance(value, float) and math.isinf(value):
        return bool(_INF.search(text))
    printed = numbers(text) if printed is None else printed
    if isinstance(value, int) and not isinstance(value, bool):
        return any(abs(x) == abs(value) for x in printed)
    places = decimals(value)
    want = round(abs(value), places)
    return any(
        math.isclose(round(abs(x), places), want, rel_tol=1e-9, abs_tol=10.0 ** -(places + 6))
        for x in printed
    )


def spellings(name: str) -> set[str]:
    """A name's parts (split at spaces, hyphens, underscores) joined each usual way, lower-cased."""
    parts = [p for p in re.split(r"[\s_\-]+", name.lower()) if p]
    return {sep.join(parts) for sep in (" ", "-", "_", "")}


def name_printed(names: Iterable[str], text: str) -> bool:
    """Whether any of ``names``, spelled any usual way, starts a word of ``text``."""
    lowered = text.lower()
    for name in names:
        for spelling in spellings(name):
            if spelling and re.search(r"(?<![a-z0-9])" + re.escape(spelling), lowered):
                return True
    return False


#: The words rule D2 composes a configuration's name with: "<system> with X", "without X", "alone".
_COMPOSED = re.compile(r"(?:^|\s+)(?:with|without|w/o|w/|alone)(?:\s+|$)", re.I)


def _spaced(text: str) -> str:
    return " ".join(text.lower().split())


def _bare(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


class Document:
    """A document's text prepared once for ``phrase_printed`` over many phrases."""

    def __init__(self, text: str) -> None:
        self.spaced = _spaced(text)
        self.bare = _bare(text)

    def phrase_printed(self, phrase: str | None) -> bool:
        if not phrase or not phrase.strip():
            return False
        if self._printed(phrase):
            return True
        parts = [p for p in _COMPOSED.split(phrase) if p.strip()]
        return bool(_COMPOSED.search(phrase)) and bool(parts) and all(self._printed(p) for p in parts)

    def _printed(self, phrase: str) -> bool:
        if _spaced(phrase) in self.spaced:
            return True
        bare = _bare(phrase)
        return len(bare) >= 4 and bare in self.bare
