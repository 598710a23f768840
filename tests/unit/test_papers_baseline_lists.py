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


def test_slashed_runs_pair_with_the_baselines_in_order():
    # three baselines, three runs of numbers joined by slashes (one number per batch size): a run per baseline
    claims = _claims(
        "We present Quill, a kernel library.\n\n"
        "On average, Quill outperforms FooBLAS, BarLib and Tide by 9.0×/8.3×/7.0×, 2.6×/2.4×/2.1×, and "
        "1.6×/1.4×/1.3× when the batch size is 8/16/32, respectively.\n"
    )
    got = [(c["value"], c["versus"]) for c in claims if c["unit"] == "x"]
    assert got == [
        (9.0, "FooBLAS"), (8.3, "FooBLAS"), (7.0, "FooBLAS"),
        (2.6, "BarLib"), (2.4, "BarLib"), (2.1, "BarLib"),
        (1.6, "Tide"), (1.4, "Tide"), (1.3, "Tide"),
    ]


def test_runs_of_unequal_length_are_not_paired():
    claims = _claims(
        "We present Quill, a kernel library.\n\n"
        "On average, Quill outperforms FooBLAS, BarLib and Tide by 9.0×/8.3×, 2.6×/2.4×/2.1×, and 1.6× on "
        "the two sizes, respectively.\n"
    )
    assert {c["versus"] for c in claims if c["unit"] == "x"} != {"FooBLAS", "BarLib", "Tide"}

