"""A baseline that says there is one but not which ("relative to the baseline", "over the default") is the
one the paper names in context: its setup ("We compare Quill against Marlin"), the same result stated
elsewhere, or its default; none named, the words stay."""

from __future__ import annotations

from papers_extract import claims_by_text

_INTRO = (
    "Quill: Packing Jobs on Shared GPU Clusters\n\n"
    "We present Quill, a scheduler that packs training jobs onto shared GPUs. Quill finishes jobs 1.5x sooner "
    "than Marlin on the large trace and uses 20% fewer GPU hours than Marlin on the small one.\n\n"
)


def test_the_baseline_is_the_one_the_setup_names():
    c = claims_by_text(
        _INTRO + "We compare Quill against Marlin on a 64-GPU cluster. Our approach cuts the average JCT by "
        "31% relative to the baseline.\n"
    )
    assert c["31%"]["subject"] == "Quill"
    assert c["31%"]["versus"] == "Marlin"


def test_the_baseline_stays_when_the_paper_names_none():
    c = claims_by_text(
        "Quill: Packing Jobs on Shared GPU Clusters\n\n"
        "We present Quill, a scheduler that packs training jobs onto shared GPUs.\n\n"
        "Our approach cuts the average JCT by 31% relative to the baseline.\n"
    )
    assert c["31%"]["versus"] == "baseline"


def test_a_baseline_the_words_after_it_describe_is_left_to_them():
    # "a baseline with activation checkpointing" says which baseline: not the setup's
    c = claims_by_text(
        _INTRO + "We compare Quill against Marlin on a 64-GPU cluster. Quill reaches 3.1x higher throughput "
        "than a baseline with activation checkpointing.\n"
    )
    assert c["3.1x"]["versus"] != "Marlin"


def test_a_baseline_the_paper_named_baseline_is_that_system():
    # a capitalised "Baseline" is the name the paper gave its baseline system, no unnamed one to fill in
    c = claims_by_text(
        _INTRO + "We compare Quill against Marlin on a 64-GPU cluster. Quill cuts queuing time by 1.53x and JCT "
        "by 1.48x when compared to Baseline in the small scenario. Our approach cuts the average JCT by 31% "
        "relative to the baseline.\n"
    )
    assert (c["1.53x"]["versus"], c["1.48x"]["versus"]) == ("Baseline", "Baseline")
    assert c["31%"]["versus"] == "Marlin"  # the unnamed one, lower case, is still the setup's
