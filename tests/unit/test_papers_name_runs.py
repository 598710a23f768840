"""A name written as two or three capitalised words ("Dense FT", "Vanilla DP"), one of them distinctive (issue
26): it is one system, the subject of its own clause and the baseline of a comparison, not "Dense" here and "FT"
there. A function word before a name ("On A100", "With Quillo") stays out of it. Own-worded texts, each through
``extract_knowledge``."""

from __future__ import annotations

from papers_extract import claims_in_order

_PAPER = (
    "We compare Dense FT with Quillo, our adapter method. "
    "At batch 8, Quillo reaches 7100 tokens/s versus 5200 tokens/s for Dense FT, a 36.5% gain. "
    "Dense FT loses 80% of its accuracy across the grid. "
    "Quillo trains 1.3x faster than Dense FT on the long sequences."
)


def test_a_run_of_capitalised_words_is_one_name_as_subject_and_baseline() -> None:
    found = {c["value"]: c for c in claims_in_order(_PAPER)}
    assert (found[5200.0]["subject"], found[36.5]["subject"], found[36.5]["versus"]) == (
        "Dense FT",
        "Quillo",
        "Dense FT",
    )
    assert found[80.0]["subject"] == "Dense FT"
    assert (found[1.3]["subject"], found[1.3]["versus"]) == ("Quillo", "Dense FT")


def test_a_function_word_before_a_name_is_no_part_of_it() -> None:
    text = (
        "We present Quillo. On A100 GPUs Quillo is 1.5x faster than Tessaly. "
        "On A100 GPUs the cache cuts memory by 20% relative to Tessaly."
    )
    found = claims_in_order(text)
    assert [(c["subject"], c["versus"]) for c in found] == [("Quillo", "Tessaly"), ("Quillo", "Tessaly")]

