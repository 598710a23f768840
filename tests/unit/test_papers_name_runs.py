"""A name written as two or three capitalised words ("Dense FT", "Vanilla DP"), one of them distinctive (issue
26): it is one system, the subject of its own clause and the baseline of a comparison, not "Dense" here and "FT"
there. A generic word before a name ("Using SlowPipe") stays out of it. Own-worded texts, through
``extract_knowledge`` and where those rules read names."""

from __future__ import annotations

from papers_extract import claims_in_order

from assay.operators.papers._name_runs import names_in

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


def test_a_generic_word_before_a_name_is_no_part_of_it() -> None:
    # read where the proposal and comparison rules read names: "Using SlowPipe" twice is still SlowPipe alone
    text = "Using SlowPipe the bubble is 12%. Using SlowPipe nodes Quillo is 1.5x faster than Dense FT and Dense FT."
    names = [name for name, _ in names_in(text, 0, len(text), cjk=False)]
    assert "Using SlowPipe" not in names
    assert (names.count("SlowPipe"), names.count("Dense FT")) == (2, 2)
