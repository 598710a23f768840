"""A comparison against what another system can train, run or serve names that system as the baseline: "38%
smaller than the model can be trained with BarLib" is against BarLib, not against "model can be trained".
Texts written for the test."""

from __future__ import annotations

from papers_extract import extracted_claims


def _only(text: str) -> dict:
    claims = extracted_claims(text)
    assert len(claims) == 1, claims
    return claims[0]


def test_the_model_a_system_can_train_is_that_systems():
    claim = _only(
        "The largest model that fits with BarLib on one GPU has 6B parameters, which is 41% smaller than "
        "the model can be trained with FooStore."
    )
    assert (claim["value"], claim["versus"]) == (41.0, "FooStore")


def test_the_batch_a_system_supports_is_that_systems():
    claim = _only("FooStore fits a batch 2.5x larger than the batch supported by BarLib on the same node.")
    assert (claim["subject"], claim["versus"]) == ("FooStore", "BarLib")


def test_a_model_trained_on_a_device_count_names_no_system():
    # what follows "with" is a setting here, not a system: no baseline is better than "8 GPUs"
    claim = _only("FooStore trains a model 3x larger than the model trained with 8 GPUs under data parallelism.")
    assert claim["versus"] is None
