"""Table cells placed by the table's layout (``_table_compare``), through the whole extraction path of a Markdown
post about an invented system, and the deciding functions directly."""

from __future__ import annotations

from papers_extract import file_claims

from assay.operators.papers._table_compare import change_pair, compared
from assay.operators.papers._table_units import SETTING_CELL

POST = (
    "# Quill: paged checkpoint writes\n\n"
    "Quill writes checkpoints in pages while the next step runs.\n\n"
    "Table 2: Step time (ms) across batch sizes\n\n"
    "| Batch | Eager step (ms) | Quill step (ms) | Gain |\n"
    "| --- | --- | --- | --- |\n"
    "| 2 | 10.00 | 8.00 | **+20.0%** |\n"
    "| 8 | 40.00 | 30.00 | +25.0% |\n\n"
    "Table 3: Write stall (ms) by shard layout\n\n"
    "| Shard layout | Paged (ms) | Flat (ms) | Paged vs flat |\n"
    "| --- | --- | --- | --- |\n"
    "| 16×0.5K | 0.020 | 0.020 | 1.00× |\n"
    "| 4×8K + 12×1K | 0.030 | 0.066 | 2.20× |\n"
)


def _by_value(folder):
    return {c["value"]: c for c in file_claims(folder, POST, "post.md")}


def test_a_change_column_is_the_later_figure_against_the_earlier(tmp_path):
    claims = _by_value(tmp_path)
    assert claims[25.0]["subject"] == "Quill" and claims[25.0]["versus"] == "Eager"
    # a signed change under a bold mark is a cell's ratio too
    assert claims[20.0]["subject"] == "Quill"


def test_a_comparing_header_names_subject_and_baseline_row_by_row(tmp_path):
    claims = _by_value(tmp_path)
    # a quotient of the row's figures, in rows of shapes, under "A vs B": still the table's comparison
    assert claims[2.2]["subject"] == "Paged" and claims[2.2]["versus"] == "flat"


def test_compared_reads_both_sides_and_refuses_a_measure():
    assert compared("Paged vs flat") == ("Paged", "flat")
    assert compared("Speedup vs flat") is None
    assert compared("Gain") is None


def test_change_pair_needs_the_arithmetic():
    header = ["Batch", "Eager step (ms)", "Quill step (ms)", "Gain"]
    assert change_pair(header, ["2", "10.00", "8.00", "+20.0%"], 3) == ("Quill", "Eager")
    assert change_pair(header, ["2", "10.00", "8.00", "+35.0%"], 3) is None


def test_a_mix_of_shapes_is_a_setting():
    assert SETTING_CELL.fullmatch("4×8K + 12×1K")
    assert SETTING_CELL.fullmatch("16×0.5K")
