"""An ablation's baseline named once in its setup: "we also run the baseline version of our system, with both
optimizations disabled, and call it Marmot (base)" names the variant the results after it are measured
against, in that paragraph or the next; a sentence that names the paper's own system ("... and call it
Marmot") or somebody else's variant names no baseline. Every text is written for the test in the shapes full
papers take and goes through the public path (``segment_text`` then ``extract_knowledge``)."""

from __future__ import annotations

import pytest
from papers_extract import claims_by_text

from assay.dsl import get_operator

EXTRACT = get_operator("extract_knowledge")

FRONT = (
    "Marmot: Placement-Aware Scheduling for Deep Learning Clusters\n\n"
    "Abstract\n\n"
    "We present Marmot, a scheduler that places jobs by their communication pattern. Marmot cuts the "
    "average job completion time by 2.1x compared with Tiresias.\n\n"
    "6 Evaluation\n\n"
    "We run a 64-GPU cluster for two weeks. Marmot shortens the makespan by 1.6x over Tiresias, and the "
    "tail completion time falls by 31% relative to Tiresias.\n\n"
    "6.2 Ablation\n\n"
)


@pytest.fixture(scope="module")
def rules():
    return EXTRACT.bind(parse="none")


def claims(bound, text: str) -> dict[str, dict]:
    return claims_by_text(text, bound, "/paper.txt")


CASES = [
    (
        "a cut-down variant of the paper's system named with 'call it'",
        "To see what each part adds, we also run the baseline version of our scheduler, i.e. with the "
        "packing and the warm start disabled, and call it Marmot (base). Marmot cuts the queueing delay "
        "by 22% and the tail latency by 9%.",
        ["22%", "9%"],
        "Marmot (base)",
    ),
    (
        "a variant without a component 'referred to as' a name",
        "We also measure Marmot without its traffic model, referred to as Marmot-Blind. With the model, "
        "Marmot finishes the trace 1.3x sooner.",
        ["1.3x"],
        "Marmot-Blind",
    ),
    (
        "a variant named with 'we denote this variant'",
        "Our scheduler with the placement search turned off is the reference here; we denote this variant "
        "as NoSearch. The full Marmot lowers the makespan by 14%.",
        ["14%"],
        "NoSearch",
    ),
    (
        "a variant named in brackets with 'hereafter'",
        "We run our scheduler with the traffic model disabled (hereafter Marmot-Lite) for this test. Marmot trims "
        "the makespan by 11%.",
        ["11%"],
        "Marmot-Lite",
    ),
]


@pytest.mark.parametrize("rule, body, numbers, versus", CASES, ids=[c[0] for c in CASES])
def test_a_named_variant_is_the_baseline_of_the_results_after_it(rules, rule, body, numbers, versus):
    c = claims(rules, FRONT + body)
    for number in numbers:
        assert number in c, sorted(c)
        assert (c[number]["subject"], c[number]["versus"]) == ("Marmot", versus), (rule, number)


def test_naming_the_papers_own_system_names_no_baseline(rules):
    text = (
        "Placement-Aware Scheduling for Deep Learning Clusters\n\n"
        "Abstract\n\n"
        "We build a scheduler that places jobs by their traffic, and call it Marmot. Marmot cuts the average "
        "queueing delay by 35%.\n"
    )
    c = claims(rules, text)
    assert c["35%"]["subject"] == "Marmot"
    assert c["35%"]["versus"] is None


def test_a_variant_of_another_system_is_not_our_baseline(rules):
    body = (
        "Tiresias without its priority queues is a common reference, and we call it Tiresias-Flat. "
        "Marmot cuts the queueing delay by 22%."
    )
    c = claims(rules, FRONT + body)
    assert c["22%"]["subject"] == "Marmot"
    assert c["22%"]["versus"] is None  # the statement names no baseline ...
    assert c["22%"]["implied_versus"] == "Tiresias"  # ... the paper's default, not the other system's variant
