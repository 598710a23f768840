"""The system a verb compares with stands right before the number ("outperforms the baselines 2.26x"), and a
bracket that breaks a number down ("2.26x on average (3.36x vs A and 1.62x vs B)") holds its own numbers'
baselines, not the first's. Papers written for the test."""

from __future__ import annotations

from papers_extract import extracted_claims

_HEAD = "Quill: Sparse Training at Scale\n\nAbstract\nWe present Quill, a system for training sparse models.\n\nEvaluation\n"


def _versus(text: str) -> list[tuple[float, str | None]]:
    return [(c["value"], c["versus"]) for c in extracted_claims(_HEAD + text)]


def test_the_object_right_before_the_number_is_the_baseline():
    assert _versus("Overall, Quill outperforms the baselines 2.26x on average.\n") == [(2.26, "baselines")]
    assert _versus("Quill beats FSDP 1.8x on average.\n") == [(1.8, "FSDP")]


def test_a_bracketed_breakdown_keeps_its_baselines_to_its_own_numbers():
    text = "Quill outperforms the baselines by 2.26x on average (3.36x vs FSDP and 1.62x vs Megatron).\n"
    assert _versus(text) == [(2.26, "baselines"), (3.36, "FSDP"), (1.62, "Megatron")]


def test_a_series_member_before_its_number_is_still_no_baseline():
    # "layer 2" is one of a numbered series, cut at its number: no system
    versus = dict(_versus("The gradient of the last stage is 30% larger than layer 2 in Quill.\n"))
    assert versus[30.0] != "layer"


def test_each_number_of_a_verb_left_out_has_its_own_object():
    text = "Quill outperforms FSDP by 1.35x, Megatron by 1.9x, and GPipe by 2.4x.\n"
    assert _versus(text) == [(1.35, "FSDP"), (1.9, "Megatron"), (2.4, "GPipe")]


def test_a_verb_saying_where_the_measure_stands_ends_the_baseline():
    assert _versus("The speedup of Quill over GPipe reaches 4.2x.\n") == [(4.2, "GPipe")]
