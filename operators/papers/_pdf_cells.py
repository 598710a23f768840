"""A line of a PDF table cut into its cells where PDFium ran several into one.

PDFium cuts a line into runs where the gap is wider than an em (``_pdf._segments``), so cells set closer
come as one run: ``12.3 45.6``, column names ``Sync Lazy``; and two ratio cells closer than a word's
space come as one token, ``1.94×3.29×``. A line of two or more values (a glued run cut at each unit) is
cut into one cell a value, each with its characters' x-extent where the reader gave them (``Segment.edges``)
and its share of the line's width where not, so the table reader puts each in its own column. Cells cut
this way touch; ``_pdf_tables`` keeps touching cut cells in their own columns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class Line(Protocol):
    """A run of text on one line with its box (``_pdf_layout.Line``; PDF coordinates, y grows upwards)."""

    @property
    def left(self) -> float: ...
    @property
    def right(self) -> float: ...
    @property
    def top(self) -> float: ...
    @property
    def bottom(self) -> float: ...
    @property
    def text(self) -> str: ...


#: A run of ratios glued back to back (``1.94×3.29×``): PDFium left no space between two cells.
_GLUED_RUN = re.compile(r"(?:\d+(?:[.,]\d+)*[x×%]){2,}")
_GLUED_ONE = re.compile(r"\d+(?:[.,]\d+)*[x×%]")
_PLAIN = re.compile(r"\d+(?:[.,]\d+)*")
#: A row label that writes its values' unit in brackets at its end (``Energy Saving (%)``, ``Gain (×)``).
UNIT_LABEL = re.compile(r"[(\[]\s*[%x×]\s*[)\]]$")


@dataclass(frozen=True)
class Cell:
    """A piece of a line cut into its cells (``Line``'s shape)."""

    left: float
    right: float
    top: float
    bottom: float
    text: str


def value_lines(text: str) -> list[str]:
    """A line of two or more values, a ratio among them (a row of a table set in the body's font), as one
    value a line, the way that flow sets such a table's cells, with glued runs cut apart (``1.94×3.29×``
    gives ``1.94×`` and ``3.29×``); any other line as it is."""
    parts = _values(text)
    return parts if parts and any(_GLUED_ONE.fullmatch(p) for p in parts) else [text]


def _values(text: str) -> list[str] | None:
    """The cells of a line that holds only values, two or more, a glued run of ratios cut at each unit;
    None for any other line (a name, a value with its unit word, prose)."""
    parts = [
        p for tok in text.split() for p in (_GLUED_ONE.findall(tok) if _GLUED_RUN.fullmatch(tok) else [tok])
    ]
    if len(parts) < 2 or not all(_GLUED_ONE.fullmatch(p) or _PLAIN.fullmatch(p) for p in parts):
        return None
    return parts


def cut_values(block: Sequence[Line]) -> list[Line]:
    """The block's lines, each line that holds two or more values cut into one cell a value: cells set
    closer than an em (``12.3 45.6``) are one run of PDFium's, and ratios may come glued (``1.94×3.29×``)."""
    out: list[Line] = []
    for line in block:
        parts = _values(line.text) or labelled(line.text)
        out += [line] if parts is None else pieces(line, parts)
    return out


def labelled(text: str) -> list[str] | None:
    """A row's label run into its values by PDFium (``Peak memory use 0.62× 0.81×``): the label (words, a
    letter among them) as one cell and each value as its own, when two or more values close the run and
    either a ratio or a share is among them or the label writes their unit in brackets (a transposed
    table's measure, ``Energy Saving (%) 7.2 8.5``); None for any other line."""
    words = text.split()
    k = len(words)
    while k > 0 and _values(f"0 {words[k - 1]}") is not None:  # the word is a value (or a glued run)
        k -= 1
    values = _values(" ".join(words[k:]))
    label = " ".join(words[:k])
    if not values or not re.search(r"[A-Za-z]{2}", label):
        return None
    if not any(_GLUED_ONE.fullmatch(v) for v in values) and not UNIT_LABEL.search(label):
        return None
    return [label, *values]


def pieces(line: Line, parts: Sequence[str]) -> list[Line]:
    """A line cut into the cells of ``parts`` (its text in order; only a label's words spaced), each with its
    characters' x-extent where the reader gave them, else its share of the line's width."""
    segments = sorted(getattr(line, "segments", ()), key=lambda s: s.left)
    known = segments and all(len(getattr(s, "edges", ())) == len(s.text) for s in segments)
    marks = (
        [m for s in segments for ch, m in zip(s.text, s.edges, strict=True) if not ch.isspace()]
        if known
        else []
    )
    sizes = [len(p.replace(" ", "")) for p in parts]  # a label's words keep their spaces
    if len(marks) != sum(sizes):
        step = (line.right - line.left) / max(1, len(" ".join(parts)))
        start, marks = line.left, []
        for p in parts:
            marks += [(start + k * step, start + (k + 1) * step) for k in range(len(p))]
            start += (len(p) + 1) * step
    out: list[Line] = []
    k = 0
    for p, n in zip(parts, sizes, strict=True):
        out.append(Cell(marks[k][0], marks[k + n - 1][1], line.top, line.bottom, p))
        k += n
    return out
