"""A baseline phrase that is only a measure, its setting cut off ("81.5% compared to the performance on 512
GPUs"), compares the system with itself at another setting: it names no baseline. Own-worded sentences, each
through the whole extraction (``extract_knowledge``)."""

from __future__ import annotations

from papers_extract import claims_in_order


def test_a_measure_at_another_setting_is_no_baseline(papers_bound):
    found = claims_in_order(
        "We present Quill, a trainer. On 4096 GPUs we see a small drop in efficiency, 81.5% compared to the "
        "performance on 512 GPUs.",
        papers_bound,
    )
    assert [c["versus"] for c in found] == [None]


def test_a_named_baseline_with_its_setting_stays(papers_bound):
    found = claims_in_order("We present Quill, a trainer. Quill is 2x faster than Megatron-LM on 512 GPUs.", papers_bound)
    assert [c["versus"] for c in found] == ["Megatron-LM"]
