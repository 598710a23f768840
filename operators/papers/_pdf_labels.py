"""A PDF table's row label set over several columns: a model, its parallelism, a batch and a length each in a
column of its own (``Mistral 7B | TP4 | 16 | 2K``), left of the groups' titles over the results. Read one
column at a time, ``16`` and ``2K`` would be values and the row would have no name; here the label columns
(``_pdf_tables`` says how many: those left of the first group) are one label, its parts that are set once
beside their sub-rows taken from the nearest row that has them."""

from __future__ import annotations

from collections.abc import Sequence


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
