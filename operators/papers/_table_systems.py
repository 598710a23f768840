"""Which system a table's column names, where its header is more than one name.

A PDF table's header over sub-columns is a path, the group's title first (``Time Reduction (%) / FooRT +Cache``,
``_pdf_tables``): the group names the measure, the sub-column the system whose result each cell is. The
row-and-column reader (``_tables``) reads the whole path as a measure's header and so names no system; this
module finds the level of the path that names one:

- a system the paper names or compares with, or a name the caption lists (``of FooRT and HexaServe``) that
  the text reads as a system's;
- names joined with ``+`` (a system run with a technique), one of them read as a system's anywhere in the
  text (``FooRT +Cache`` is ``FooRT + Cache``);
- an abbreviation the paper defines for a system, in a legend or its setup (``FooRT + Cache ("F+C")``, or
  ``(F+C)``): a column headed ``F+C`` is ``FooRT + Cache``, the letters of the abbreviation being the first
  letters of the words before it; or one a caption states (``FR represents FooRT``, ``HS/BP correspond to
  HexaServe and BarPipe``): a column headed by it, or by it and another part (``FR-AG``, the system and the
  operation it ran), is that system.

Why a module of its own: ``_tables`` is at its size limit, and what a column names is asked for apart from
which axis of the table lists the systems.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assay.operators.papers._mentions import Mention
from assay.operators.papers._table_units import CELL_SEP

#: How ``_pdf_tables`` joins a group's title to the name of a sub-column under it.
GROUP_SEP = " / "
#: An abbreviation defined in brackets right after what it stands for, quoted or not: ``("F+C")``, ``(FC)``.
_DEFINED = re.compile(
    r"\(\s*[\"“'‘]?(?P<abbr>[A-Z][A-Za-z0-9]{0,5}(?:\s*[+&/-]\s*[A-Z][A-Za-z0-9]{0,5}){0,3})[\"”'’]?\s*\)"
)
#: An abbreviation (or several, joined by slashes) a sentence states: ``FR represents FooRT``, ``HS/BP correspond to
#: HexaServe and BarPipe``; what it stands for runs to the clause's end.
_STATED = re.compile(
    r"(?<![\w/-])(?P<abbr>[A-Z][A-Za-z0-9]{0,4}(?:/[A-Z][A-Za-z0-9]{0,4}){0,3})\s+(?:represents?|denotes?|"
    r"stands?\s+for|refers?\s+to|corresponds?\s+to|is\s+short\s+for)\s+(?:the\s+)?(?P<full>[^,;.()]{2,80})"
)
#: One name of what a stated abbreviation stands for: its capitalised words (``AllGather`` of ``AllGather
#: operators``).
_STATED_NAME = re.compile(r"[A-Z][\w+-]*(?:\s[A-Z][\w+-]*){0,2}")
_LIST_PARTS = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")
#: A word of the name an abbreviation stands for, and what may stand between two of them.
_WORD = re.compile(r"[A-Za-z][\w.-]*")
_GAP = re.compile(r"\s*(?:[+&/]|\band\b|\bwith\b)?\s*")
#: A header's word that makes the column the settings a system ran with, not its results.
_SETTINGS_OF = re.compile(
    r"(?i)\b(?:config|configs|configuration|configurations|setup|settings?|strategy|plan|partition(?:ing)?|"
    r"layout|hyper-?parameters?)\s*$"
)
#: Two names joined with a plus sign, however it is spaced (``FooRT +Cache``).
_PLUS = re.compile(r"(?<=\w)\s*\+\s*(?=[A-Za-z])")


def defined_abbreviations(text: str) -> dict[str, str]:
    """Each abbreviation of two capitals or more the text defines right after its words (``FooRT + Cache
    ("F+C")``), lower case and unspaced, to the words it stands for; the first definition counts."""
    out: dict[str, str] = {}
    for m in _DEFINED.finditer(text):
        abbr = m.group("abbr")
        letters = [ch for ch in abbr if ch.isupper()]
        key = _key(abbr)
        if len(letters) < 2 or key in out:
            continue
        name = _expansion(text[max(0, m.start() - 160) : m.start()].rstrip(), letters)
        if name:
            out[key] = joined(name)
    for m in _STATED.finditer(text):
        abbrs = m.group("abbr").split("/")
        parts = [p for p in _LIST_PARTS.split(m.group("full").strip()) if p]
        if len(parts) != len(abbrs):
            continue
        for abbr, part in zip(abbrs, parts, strict=True):
            name = _STATED_NAME.match(part.strip())
            if name and _key(abbr) not in out:
                out[_key(abbr)] = joined(name.group())
    return out


def _expansion(before: str, letters: list[str]) -> str | None:
    """The words at the end of ``before`` whose first letters are ``letters`` in order, one word each, joined
    only by spaces, ``+``, ``&``, ``/``, ``and`` or ``with``."""
    words = list(_WORD.finditer(before))
    if len(words) < len(letters) or words[-1].end() != len(before):
        return None
    chosen = words[-len(letters) :]
    for word, letter in zip(chosen, letters, strict=True):
        if word.group()[0].upper() != letter:
            return None
    for a, b in zip(chosen, chosen[1:], strict=False):
        if not _GAP.fullmatch(before[a.end() : b.start()]):
            return None
    return before[chosen[0].start() :]


def _key(name: str) -> str:
    return re.sub(r"\s+", "", name).lower()


def joined(name: str) -> str:
    """A name with its plus signs spaced alike: ``FooRT +Cache`` -> ``FooRT + Cache``."""
    return _PLUS.sub(" + ", " ".join(name.split()))


@dataclass
class ColumnNames:
    """What a paper's text says of the names its tables' headers may hold: the abbreviations it defines
    (lower case and unspaced, to what they stand for), and the names it reads as systems' of any source
    (lower case)."""

    defined: dict[str, str]
    candidates: set[str]
    own: list[str]

    @classmethod
    def of(cls, text: str, mentions: Sequence[Mention], own: Sequence[str]) -> ColumnNames:
        defined = defined_abbreviations(text) if CELL_SEP in text else {}
        return cls(defined, {m.name.lower() for m in mentions if m.type == "system"}, list(own))

    def system(self, head: str, names: Callable[[str], object], caption: str, header: Sequence[str]) -> str | None:
        """The system a header path names at one of its levels, the sub-column's first: an abbreviation the
        text defines (spelled out), a level written as a system (``names``: whether a name is one the paper
        names or compares with) where another column is the paper's own system, one whose name or a part of
        it the caption lists and the text reads as a system's (``of FooRT and HexaServe`` over ``FooRT +Cache``), or names joined with ``+`` of which one is
        read as a system's; None for a header of one level or none that names a system (the caller reads
        those as it always did)."""
        levels = [level.strip() for level in head.split(GROUP_SEP)]
        if len(levels) < 2:
            return None
        for level in reversed(levels):
            name = joined(level)
            if not level or not re.match(r"[A-Za-z]", name):
                continue
            if _key(name) in self.defined:
                return self.defined[_key(name)]
            parts = name.split(" + ")
            if any(self._listed(part, caption) for part in parts) or (names(name) and self._own_in(header)):
                return name
            if len(parts) > 1 and any(part.lower() in self.candidates for part in parts):
                return name
        return None

    def expanded(self, name: str) -> str:
        """A name, its abbreviation spelled out where the text defines it; a header of a defined abbreviation
        and another part (``FR-AG``: the system and the operation it ran) is the first part's."""
        whole = self.defined.get(_key(name))
        if whole:
            return whole
        parts = re.split(r"[-/]", name)
        if len(parts) == 2 and all(_key(p) in self.defined for p in parts):
            return self.defined[_key(parts[0])]
        return name

    def _listed(self, name: str, caption: str) -> bool:
        return name.lower() in self.candidates and _written(name, caption)

    def _own_in(self, header: Sequence[str]) -> bool:
        """Whether a level of a header cell is the paper's own system: the columns are systems. A header that
        names the system's settings (``FooSys Config``: the layout it chose for each row) is no result's."""
        return any(
            _written(own, level) and not _SETTINGS_OF.search(level)
            for h in header
            for level in h.split(GROUP_SEP)
            for own in self.own
        )


def _written(name: str, text: str) -> bool:
    return bool(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I))
