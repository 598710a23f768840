"""A PDF table's header put over its columns: which header cells are groups' titles, which columns each
reaches, and the names PDFium ran into one line, cut where they stand apart (``_pdf_tables`` reads the grid;
this module says where each header word goes). Geometry is in PDF points on the cells' x-extents
(``_pdf_cells``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from assay.operators.papers._pdf_cells import Cell, Line, pieces

#: Cells' boxes that overlap by no more than this (points) only touch.
TOUCH = 0.5
#: A unit in parentheses after a header's name (``Reduction (%)``): part of the name, however far it stands.
UNIT_WORD = re.compile(r"^\((?:%|x|×|ms|s|GB|MB)\)$")


def split_names(cell: Line, columns: Sequence[tuple[float, float]]) -> list[tuple[int, str]]:
    """A header cell over several columns that is no group's title: the column names PDFium ran into one
    line (``Sync Lazy``), each word given to the column it stands over; one name over them all where its
    words do not fall one or more to each column."""
    over = spanned(cell, columns)
    words = cell.text.split()
    if len(over) < 2 or len(words) < len(over):
        return [(j, cell.text) for j in over]
    placed: dict[int, list[str]] = {}
    for piece in pieces(cell, words):
        placed.setdefault(column_of(piece, columns), []).append(piece.text)
    if sorted(placed) != over:
        return [(j, cell.text) for j in over]
    return [(j, " ".join(placed[j])) for j in over]


def split_titles(
    row: Sequence[Line], below: Sequence[Line], columns: Sequence[tuple[float, float]]
) -> list[Line]:
    """A header line PDFium ran over two or more cells of the header line right below it (``Iso-Time Energy
    Iso-Energy Time`` over ``Reduction (%)`` twice): cut into one title a cell below, each word going to the
    cell below nearest its middle, when every such cell gets a run of words of its own and the cells below
    are titles over two or more columns each (two groups' titles, broken over two lines). Any other line as it is."""
    out: list[Line] = []
    for cell in row:
        under = sorted(
            (c for c in below if overlap(c, (cell.left, cell.right)) > 0),
            key=lambda c: c.left,
        )
        words = cell.text.split()
        if len(under) < 2 or len(words) < len(under) or any(len(spanned(c, columns)) < 2 for c in under):
            out.append(cell)
            continue
        placed = pieces(cell, words)
        homes = [
            min(
                range(len(under)),
                key=lambda u: abs((p.left + p.right) / 2 - (under[u].left + under[u].right) / 2),
            )
            for p in placed
        ]
        if homes != sorted(homes) or set(homes) != set(range(len(under))):
            out.append(cell)
            continue
        for u in range(len(under)):
            part = [p for p, h in zip(placed, homes, strict=True) if h == u]
            out.append(
                Cell(part[0].left, part[-1].right, cell.top, cell.bottom, " ".join(p.text for p in part))
            )
    return out


def _runs(cell: Line, words: list[str]) -> list[list[Line]]:
    """A header line's words in runs, cut where two words stand further apart than half the line's height (a
    title's words are a space apart); a unit set apart from its word (``(%)``) stays with it."""
    placed = pieces(cell, words)
    wide = 0.5 * (cell.top - cell.bottom)
    runs: list[list[Line]] = [[placed[0]]]
    for before, piece in zip(placed, placed[1:], strict=False):
        if piece.left - before.right > wide and not UNIT_WORD.match(piece.text):
            runs.append([piece])
        else:
            runs[-1].append(piece)
    return runs


def run_together(cell: Line, columns: Sequence[tuple[float, float]]) -> list[tuple[int, str]] | None:
    """The names of two or more columns that PDFium ran into one header line, told apart from a group's
    title by the gap between them: wider than half the line's height (a title's words are a space apart),
    each name's words over one column of its own; None otherwise (or where the words' places are unknown)."""
    words = cell.text.split()
    if len(words) < 2:
        return None
    runs = _runs(cell, words)
    if len(runs) < 2:
        return None
    homes = [{column_of(p, columns) for p in run} for run in runs]
    if any(len(h) != 1 for h in homes) or len({min(h) for h in homes}) != len(runs):
        return None
    return [(min(h), " ".join(p.text for p in run)) for h, run in zip(homes, runs, strict=True)]


def run_titles(cell: Line, columns: Sequence[tuple[float, float]]) -> list[tuple[list[int], str]] | None:
    """A header line PDFium ran from a label column's name and groups' titles (``# Batches Speedup (%)
    Memory Cut (%)`` over a label column and two pairs of sub-columns): cut where its words stand further
    apart than a title's words, each run with the columns it stands over (each run's, one after another,
    none shared); None where it does not so cut (one name, or runs whose columns overlap or leave none)."""
    words = cell.text.split()
    if len(words) < 3:
        return None
    runs = _runs(cell, words)
    if len(runs) < 2:
        return None
    spans = [spanned(Cell(run[0].left, run[-1].right, cell.top, cell.bottom, ""), columns) for run in runs]
    flat = [j for span in spans for j in span]
    if flat != sorted(set(flat)) or all(len(span) == 1 for span in spans):
        return None
    return [(span, " ".join(p.text for p in run)) for span, run in zip(spans, runs, strict=True)]


def overlap(cell: Line, span: tuple[float, float]) -> float:
    return min(cell.right, span[1]) - max(cell.left, span[0])


def column_of(cell: Line, columns: Sequence[tuple[float, float]]) -> int:
    centre = (cell.left + cell.right) / 2
    return max(
        range(len(columns)),
        key=lambda j: (overlap(cell, columns[j]), -abs(centre - (columns[j][0] + columns[j][1]) / 2)),
    )


def spanned(cell: Line, columns: Sequence[tuple[float, float]]) -> list[int]:
    """The columns a header cell stands over: those whose middle it covers, else the one it overlaps most."""
    over = [j for j, (a, b) in enumerate(columns) if cell.left <= (a + b) / 2 <= cell.right]
    return over or [column_of(cell, columns)]


def groups(cell: Line, lower: Sequence[Line], columns: Sequence[tuple[float, float]]) -> bool:
    """Whether a header cell is a group's title: it stands over header cells of two or more columns
    below it (``Speedup over X`` above ``Stats. | Sys. | Overall``, on one line or one a line); a stacked
    line of one column's header (``Greedy`` above ``Packing``) stands over one."""
    under = {column_of(c, columns) for c in lower if min(cell.right, c.right) - max(cell.left, c.left) > 0}
    return len(under) >= 2


def reach(
    row: Sequence[Line], i: int, columns: Sequence[tuple[float, float]], below: Sequence[Line]
) -> list[int]:
    """The columns a group's title stands over. A title is centred over its group and often narrower than
    it, so it reaches halfway to the next title on either side, and as far on its other side (mirrored
    about its centre) where it has no neighbour; a lone title reaches as far on either side as the far
    edge of the sub-headers it overlaps."""
    cell = row[i]
    centre = (cell.left + cell.right) / 2
    left = (row[i - 1].right + cell.left) / 2 if i > 0 else None
    right = (cell.right + row[i + 1].left) / 2 if i + 1 < len(row) else None
    # a neighbour that is one column's own header (``TFLOP/s`` beside ``Energy Reduction (%)``) is no title:
    # the group reaches up to its column
    if left is not None and not groups(row[i - 1], below, columns):
        left = max(b for a, b in columns[: column_of(row[i - 1], columns) + 1]) + TOUCH
    if right is not None and not groups(row[i + 1], below, columns):
        right = min(a for a, b in columns[column_of(row[i + 1], columns) :]) - TOUCH
    if left is None and right is None:
        under = [c for c in below if min(cell.right, c.right) - max(cell.left, c.left) > 0]
        half = max(max(centre - c.left, c.right - centre) for c in under)
        left, right = centre - half, centre + half
    elif left is None:
        left = min(cell.left, 2 * centre - right)
    elif right is None:
        right = max(cell.right, 2 * centre - left)
    return [j for j, (a, b) in enumerate(columns) if left <= (a + b) / 2 <= right]
