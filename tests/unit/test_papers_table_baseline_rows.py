"""A table's row labelled as the baseline holds the baseline's own figure, not the paper's system's, through the
whole extraction path; rows naming nothing keep the paper's system."""

from __future__ import annotations

from papers_extract import claims_in_order

PAPER = (
    "Tern: fast offloaded training\n\nTern trains large models on one GPU by paging optimizer state.\n\n"
    "Table 3: Speedup over a single GPU without offloading.\n"
    "Variant | Speedup (x)\nBaseline offloading | 1.4x\nPaged optimizer | 2.6x\n"
)


def test_a_baseline_row_is_the_baselines_own():
    by_value = {c["value"]: c for c in claims_in_order(PAPER)}
    assert by_value[1.4]["subject"] == "Baseline offloading"


def test_a_row_of_a_variant_stays_the_papers():
    by_value = {c["value"]: c for c in claims_in_order(PAPER)}
    assert by_value[2.6]["subject"] == "Tern"
