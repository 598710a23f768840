"""The subject of a clause whose verb no list holds (issue 26): a text that presents no system of its own and
names one new to every list as the subject of its result ("Quillo completes jobs 1.8x faster than Tessaly"). A
result's verb is not a closed list: the clause's verb is also read by its shape, a third person's present or a
past. Own-worded sentences, each through ``extract_knowledge``."""

from __future__ import annotations

import pytest
from papers_extract import claims_in_order


@pytest.mark.parametrize(
    "sentence",
    [
        "Quillo completes jobs 1.8x faster than Tessaly.",
        "Quillo finishes training 1.8x sooner than Tessaly.",
        "Quillo processes requests 1.8x faster than Tessaly.",
        "Quillo beats Tessaly by 1.8x on the long trace.",
        "Quillo speeds up training by 1.8x over Tessaly.",
        "Quillo handled the trace 1.8x faster than Tessaly.",
    ],
)
def test_a_clause_subject_before_a_verb_no_list_holds(sentence: str) -> None:
    found = claims_in_order(sentence)
    assert [(c["value"], c["subject"]) for c in found] == [(1.8, "Quillo")]


def test_a_pronoun_or_a_measure_before_such_a_verb_is_still_no_subject() -> None:
    found = claims_in_order("It finishes 1.8x sooner than before. Latency drops by 30% with the new cache.")
    assert [c["subject"] for c in found] == [None, None]


def test_a_list_items_bullet_is_no_word_of_its_clause() -> None:
    # A measurement study's findings as a bulleted list: the bullet opens the item, the subject follows it.
    found = claims_in_order(
        "Our findings are as follows.\n"
        "• Spot instances are on average 2.7x cheaper than on-demand instances.\n"
        "• The cost of training a model can be reduced by up to 3.5x.\n"
    )
    assert [(c["value"], c["subject"]) for c in found] == [(2.7, "Spot instances"), (3.5, None)]
