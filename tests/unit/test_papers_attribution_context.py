"""Baselines a claim's clause states without a system's name: a share of the hardware's peak is measured
against the peak, a share of linear scaling ("79.6% of linear scaling") or of an ideal against it; an
article left over from a comparison that names no baseline is none. Each through the whole extraction
(``extract_knowledge``), own-worded sentences."""

from __future__ import annotations

import pytest
from papers_extract import claims_in_order

from assay.dsl import get_operator

EXTRACT = get_operator("extract_knowledge")


@pytest.fixture(scope="module")
def rules():
    return EXTRACT.bind(parse="none")


def claims(bound, text: str) -> list[dict]:
    return claims_in_order(text, bound)


def test_a_share_of_the_peak_is_measured_against_the_peak(rules):
    found = claims(
        rules,
        "We present FooMoE. On the largest model FooMoE sustains only 14.2% of the peak bf16 flop/s, far "
        "below the 350M (41% of peak) and 1.3B (33% of peak) models.",
    )
    assert [c["versus"] for c in found] == ["peak bf16 flop/s", "peak", "peak"]


def test_a_share_of_linear_scaling_or_of_an_ideal_is_measured_against_it(rules):
    found = claims(
        rules,
        "We present FooMoE. With 8-way model parallelism, FooMoE achieves 79.6% of linear scaling, and on "
        "64 GPUs it reaches 91% of ideal speedup.",
    )
    assert [c["versus"] for c in found if c["unit"] == "%"] == ["linear scaling", "ideal speedup"]


def test_an_article_before_a_number_is_no_baseline(rules):
    found = claims(rules, "We present FooMoE. FooMoE is slower than the 1.3B model (21% of its time).")
    assert all(c["versus"] != "the" for c in found)


def test_a_model_size_after_the_article_is_part_of_the_baseline(rules):
    found = claims(
        rules, "We present Foo. With 256 GPUs the 6.1B model runs 1.4x faster than the 1.7B model."
    )
    assert [c["versus"] for c in found if c["unit"] == "x"] == ["1.7B model"]


def test_a_contrast_in_a_later_clause_is_no_baseline(rules):
    found = claims(
        rules,
        "We present FooOS. Priority boosts help little here (<2% gain), because the bottleneck is page "
        "migration rather than kernel time.",
    )
    assert [c["versus"] for c in found] == [None]


def test_a_baseline_after_the_number_in_its_own_clause_still_counts(rules):
    found = claims(
        rules, "We present FooOS. FooOS serves 20% more requests than BarOS, while using less memory."
    )
    assert [c["versus"] for c in found] == ["BarOS"]


def test_a_multiple_of_another_systems_figure_is_measured_against_it(rules):
    found = claims(
        rules,
        "We present FooPipe. With recomputation, the throughput of FooPipe is more than twice that of "
        "stage-balanced partitioning, and it trains 3x as fast as GPipe.",
    )
    assert [c["versus"] for c in found] == ["stage-balanced partitioning", "GPipe"]
