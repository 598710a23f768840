"""Coordinated baselines named before the numbers, in an earlier clause of the sentence: "X outperforms A, B
and C, cutting ... by 41%, 33% and 12%, respectively" pairs the i-th number with the i-th system, and the
systems compared against are not the numbers' subjects."""

from __future__ import annotations

from papers_extract import extracted_claims


def _claims(text: str) -> list[dict]:
    return extracted_claims(text)


def test_baselines_listed_in_an_earlier_clause_pair_with_the_numbers():
    claims = _claims(
        "We present Quill, a cluster scheduler.\n\n"
        "In the large simulation, Quill outperforms FooSched, BarPipe, and Tide even more, cutting the "
        "makespan by 41%, 33%, and 12%, respectively.\n"
    )
    got = [(c["value"], c["subject"], c["versus"]) for c in claims if c["unit"] == "%"]
    assert got == [(41.0, "Quill", "FooSched"), (33.0, "Quill", "BarPipe"), (12.0, "Quill", "Tide")]


def test_a_list_of_another_length_is_not_paired():
    claims = _claims(
        "We present Quill, a cluster scheduler.\n\n"
        "Quill outperforms FooSched and BarPipe on every trace, cutting the makespan and the tail by 41%, "
        "33%, and 12%, respectively.\n"
    )
    # Three numbers, two systems: no one-to-one pairing; the clause's phrase is kept whole.
    assert {c["versus"] for c in claims} == {"FooSched and BarPipe"}
