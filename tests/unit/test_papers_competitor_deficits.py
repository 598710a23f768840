"""A share of an ideal is measured against the ideal as the text names it (gold conventions D1); a competitor's
slowdown or deficit is the competitor's claim (operators/papers/_competitor_deficits.py). Own-worded papers
through segment_text -> extract_knowledge."""

from __future__ import annotations

import pytest

from assay.dsl import get_operator
from assay.ids import content_id
from assay.operators.papers import segment_text

EXTRACT = get_operator("extract_knowledge")
OPENING = (
    "FooSched: Fast Scheduling for Shared GPU Clusters\n\nWe present FooSched, a scheduler for training jobs. "
    "We compare FooSched against BarPipe, and BarPipe is the strongest baseline.\n\n"
)


@pytest.fixture(scope="module")
def rules():
    return EXTRACT.bind(parse="none")


def results(bound, sentence: str) -> list[dict]:
    text = OPENING + sentence + "\n"
    record = segment_text({"doc_id": content_id(text), "source_uri": "/x.txt", "text": text})
    out, failures = bound.process([record])
    assert not failures, failures
    return sorted((c for c in out[0]["claims"] if c["start"] >= len(OPENING)), key=lambda c: c["start"])


@pytest.mark.parametrize(
    ("sentence", "ideal"),
    [
        ("FooSched runs within 6% of the optimum on every trace.", "optimum"),
        ("FooSched's makespan is within 6% of the optimal schedule.", "optimal schedule"),
        ("On 64 GPUs, FooSched reaches 91% of the ideal throughput.", "ideal throughput"),
        ("The placement FooSched picks reaches 73% of optimal makespan.", "optimal makespan"),
        ("FooSched reaches 64% of its theoretical potential.", "theoretical potential"),
        ("FooSched and BarPipe reach 72% throughput of the performance-optimal.", "performance-optimal"),
    ],
)
def test_a_share_of_an_ideal_is_measured_against_the_ideal_as_named(rules, sentence, ideal):
    found = results(rules, sentence)
    assert [c["unit"] for c in found] == ["%"]
    assert found[0]["versus"] == ideal and found[0]["subject"] == "FooSched"


def test_a_share_of_the_ideal_in_parentheses_is_against_the_ideal(rules):
    found = results(rules, "FooSched is 1.3x faster than BarPipe (within 4% of the optimum).")
    assert [(c["unit"], c["versus"]) for c in found] == [("x", "BarPipe"), ("%", "optimum")]


def test_an_ideal_is_no_default_baseline_of_other_results(rules):
    found = results(
        rules,
        "FooSched reaches 91% of the ideal. FooSched stays within 5% of the ideal. FooSched cuts the JCT by 30%.",
    )
    assert [(c["value"], c["versus"]) for c in found] == [(91.0, "ideal"), (5.0, "ideal"), (30.0, None)]


def test_a_model_is_no_competitor(rules):
    found = results(rules, "Training ResNet-152 takes 1.4x longer than training ResNet-50 on FooSched.")
    assert all(c["subject"] != "ResNet-152" for c in found)


def test_a_deficit_after_without_is_left_to_the_ablation_rule(rules):
    found = results(rules, "Without the BarPipe-Style cache, the JCT is 1.4x longer.")
    assert all(c["subject"] != "BarPipe-Style" for c in found)


@pytest.mark.parametrize(
    ("sentence", "versus"),
    [
        ("However, BarPipe takes 2.1x longer than FooSched to finish the trace.", "FooSched"),
        ("In contrast, BarPipe needs 2.4x more memory than our system.", "FooSched"),
        ("We find that BarPipe is 1.6x slower than ours.", "FooSched"),
        ("Under heavy load BarPipe falls 25% behind FooSched.", "FooSched"),
        ("BarPipe, by comparison, leaves 30% of the GPU throughput on the table.", None),
        ("With 64 GPUs, BarPipe is 40% slower.", None),
    ],
)
def test_a_competitors_deficit_is_its_own_claim(rules, sentence, versus):
    found = results(rules, sentence)
    assert len(found) == 1
    assert found[0]["subject"] == "BarPipe"
    assert (found[0]["versus"] or None) == versus


@pytest.mark.parametrize(
    "sentence",
    [
        "Compared with BarPipe, FooSched needs 30% less memory.",
        "On 64 GPUs FooSched is 20% slower than BarPipe on the smallest jobs.",
    ],
)
def test_the_papers_own_deficit_stays_its_own(rules, sentence):
    found = results(rules, sentence)
    assert [(c["subject"], c["versus"]) for c in found] == [("FooSched", "BarPipe")]
