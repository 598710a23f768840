"""An ablation's comparison: the paper's own system with or without one component, named by the clause. A
result "when using X" is measured against the system without X; a result "without X" is the system without X
measured against the system with it; a clause naming no component, or naming its baseline, is left to the
other rules. Every text is written for the test and goes through ``segment_text`` then ``extract_knowledge``."""

from __future__ import annotations

import pytest
from papers_extract import claims_by_text

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


def claims(bound, text: str) -> dict[str, dict]:
    return claims_by_text(text, bound, "/paper.txt")


CASES = [
    (
        "a component used, after the number",
        "The queueing delay drops by a further 12% on the busiest day when using gang preemption.",
        "12%",
        "Marmot",
        "Marmot without gang preemption",
    ),
    (
        "a component switched on, after the number",
        "Marmot cuts the tail latency by 9% with the locality cache enabled.",
        "9%",
        "Marmot",
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
    assert (got["subject"], got["versus"]) == (subject, versus), rule


def test_a_level_is_no_ablation(rules):
    # 83% is how busy the cluster is, not how much better than anything.
    got = claims(rules, FRONT + "Marmot keeps 83% of the GPUs busy when using gang preemption.\n")["83%"]
    assert got["versus"] is None
