"""A table set across both columns of a two-column page whose caption stands further above it than its rows
stand apart (conference templates leave space under a table's caption): still one table, every cell read, not
its left half with the left column's prose and its right half with the right column's."""

from __future__ import annotations

from test_papers_pdf_tables_round13 import _HEADER, _ROWS, _claims


def _table(caption_y: float) -> list[tuple[float, float, str]]:
    cells = [(54, caption_y, "Table 1: Speedup (%) and memory cut (%) of FooRT and HexaServe relative to BaseRT.")]
    cells += list(_HEADER)
    for y, label, values in _ROWS:
        cells += [(60, y, label[0]), (112, y, label[1]), (160, y, label[2]), (190, y, label[3])]
        cells += [(x, y, v) for x, v in zip((252, 310, 392, 452), values, strict=True)]
    return cells


def test_a_table_two_rows_below_its_caption_gives_every_cell(tmp_path):
    found = {c["value"] for c in _claims(tmp_path, _table(646)) if c["unit"] == "%"}
    assert {3.1, 12.4, 5.0, 18.2, 2.2, 9.8, 4.1, 15.7, 1.4, 7.5, 2.6, 11.9} <= found
