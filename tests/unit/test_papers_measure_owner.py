""""The training throughput of X is 2x that of Y": the name whose measure heads the clause's subject is what the
number is about, even when no list knows it, rather than the paper's own system. Own-worded sentences, each
through the whole extraction (``extract_knowledge``)."""

from __future__ import annotations

from papers_extract import claims_in_order


def test_the_owner_of_the_measured_quantity_is_the_subject(papers_bound):
    found = claims_in_order(
        "We present Quill, a planner. On the largest model, the training throughput of Split-B+R is more than "
        "twice that of even partitioning.",
        papers_bound,
    )
    assert [(c["subject"], c["versus"]) for c in found] == [("Split-B+R", "even partitioning")]


def test_a_clause_break_leaves_the_papers_system(papers_bound):
    found = claims_in_order(
        "We present Quill, a planner. The throughput of Split-B+R is low, and Quill cuts the step time by 30%.",
        papers_bound,
    )
    assert [c["subject"] for c in found] == ["Quill"]
