"""A before/after change whose ends each carry their setting ("grows from 2.9% for 1 thread to 12% for 16 threads")
is one claim with both ends, as one written without them is. Papers written for the test."""

from __future__ import annotations

from papers_extract import extracted_claims

_HEAD = "Almo: Partitioned Matrix Multiplication\n\nAbstract\nWe present Almo, a matmul partitioning for CPUs.\n\n"


def _ends(sentence: str) -> list[tuple[float | None, float | None, float | None]]:
    return [(c["value"], c["value_low"], c["value_high"]) for c in extracted_claims(_HEAD + sentence + "\n")]


def test_a_change_whose_ends_carry_their_settings_is_one_claim():
    assert _ends("The share of layer normalization grows from 2.9% for 1 thread to 12% for 16 threads.") == [
        (12.0, 2.9, 12.0)
    ]


def test_two_figures_of_two_settings_without_from_stay_two():
    assert len(_ends("Almo spends 2.9% for 1 thread and 12% for 16 threads in layer normalization.")) == 2


def test_up_to_hyphenated_bounds_a_multiple_of_times():
    assert _ends("Almo can accelerate inference up-to 2∼3 times without extra models.") == [(None, 2.0, 3.0)]


def test_half_precision_is_no_halving():
    assert _ends("All runs are done in half floating numbers; Almo cuts the latency in half.") == [(50.0, None, None)]
