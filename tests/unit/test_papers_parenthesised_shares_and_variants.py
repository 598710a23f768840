"""A share in parentheses belongs to the part the words before it name (a list's item, a clause's subject), not
to the paper's system; a system without one of its parts (``w/o prefetching``) or with one added (``Quill +
pinning``) is a baseline's name in a "respectively" list."""

from __future__ import annotations

from papers_extract import extracted_claims

_OWN = "We present Quill, a serving system that starts models quickly.\n\n"


def _shares(text: str) -> dict[float, str]:
    return {c["value"]: c["subject"] for c in extracted_claims(_OWN + text) if c["unit"] == "%"}


def test_a_list_item_share_is_the_item_s():
    got = _shares(
        "A cold start has three stages: 1) process setup (14%), which imports the runtime; 2) weight "
        "transfer (71%), which copies the tensors; and 3) the first forward pass (15%).\n"
    )
    assert got == {14.0: "process setup", 71.0: "weight transfer", 15.0: "first forward pass"}


def test_a_clause_subject_before_its_verb_owns_the_parenthesised_share():
    got = _shares(
        "Second, the graph warm-up step is expensive (23%) because it replays every batch size. "
        "In the baseline, the weight transfer stage takes the largest part (64%) of the start.\n"
    )
    assert got == {23.0: "graph warm-up step", 64.0: "weight transfer stage"}


def test_a_parenthesised_improvement_stays_the_system_s():
    got = _shares("Quill cuts the start latency substantially (38%) compared with the default loader.\n")
    assert got == {38.0: "Quill"}


def test_ablation_variants_pair_in_a_respectively_list():
    claims = extracted_claims(
        _OWN + "The tail latency of Quill is 41.0%, 22.5%, and 12.0% lower than FooServe, FooServe + pinning, "
        "and w/o prefetching, respectively.\n"
    )
    got = [(c["value"], c["versus"]) for c in claims if c["unit"] == "%"]
    assert got == [(41.0, "FooServe"), (22.5, "FooServe + pinning"), (12.0, "w/o prefetching")]
