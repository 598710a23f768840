"""Lists in a sentence: several lists of numbers paired with one "respectively" list of baselines, a
baseline stated after a list's last number, and a list of other systems as the subjects of a list of
numbers. Each through the whole extraction (``extract_knowledge``), own-worded sentences."""

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


def test_every_list_of_a_respectively_sentence_pairs_with_its_baselines(rules):
    found = claims(
        rules,
        "We present FooSched. Under heavy load, FooSched achieved 41% and 35% shorter average JCT, 22% and "
        "18% shorter tail JCT, and 12% and 9% shorter makespan, in comparison to BarSched and QuuxSched, "
        "respectively.",
    )
    assert [c["versus"] for c in found] == ["BarSched", "QuuxSched"] * 3


def test_a_capitalised_baseline_ending_like_a_verb_is_kept_whole(rules):
    # "QuuxSched" ends in -ed like a verb ("and reduced ..."), but it is a name.
    found = claims(
        rules, "We present FooSched. FooSched cuts JCT by 30% and 20% over BarSched and QuuxSched."
    )
    assert [c["versus"] for c in found] == ["BarSched", "QuuxSched"]


def test_a_baseline_after_the_last_number_holds_for_the_list(rules):
    found = claims(
        rules, "We present FooPipe. The largest batches it reaches are 61% and 47% of those reached by ZeRO."
    )
    assert [c["versus"] for c in found] == ["ZeRO", "ZeRO"]


def test_a_list_of_other_systems_is_the_subject_of_a_list_of_numbers(rules):
    found = claims(
        rules,
        "We present FooPipe. The largest batches that GPipe and PipeDream reach on BERT are only 61% and 47% "
        "of those reached by ZeRO.",
    )
    assert [(c["subject"], c["versus"]) for c in found] == [("GPipe", "ZeRO"), ("PipeDream", "ZeRO")]


def test_a_list_of_baselines_before_the_paper_system_is_not_its_subject(rules):
    found = claims(
        rules, "We present FooPipe. Unlike GPipe and PipeDream, FooPipe trains BERT 1.2x and 1.5x faster."
    )
    assert [c["subject"] for c in found] == ["FooPipe", "FooPipe"]


def test_a_respectively_list_with_the_paper_system_among_its_names_pairs_in_order(rules):
    found = claims(
        rules,
        "We present FooSched. We compare it with two baselines, BarFIFO and QuuxSRTF. "
        "The GPU assignment ratios of FooSched, BarFIFO, and QuuxSRTF were 95%, 71.5%, "
        "and 94.2%, respectively.",
    )
    assert [c["subject"] for c in found] == ["FooSched", "BarFIFO", "QuuxSRTF"]
    # the paper's system beside a setting, the numbers paired by "respectively" with baselines after them
    found = claims(
        rules,
        "We present FooServe. For larger models using pipeline parallelism, FooServe achieves gains of up to "
        "5.1x and 3.2x compared to BarOrc and QuuxLLM respectively.",
    )
    assert [(c["subject"], c["versus"]) for c in found] == [("FooServe", "BarOrc"), ("FooServe", "QuuxLLM")]
