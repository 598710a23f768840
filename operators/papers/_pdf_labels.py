"""A PDF table's row label set over several columns: a model, its parallelism, a batch and a length each in a
column of its own (``Mistral 7B | TP4 | 16 | 2K``), left of the groups' titles over the results. Read one
column at a time, ``16`` and ``2K`` would be values and the row would have no name; here the label columns
(``_pdf_tables`` says how many: those left of the first group) are one label, its parts that are set once
beside their sub-rows taken from the nearest row that has them."""

from __future__ import annotations

import re
from collections.abc import Sequence

# A figure, not a label's part: a decimal, a share or a multiple ("21.8", "68%", "1.3x"); a size or a count
# ("7B", "16", "4K", "TP4") is a label's.
_FIGURE = re.compile(r"^[~≈<>±+-]?\d*\.\d+(?![BMKT]\b)|\d\s*[%x×](?!\w)")
# A header that writes a unit or a measure names a column of results, not a label's part.
_MEASURED = re.compile(
    r"[%(\[]|\b(?:speed-?up|time|throughput|latency|accuracy|memory|energy|cost|reduction|improvement|gain|"
    r"overhead|ratio|score|loss|rate|tflops?|flops)\b",
    re.I,
)


def label_columns(grid: Sequence[Sequence[str]], header: Sequence[str], lead: int) -> bool:
    """Whether the ``lead`` columns left of the groups' titles all hold a label's parts: no header among them
    writes a unit or a measure, and no cell past the first column holds a figure (a decimal, a share, a
    multiple). Else some of them are results, each read in its own column."""
    if any(_MEASURED.search(h) for h in header[1:lead]):
        return False
    return not any(_FIGURE.search(row[j].strip()) for row in grid for j in range(1, min(lead, len(row))))


def one_label(grid: Sequence[Sequence[str]], lead: int, centres: Sequence[float]) -> list[list[str]]:
    """The rows with their first ``lead`` cells (the columns left of the groups' titles: a model, its
    parallelism, a batch, a length; ``3B | TP8 | 8 4K``) joined into one label. The parts set once beside
    their sub-rows (cells of columns some rows leave empty) are taken, all together, from the nearest row
    that has any."""
    sparse = [j for j in range(lead) if any(not row[j] for row in grid)]
    out: list[list[str]] = []
    for i, row in enumerate(grid):
        cells = list(row[:lead])
        if sparse and not any(cells[j] for j in sparse) and any(ch.isdigit() for ch in " ".join(row[lead:])):
            near = [
                (abs(centres[k] - centres[i]), k) for k in range(len(grid)) if any(grid[k][j] for j in sparse)
            ]
            if near:
                k = min(near)[1]
                for j in sparse:
                    cells[j] = grid[k][j]
        out.append([" ".join(c for c in cells if c), *row[lead:]])
    return out
