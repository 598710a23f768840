"""The paper's baseline, unnamed, as the object of a verb that acts on a system ("Foo accelerates the baseline
by 41%", "speeds up the synchronous baseline by 2x") is the claim's baseline, as "faster than the baseline"
is; a metric as the object ("cuts the baseline's wait") is not. Own-worded sentences through the whole
extraction."""

from __future__ import annotations

from papers_extract import claims_in_order


def test_an_unnamed_baseline_as_the_object_is_the_baseline(papers_bound):
    found = claims_in_order(
        "We present Foo, a freezing trainer. Foo accelerates the baseline by 41% to reach the target accuracy. "
        "Foo speeds up the synchronous baseline by 2x. Foo is 20% faster than the baseline.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found] == [
        (41.0, "baseline"),
        (2.0, "synchronous baseline"),
        (20.0, "baseline"),
    ]


def test_a_metric_object_after_a_loose_verb_is_no_baseline(papers_bound):
    found = claims_in_order("We present Foo, a freezing trainer. Foo accelerates training by 41%.", papers_bound)
    assert [(c["value"], c["versus"]) for c in found] == [(41.0, None)]
