"""A table's header row names its columns even where a label opens with a number (``2QX``, a system named by
its number, two capitals after it) or holds a figure in brackets (``Plain (90%)``), and a cell that says a
figure is not there (``N/A``) names no baseline for its row. Papers written for the test."""

from __future__ import annotations

from papers_extract import extracted_claims

_PAPER = (
    "Relay-2QX: Pipelines with Two Weight Versions\n\nAbstract\nWe present 2QX, a weight-update scheme for "
    "pipeline-parallel training that keeps two versions of each weight and trains 1.9x faster than GPipe.\n\n"
    "Evaluation\nModels trained with 2QX reach the accuracy of plain updates (Table 2).\n\n"
    "Task | Metric | Plain | Plain (90%) | 2QX\n"
    "Parsing | Overall Acc. | 81.25% | N/A | 81.40%\n"
    "Tagging | Overall Acc. | 92.10% | 91.35% | 92.05%\n\n"
    "Table 2. Comparison of models trained with plain updates and with 2QX on two tasks.\n"
)


def _cells() -> dict[float, dict]:
    return {c["value"]: c for c in extracted_claims(_PAPER, source_uri="/x.md") if c["unit"] == "%"}


def test_a_label_opening_with_its_number_leaves_the_header_a_header():
    cells = _cells()
    assert cells[81.25]["subject"] == "Plain"
    assert cells[92.1]["subject"] == "Plain"
    assert cells[91.35]["subject"] == "Plain (90%)"
    assert cells[81.4]["subject"] == "2QX"


def test_a_figure_not_there_names_no_baseline():
    assert _cells()[81.25]["versus"] is None


def test_a_header_bracket_is_no_claim():
    assert 90.0 not in _cells()
