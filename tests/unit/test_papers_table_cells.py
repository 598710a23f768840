"""A table a PDF reader flattened one cell a line: a settings table's cells ("81% top1 acc." under
"Validation") are no claims; a results table's ("Overhead with retries" over "0.31%") are, and so is prose
wrapped in short lines around them. Through the whole extraction (``segment_text``, ``extract_knowledge``),
on own-written text in the shape such a reader leaves."""

from __future__ import annotations

import pytest

from assay.dsl import get_operator
from assay.ids import content_id
from assay.operators.papers import segment_text

EXTRACT = get_operator("extract_knowledge")

PROSE = (
    "1 Introduction\n"
    "We present FooSched, a scheduler for deep learning clusters that adapts\n"
    "each job's batch size and allocation as the cluster load changes over time.\n"
    "5 Evaluation\n"
    "In our testbed FooSched reduces the average job completion time by 31%\n"
    "compared to BarSched, the strongest of the baselines we could run here.\n\n"
)
SETTINGS_TABLE = (
    "Task\nDataset\nModel\nImage Classification\nImageNet\nResNet-50\nObject Detection\nVOC\nYOLOv3\n"
    "Optimizer\nLR Scaler\nValidation\nShare\nSGD\nAdaScale\n81% top1 acc.\n3%\nSGD\nAdaScale\n"
    "77% mAP\n7%\nAdam\nSqrt\n91% F1 score\n12%\n\n"
    "Table 1: Models and datasets used in the workload.\n\n"
)
RESULTS_TABLE = (
    "Model\nOverhead without\nOverhead with\nretries\nretries\nResNet-18\n0.82%\n0.31%\nLSTM\n2.44%\n0.58%\n"
    "GPT-2\n1.27%\n0.19%\n\n"
    "Table 2: Time spent on retries.\n"
)


@pytest.fixture(scope="module")
def found() -> set[float]:
    text = PROSE + SETTINGS_TABLE + RESULTS_TABLE
    record = segment_text({"doc_id": content_id(text), "source_uri": "/x.pdf", "text": text})
    out, failures = EXTRACT.bind(parse="none").process([record])
    assert not failures, failures
    return {c["value"] for c in out[0]["claims"] if c["unit"] == "%"}


def test_a_settings_table_flattened_one_cell_a_line_gives_no_claims(found):
    assert not found & {81, 3, 77, 7, 91, 12}


def test_a_results_table_flattened_one_cell_a_line_keeps_its_claims(found):
    assert {0.82, 0.31, 2.44, 0.58, 1.27, 0.19} <= found


def test_prose_in_lines_around_the_tables_keeps_its_claims(found):
    assert 31 in found
