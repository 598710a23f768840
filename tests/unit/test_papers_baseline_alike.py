"""A predicate that likens the subject to a system ("reaches the same accuracy as X") names the baseline of the
comparatives in the predicates coordinated with it ("..., needs 4x less memory"), which name none of their own.
Own-worded sentences, each through the whole extraction (``extract_knowledge``)."""

from __future__ import annotations

import pytest
from papers_extract import claims_in_order

from assay.dsl import get_operator

EXTRACT = get_operator("extract_knowledge")


@pytest.fixture(scope="module")
def rules():
    return EXTRACT.bind(parse="none")


def test_coordinated_comparatives_differ_from_the_system_likened_to(rules):
    found = claims_in_order(
        "We present Quill, an optimizer. Quill reaches the same accuracy as AdamW, needs up to 4x less memory "
        "that allows up to 2.5x higher throughput on BERT and up to 1.9x higher throughput on GPT-2.",
        rules,
    )
    assert [(c["value"], c["versus"]) for c in found] == [(4.0, "AdamW"), (2.5, "AdamW"), (1.9, "AdamW")]


def test_a_comparison_of_its_own_wins(rules):
    found = claims_in_order(
        "We present Quill, an optimizer. Quill reaches the same accuracy as AdamW and needs 3x less memory "
        "than Plover.",
        rules,
    )
    assert [c["versus"] for c in found] == ["Plover"]


def test_a_new_clause_or_a_lone_word_names_nothing(rules):
    found = claims_in_order(
        "We present Quill, an optimizer. Quill keeps the same loss as before, needs 4x less memory. Quill "
        "reaches the same accuracy as AdamW, while the sweep needs 4x more memory.",
        rules,
    )
    assert [c["versus"] for c in found] == [None, None]
