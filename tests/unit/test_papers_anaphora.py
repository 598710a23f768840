"""A sentence opening "These shares ..." points back at the numbers of the sentence before it: its numbers keep
those numbers' subjects and baselines, in order. Own-worded sentences, each through the whole extraction
(``extract_knowledge``)."""

from __future__ import annotations

from papers_extract import claims_in_order


def test_these_shares_keep_the_previous_sentences_systems(papers_bound):
    found = claims_in_order(
        "We present Quill, a planner. The largest batches that Megatron-LM and GPipe fit are only 71% and 52% "
        "of those reached by ZeRO at 4 stages. These shares fall further to 60% and 38% at 8 stages.",
        papers_bound,
    )
    assert [(c["value"], c["subject"], c["versus"]) for c in found[2:]] == [
        (60.0, "Megatron-LM", "ZeRO"),
        (38.0, "GPipe", "ZeRO"),
    ]


def test_a_different_count_or_an_ordinary_opening_pairs_nothing(papers_bound):
    found = claims_in_order(
        "We present Quill, a planner. The largest batches that Megatron-LM and GPipe fit are only 71% and 52% "
        "of those reached by ZeRO at 4 stages. These shares fall to 60% at 8 stages. Quill then cuts the "
        "step time by 12%.",
        papers_bound,
    )
    assert found[2]["subject"] != "Megatron-LM"
    assert (found[3]["subject"], found[3]["versus"]) == ("Quill", None)
