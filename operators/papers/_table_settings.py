"""A table column that holds the setting its rows were measured at, not results: a budget or a sparsity swept
over the same few shares for every method or model (``Exact TopK | 50% | 5.12``, ``H2O | 50% | 5.14``, then
each at ``25%``). Read from the column's values across rows, not from its header's words: each share repeated
over rows is what the rows were set to; a result differs from row to row."""

from __future__ import annotations

import re
from collections import Counter

from assay.operators.papers._table_read import Table

#: A cell holding only a share (``50%``, ``12.5 %``), or an empty mark of one (``-``, ``–``, ``n/a``).
_SHARE = re.compile(r"^\s*\d+(?:\.\d+)?\s*%\s*$")
_EMPTY = re.compile(r"^\s*(?:-|–|—|n/?a|)\s*$", re.I)


def swept_setting(table: Table, column: int) -> bool:
    """Whether ``column`` of ``table`` is a setting swept over a few shares: every body cell a share or empty,
    two or more shares, and each share given to two or more rows."""
    rows: Counter[str] = Counter()
    for row in table.rows:
        if column >= len(row):
            continue
        cell = row[column]
        if _EMPTY.match(cell):
            continue
        if not _SHARE.match(cell):
            return False
        rows[cell.replace(" ", "")] += 1
    return len(rows) >= 2 and all(n >= 2 for n in rows.values())
