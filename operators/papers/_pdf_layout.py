"""A PDF page's text segments put back in reading order, as a person reads a conference paper.

The input is what PDFium's text page gives (``pypdfium2``): segments, each a run of text on one line with its
box and font size, spaces already placed by PDFium from the glyph positions (so tightly kerned, justified
lines keep their word breaks; see docs/papers.md for the measurement that chose it). This module only
arranges them:

- segments on one baseline join into lines (the columns of a two-column page and their reading order are
  ``_pdf_columns``');
- running headers and footers (the same line at the page's edge on many pages) are dropped;
- text that is not body text (smaller than the body font: figure labels, table cells, footnotes; and
  captions, "Figure 3: ..." with the lines that continue them, side by side ones too) is set apart as its
  own paragraphs, each with its place (``_pdf_asides`` sets them in the text), and still read for claims;
- a word hyphenated at a line end is joined (a compound keeps its hyphen), and a range broken after its
  dash (``15–`` / ``40%``) is joined whole (``_pdf_joins``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from assay.operators.papers._pdf_cells import labelled, value_lines
from assay.operators.papers._pdf_tables import body_grids, table_lines


@dataclass
class Segment:
    """A run of text on one line of a page (PDF coordinates: y grows upwards)."""

    left: float
    bottom: float
    right: float
    top: float
    text: str
    size: float
    #: The largest character's size (a small-caps heading has capitals of the body's size).
    largest: float = 0.0
    #: Each character's x-extent (left, right), where the reader gave them (a table's glued cells are cut
    #: at them).
    edges: tuple[tuple[float, float], ...] = ()


@dataclass
class Line:
    segments: list[Segment] = field(default_factory=list)

    @property
    def left(self) -> float:
        return min(s.left for s in self.segments)

    @property
    def right(self) -> float:
        return max(s.right for s in self.segments)

    @property
    def top(self) -> float:
        return max(s.top for s in self.segments)

    @property
    def bottom(self) -> float:
        return min(s.bottom for s in self.segments)

    @property
    def size(self) -> float:
        """The font size of most of the line's characters."""
        weights: Counter[float] = Counter()
        for s in self.segments:
            weights[round(s.size, 1)] += len(s.text.strip())
        return weights.most_common(1)[0][0] if weights else 0.0

    @property
    def largest(self) -> float:
        return max(max(s.largest, s.size) for s in self.segments)

    @property
    def text(self) -> str:
        out = ""
        previous: Segment | None = None
        for s in sorted(self.segments, key=lambda s: s.left):
            piece = s.text
            if previous is not None and out and not out.endswith(" ") and not piece.startswith(" "):
                gap = s.left - previous.right
                if gap > _WORD_GAP * max(s.size, previous.size, 1.0):
                    out += " "
            out += piece
            previous = s
        return " ".join(out.split())


#: A gap wider than this share of the font size between two segments of a line is a word break.
_WORD_GAP = 0.15
#: Two segments are on one line when their boxes overlap by this share of the smaller height ...
_SAME_LINE_OVERLAP = 0.5
#: ... and the gap between them is under this many font sizes (a column gutter is wider).
SAME_LINE_GAP = 1.0
#: Lines this much smaller than the body font are set apart (figure labels, table cells, footnotes).
_SMALL = 0.95
#: A small line at least this share of the body lines' width is prose (an abstract, a footnote).
_PROSE_WIDTH = 0.75
#: Running headers and footers lie within this share of the page height from its edge.
_EDGE = 0.08
#: A caption's start ("Figure 3:", "Table 1 -"), or an IEEE table's number alone on its line ("TABLE III",
#: its title below it in small caps).
_IEEE_TABLE = r"|(?-i:TABLE\s+[IVXL]+\s*$)"
_CAPTION = re.compile(
    r"^(?:(?:Figure|Fig\.|Table|Tab\.|Algorithm|Listing)\s*\d+[a-z]?\s*[:.|–—-]" + _IEEE_TABLE + ")", re.I
)
TABLE_CAPTION = re.compile(r"^(?:(?:Table|Tab\.)\s*\d+" + _IEEE_TABLE + ")", re.I)
SENTENCE_END = re.compile(r"[.!?:。！？]['\")\]]?$")
_LIGATURES = str.maketrans(
    {
        "ﬀ": "ff",
        "ﬁ": "fi",
        "ﬂ": "fl",
        "ﬃ": "ffi",
        "ﬄ": "ffl",
        "ﬅ": "st",
        "ﬆ": "st",
        "\u00a0": " ",
        "\ufffe": "\x02",
    }
)
_CONTROL = re.compile(r"[\x00-\x01\x03-\x08\x0b-\x1f\uffff]")


def clean(text: str) -> str:
    """Ligatures spelled out; control characters PDF text carries dropped, except PDFium's marks of a
    hyphen at a line end (U+0002, U+FFFE), which ``join_lines`` reads."""
    return _CONTROL.sub("", text.translate(_LIGATURES))


