"""Where a comparison's baseline phrase ends: the words after "than X" that open a clause of their own (a
modal verb after "and", a subordinating conjunction) are no part of the baseline's name. Own-worded
sentences, each through the whole extraction (``extract_knowledge``)."""

from __future__ import annotations

import pytest
from papers_extract import claims_in_order

from assay.dsl import get_operator

EXTRACT = get_operator("extract_knowledge")


@pytest.fixture(scope="module")
def rules():
    return EXTRACT.bind(parse="none")


def test_a_subordinate_clause_after_the_baseline_is_cut(rules):
    found = claims_in_order(
        "We present Quill, a tuner. In the worst case, the exhaustive sweep needs 40x more samples than "
        "Quill until it settles.",
        rules,
    )
    assert [c["versus"] for c in found] == ["Quill"]


def test_a_modal_verb_after_and_opens_another_clause(rules):
    found = claims_in_order(
        "We present Quill, a tuner. The best setting may run at a lower clock than the maximum and can cut "
        "energy by 12%.",
        rules,
    )
    # "than the maximum" compares the clock, in the first clause; the cut energy names no baseline.
    assert [c["versus"] for c in found] == [None]


def test_unless_ends_the_baseline_phrase(rules):
    found = claims_in_order(
        "We present Quill, a tuner. Quill is 2.1x faster than Plover unless the cache is cold.", rules
    )
    assert [c["versus"] for c in found] == ["Plover"]
