"""A while-clause whose subject is the other systems as a group ("while others achieve 1.2x and 1.3x each")
states the same comparison as the main clause: its numbers are the group's, against the main clause's
baseline; a clause that measures something else keeps no baseline. Through the public papers path."""

from __future__ import annotations

from papers_extract import claims_by_text

FRONT = (
    "Quillo: Prefetching Attention State\n\n"
    "Abstract\n\n"
    "We present Quillo, a system that prefetches attention state for long-context inference.\n\n"
    "5 Evaluation\n\n"
)


def test_the_group_s_numbers_are_against_the_main_clause_s_baseline():
    body = "Quillo shows a 1.41x speedup over Pagewise, while others achieve 1.12x and 1.25x each.\n"
    claims = claims_by_text(FRONT + body)
    assert (claims["1.41x"]["subject"], claims["1.41x"]["versus"]) == ("Quillo", "Pagewise")
    for number in ("1.12x", "1.25x"):
        assert (claims[number]["subject"], claims[number]["versus"]) == ("others", "Pagewise")


def test_a_group_named_by_its_kind_is_the_subject_too():
    body = "Quillo is 2.2x faster than Pagewise, whereas the other offloading systems reach only 1.3x.\n"
    claims = claims_by_text(FRONT + body)
    assert (claims["1.3x"]["subject"], claims["1.3x"]["versus"]) == ("the other offloading systems", "Pagewise")


def test_a_clause_stating_another_kind_of_number_is_not_the_main_comparison():
    body = "Quillo shows a 1.41x speedup over Pagewise, while others lose 2.5% of their accuracy.\n"
    claims = claims_by_text(FRONT + body)
    assert claims["2.5%"]["versus"] != "Pagewise"
