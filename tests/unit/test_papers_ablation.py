"""An ablation's comparison: the paper's own system with or without one component, named by the clause. A
result "when using X" is measured against the system without X; a result "without X" is the system without X
measured against the system with it; a clause naming no component, or naming its baseline, is left to the
other rules. Every text is written for the test and goes through ``segment_text`` then ``extract_knowledge``."""

from __future__ import annotations

import pytest
from papers_extract import claims_by_text, extracted_claims

from assay.dsl import get_operator

EXTRACT = get_operator("extract_knowledge")

FRONT = (
    "Marmot: Placement-Aware Scheduling for Deep Learning Clusters\n\n"
    "Abstract\n\n"
    "We present Marmot, a scheduler that places jobs by their communication pattern.\n\n"
    "6 Evaluation\n\n"
    "Marmot shortens the makespan by 1.6x over Tiresias, and the tail completion time falls by 31% "
    "relative to Tiresias.\n\n"
    "6.3 Design Choices\n\n"
)


@pytest.fixture(scope="module")
def rules():
    return EXTRACT.bind(parse="none")


def extracted(bound, text: str) -> list[dict]:
    return extracted_claims(text, bound, "/paper.txt")


def claims(bound, text: str) -> dict[str, dict]:
    return claims_by_text(text, bound, "/paper.txt")


CASES = [
    (
        "a component used, after the number",
        "The queueing delay drops by a further 12% on the busiest day when using gang preemption.",
        "12%",
        "Marmot with gang preemption",
        "Marmot without gang preemption",
    ),
    (
        "a component switched on, after the number",
        "Marmot cuts the tail latency by 9% with the locality cache enabled.",
        "9%",
        "Marmot with locality cache",
        "Marmot without locality cache",
    ),
    (
        "a component left out, opening the clause",
        "The cache hides most fetches. However, without the locality cache, the average JCT is 1.3x longer.",
        "1.3x",
        "Marmot without locality cache",
        "Marmot with locality cache",
    ),
    (
        "a baseline named in the clause wins",
        "Marmot cuts the tail latency by 9% over Gandiva when using gang preemption.",
        "9%",
        "Marmot",
        "Gandiva",
    ),
    (
        "a component right after the change",
        "For the larger model, the throughput rose by 14% with fusion (80 to 91 samples per second).",
        "14%",
        "Marmot with fusion",
        "Marmot without fusion",
    ),
    (
        "a component measured with and without, named earlier in the paragraph",
        "Figure 7 shows the throughput with and without (unoptimized) the gradient bucketing for the 13B "
        "model. We see an improvement of up to 9% in throughput for small batches.",
        "9%",
        "Marmot with gradient bucketing",
        "Marmot without gradient bucketing",
    ),
    (
        "the run with a component against the run without it",
        "Throughput at large batches with gradient bucketing is up to 1.6x higher than the best throughput "
        "achieved without gradient bucketing.",
        "1.6x",
        "Marmot with gradient bucketing",
        "without gradient bucketing",
    ),
    (
        "a workload after the change is no component",
        "It reduces the average JCT by 1.2x with distributed jobs.",
        "1.2x",
        "Marmot",
        "Tiresias",
    ),
    (
        "traffic over links is no comparison",
        "The step time falls by 7% since less traffic is sent over the spine switches.",
        "7%",
        "Marmot",
        "Tiresias",
    ),
    (
        "no component named: the paper's default",
        "The queueing delay drops by a further 12% on the busiest day.",
        "12%",
        "Marmot",
        "Tiresias",
    ),
]


@pytest.mark.parametrize("rule, body, number, subject, versus", CASES, ids=[c[0] for c in CASES])
def test_ablation(rules, rule, body, number, subject, versus):
    got = claims(rules, FRONT + body + "\n")[number]
    # what the claim is measured against: the baseline its statement names, else the one the paper implies
    assert (got["subject"], got["versus"] or got["implied_versus"]) == (subject, versus), rule


def test_a_level_is_no_ablation(rules):
    # 83% is how busy the cluster is, not how much better than anything.
    got = claims(rules, FRONT + "Marmot keeps 83% of the GPUs busy when using gang preemption.\n")["83%"]
    assert got["versus"] is None


def test_a_setting_after_the_change_is_no_component(rules):
    # "with a larger batch" says where the number was measured, not a component switched on.
    got = claims(rules, FRONT + "The per-GPU throughput rises by up to 1.3x with a larger batch.\n")["1.3x"]
    assert "without" not in (got["versus"] or "") and got["subject"] == "Marmot"


def test_a_run_without_a_component_is_no_baseline_of_another_statement(rules):
    # 2.3x is stated twice: once against the run without bucketing, once of badly sized shards, which
    # names no bucketing: the second is not measured against the run without it.
    body = (
        "Badly sized shards can lead to up to 2.3x lower throughput.\n\n"
        "Throughput at large batches with gradient bucketing is up to 2.3x higher than the best throughput "
        "achieved without gradient bucketing.\n"
    )
    got = sorted(extracted(rules, FRONT + body), key=lambda c: c["start"])
    shards, bucketing = [c for c in got if c["text"] == "2.3x"]
    assert bucketing["versus"] == "without gradient bucketing"
    assert shards["versus"] != "without gradient bucketing"
