"""A number after "at" inside a comparison ("12x longer contexts at 48% MFU than A and B") is the level the
comparison holds at: it is not paired with one of the baselines as a second comparison, and takes none. Own-
worded sentences, each through the whole extraction (``extract_knowledge``)."""

from __future__ import annotations

from papers_extract import claims_in_order


def test_the_level_after_at_is_no_second_comparison(papers_bound):
    found = claims_in_order(
        "We present Quill, a trainer. Quill trains 12x longer contexts at 48% MFU than Megatron-SP and "
        "DeepSpeed Ulysses.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found] == [
        (12.0, "Megatron-SP and DeepSpeed Ulysses"),
        (48.0, None),
    ]


def test_a_list_of_numbers_still_pairs_with_its_names(papers_bound):
    found = claims_in_order(
        "We present Quill, a trainer. Quill is 1.5x and 5.4x faster than Megatron-SP and DeepSpeed Ulysses.",
        papers_bound,
    )
    assert [c["versus"] for c in found] == ["Megatron-SP", "DeepSpeed Ulysses"]