# -- lines ------------------------------------------------------------------------------------------------
def lines_of(segments: Iterable[Segment]) -> list[Line]:
    """Segments joined into lines: same height band, close together, top to bottom then left to right.

    A segment is set against the tallest of the row's segments next to it (a formula's base for its
    subscript), or the nearest one when none is: a tall figure label in the other column, overlapping two
    rows of a small table, would otherwise join the two rows into one."""
    rows: list[list[Segment]] = []
    for seg in sorted(segments, key=lambda s: (-(s.top + s.bottom) / 2, s.left)):
        for row in reversed(rows[-4:]):
            near = [s for s in row if _gap(s, seg) <= SAME_LINE_GAP * max(s.size, seg.size, 1.0)]
            ref = max(near, key=lambda s: s.top - s.bottom) if near else min(row, key=lambda s: _gap(s, seg))
            overlap = min(ref.top, seg.top) - max(ref.bottom, seg.bottom)
            if overlap >= _SAME_LINE_OVERLAP * min(ref.top - ref.bottom, seg.top - seg.bottom, 1e9):
                row.append(seg)
                break
        else:
            rows.append([seg])
    lines: list[Line] = []
    for row in rows:
        row.sort(key=lambda s: s.left)
        current = Line([row[0]])
        for seg in row[1:]:
            size = max(seg.size, current.segments[-1].size, 1.0)
            if seg.left - current.right > SAME_LINE_GAP * size:
                lines.append(current)
                current = Line([seg])
            else:
                current.segments.append(seg)
        lines.append(current)
    return [line for line in lines if line.text]


def _gap(a: Segment, b: Segment) -> float:
    """The horizontal distance between two segments (0 when they overlap across the page)."""
    return max(0.0, a.left - b.right, b.left - a.right)


# -- body, asides, running heads --------------------------------------------------------------------------
def body_size(pages: Sequence[Sequence[Line]]) -> float:
    """The font size of most characters of the document: the body text's."""
    weights: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            weights[line.size] += len(line.text)
    return weights.most_common(1)[0][0] if weights else 0.0


