"""A comparison whose baseline is the paper's own system ("... 40x more regret than Quill") is about something
else: when no known name stands before the number, its subject is the clause's grammatical subject as the text
writes it ("Random Probing"), not none. Own-worded sentences, each through the whole extraction
(``extract_knowledge``)."""

from __future__ import annotations

from papers_extract import claims_in_order


def test_the_clause_subject_of_a_comparison_against_the_papers_system(papers_bound):
    found = claims_in_order(
        "We present Quill, a tuner. In the worst case, Random Probing results in 40x more regret than Quill "
        "until it settles.",
        papers_bound,
    )
    assert [(c["subject"], c["versus"]) for c in found] == [("Random Probing", "Quill")]


def test_a_pronoun_subject_stays_unknown(papers_bound):
    found = claims_in_order("We present Quill, a tuner. It needs 40x more trials than Quill on this trace.", papers_bound)
    assert all(c["subject"] != "It" for c in found)