def running_heads(pages: Sequence[Sequence[Line]], heights: Sequence[float]) -> set[str]:
    """Texts (digits left out) of lines at a page's top or bottom edge that recur on several pages."""
    seen: Counter[str] = Counter()
    for lines, height in zip(pages, heights, strict=True):
        keys = {_head_key(ln) for ln in lines if ln.top > height * (1 - _EDGE) or ln.bottom < height * _EDGE}
        seen.update(k for k in keys if k)
    need = max(3, len(pages) // 3)
    return {k for k, n in seen.items() if n >= need}


def _head_key(line: Line) -> str:
    return re.sub(r"\d+", "#", line.text).strip().lower()


def page_parts(
    lines: Sequence[Line], body: float, heads: set[str], height: float
) -> tuple[list[str], list[tuple[int, str]]]:
    """A page's body lines in reading order, and its asides (captions, figure and table text) as
    paragraphs, each with its place: the number of body lines read before it."""
    lines = [
        ln
        for ln in lines
        if not ((ln.top > height * (1 - _EDGE) or ln.bottom < height * _EDGE) and _head_key(ln) in heads)
    ]
    measure = _measure(lines, body)
    body_lines: list[str] = []
    asides: list[list[Line]] = []
    places: list[int] = []
    previous_aside = False
    prose: Line | None = None  # the small full-width prose line just read into the flow (an abstract's)
    grids = _body_grids(lines, body, measure)
    chains = _caption_chains(lines)
    continued = {j for chain in chains.values() for j in chain}
    for i, line in enumerate(lines):
        if i in continued:
            continue  # a caption's line, read with its caption
        if i in grids:  # a table set in the body's font: read by position as the smaller ones are
            if i - 1 in grids:
                asides[-1].append(line)
            else:
                asides.append([line])
                places.append(len(body_lines))
            previous_aside, prose = False, None
            continue
        if _CAPTION.match(line.text):
            prose = None
            asides.append([line, *(lines[j] for j in chains[i])])
            places.append(len(body_lines))
            previous_aside = False
            continue
        # smaller than the body and shorter than its lines: a figure's label, a table's cell (a smaller
        # paragraph set full width, such as an abstract or a footnote, is prose and stays in the flow, and
        # so does its short last line, and a small-caps heading, whose capitals have the body's size)
        small = bool(body) and line.largest < _SMALL * body
        if small and line.right - line.left < _PROSE_WIDTH * measure and not _ends_paragraph(prose, line):
            if previous_aside and asides:
                asides[-1].append(line)
            else:
                asides.append([line])
                places.append(len(body_lines))
            previous_aside = True
            continue
        previous_aside = False
        prose = line if small and line.right - line.left >= _PROSE_WIDTH * measure else None
        body_lines += value_lines(line.text)  # a table's row of values set in the body's font
    return body_lines, [(place, _rows(block)) for place, block in zip(places, asides, strict=True)]


def _caption_chains(lines: Sequence[Line]) -> dict[int, list[int]]:
    """Each caption's start (by place) and the places of the lines that go on with it (``_continues``): the
    next line down in its column, which may come many lines later in reading order where two or three captions
    stand side by side under a row of figures (``Figure 14: ...``, ``Figure 15: ...`` on one baseline, the
    figures' labels read between them)."""
    chains: dict[int, list[int]] = {}
    taken: set[int] = set()
    for i, line in enumerate(lines):
        if i in taken or not _CAPTION.match(line.text):
            continue
        chain, last = [], line
        at = i + 1
        while at < len(lines):
            # the next line read, as before; a line further on only where it lines up with the caption's last
            # line (its left edge or its centre), as a caption's own lines do and a table's cells below it need not
            nxt = next((j for j in range(at, len(lines)) if j not in taken and not _CAPTION.match(lines[j].text)
                        and _continues(last, lines[j]) and (j == at or _lines_up(last, lines[j]))), None)
            if nxt is None:
                break
            chain.append(nxt)
            taken.add(nxt)
            last, at = lines[nxt], nxt + 1
        chains[i] = chain
    return chains


def _lines_up(above: Line, line: Line) -> bool:
    """Whether ``line`` starts where ``above`` starts, or is centred where it is, within one font size."""
    size = max(above.size, 1.0)
    return abs(line.left - above.left) <= size or abs(line.left + line.right - above.left - above.right) <= 2 * size


def _body_grids(lines: Sequence[Line], body: float, measure: float) -> set[int]:
    """The places of the lines of tables set in the body's font (``_pdf_tables.body_grids``): short lines
    of the body's size right below or above a table's caption (with the lines that continue it)."""
    captions = [[i, i] for i, line in enumerate(lines) if TABLE_CAPTION.match(line.text)]
    for span in captions:
        while span[1] + 1 < len(lines) and _continues(lines[span[1]], lines[span[1] + 1]):
            span[1] += 1
    width = _PROSE_WIDTH * measure
    return body_grids(
        lines,
        captions,
        lambda ln: (
            not _CAPTION.match(ln.text)
            and (ln.right - ln.left < width or _names(ln.text) or labelled(ln.text) is not None)
            and ln.largest >= _SMALL * body
        ),
    )


#: A unit in brackets as a header writes it (``(%)``, ``(x)``).
_UNIT_HEADS = re.compile(r"[(\[]\s*[%x×]\s*[)\]]")


def _names(text: str) -> bool:
    """A full-width table's header line wider than a column: a few capitalised names side by side
    (``FooRT HexaServe FooRT HexaServe``), no prose."""
    words = text.split()
    if len(_UNIT_HEADS.findall(text)) >= 2 and len(words) <= 10 and not text.rstrip().endswith((".", ":", ";")):
        return True  # measures side by side, each with its unit ("Time Cut (%) Energy Cut (%)"): no prose
    return 2 <= len(words) <= 8 and all(w[0].isupper() or w[0] in "+#(" for w in words)


def _rows(block: Sequence[Line]) -> str:
    """An aside's lines as text: a table's rows as ``a | b | c`` with its header row first, the cells put
    in their grid by position (``_pdf_tables``), so each cell keeps its row and column; any other aside
    (a figure's labels, a legend) one line a line."""
    rows = table_lines(block)
    return "\n".join(rows if rows else [line.text for line in block])


#: A body-size line of this many words is a line of prose; a page with this many of them is measured by them.
_PROSE_WORDS = 5
_MIN_PROSE = 5


def _measure(lines: Sequence[Line], body: float) -> float:
    """The width of the page's body-text lines (their median): a column's or the page's measure."""
    body_lines = [ln for ln in lines if abs(ln.size - body) <= 0.05 * body]
    # a page of tables set in the body's font has more cells than lines of prose: the prose lines measure it
    prose = [ln for ln in body_lines if len(ln.text.split()) >= _PROSE_WORDS]
    widths = sorted(ln.right - ln.left for ln in (prose if len(prose) >= _MIN_PROSE else body_lines))
    return widths[len(widths) // 2] if widths else float("inf")


def _ends_paragraph(prose: Line | None, line: Line) -> bool:
    """Whether ``line`` is the short last line of the small prose paragraph whose line ``prose`` is: right
    below it, of its size, at its left edge (or left of it, below a first line set in by its indent)."""
    if prose is None or not _continues(prose, line):
        return False
    return prose.left - 2 * line.size <= line.left <= prose.left + 0.5 * line.size


def _continues(caption: Line, line: Line) -> bool:
    """Whether ``line`` goes on with the caption above it: the next line down, as close as a caption's
    lines are, and of its size, in its column."""
    height = caption.top - caption.bottom
    gap = caption.bottom - line.top
    # (or its capitals' size: an IEEE caption's title in small caps under "TABLE III")
    tolerance = 0.06 * max(caption.size, 1.0)
    same_size = min(abs(line.size - caption.size), abs(line.largest - caption.largest)) <= tolerance
    overlaps = min(caption.right, line.right) - max(caption.left, line.left) > 0
    return same_size and overlaps and -0.2 * height <= gap <= 0.8 * max(height, caption.size)
