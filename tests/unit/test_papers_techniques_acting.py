"""A technique written in plain words that acts on what a number measures ("Stage folding thus cuts the bubble
time by 31%") makes the result the paper's system run with it (D2): "<system> with <technique>". A measure that
changes by itself, a pronoun, the system itself, a workload or a name leave the subject alone. Own-worded papers
about invented systems, each through the whole extraction, with the rules alone and with the trained parse where
installed (``papers_bound``)."""

from __future__ import annotations

from papers_extract import claims_in_order

_OWN = "We present Brisket, a pipeline-parallel training system. Brisket trains models 1.7x faster than Flint. "


def _subjects(body: str, bound) -> list[tuple[float, str]]:
    return [(c["value"], c["subject"]) for c in claims_in_order(_OWN + body, bound)][1:]


def test_a_technique_acting_on_the_measure_is_the_system_with_it(papers_bound):
    found = _subjects(
        "Stage folding thus cuts the bubble time by 31%. Optimizer sharding provides memory savings of more "
        "than 18%. The drop operation reduces the message sizes by 2x. Warp-level batching and coalesced "
        "copies reduce overhead by 40% across operations.",
        papers_bound,
    )
    assert found == [
        (31.0, "Brisket with stage folding"),
        (18.0, "Brisket with optimizer sharding"),
        (2.0, "Brisket with drop operation"),
        (40.0, "Brisket with warp-level batching and coalesced copies"),
    ]


def test_a_modal_and_an_adverb_between_the_technique_and_its_verb_are_skipped(papers_bound):
    found = _subjects("Gradient bucketing can further lower the step time by 12%.", papers_bound)
    assert found == [(12.0, "Brisket with gradient bucketing")]


def test_a_measure_changing_by_itself_a_pronoun_or_the_system_keeps_the_system(papers_bound):
    found = _subjects(
        "The memory waste ratio decreases by nearly 10%. This reduces the step time by 14%. Our system cuts "
        "the step time by 22%. The system lowers memory by 15%. Training throughput improves by 30%. Each "
        "worker saves 12% of its memory.",
        papers_bound,
    )
    assert [s for _, s in found] == ["Brisket"] * 6


def test_a_named_system_acting_is_no_technique(papers_bound):
    found = _subjects("In addition, FooShard reduces memory by 8x over Flint.", papers_bound)
    assert found == [(8.0, "FooShard")]


def test_the_technique_keeps_the_baseline_the_sentence_names(papers_bound):
    found = claims_in_order(
        _OWN + "Explicit modeling of stragglers improves throughput by 1.3x compared to Flint.", papers_bound
    )
    assert (found[-1]["subject"], found[-1]["versus"]) == ("Brisket with explicit modeling of stragglers", "Flint")


def test_a_component_taken_away_is_the_system_without_it(papers_bound):
    found = _subjects(
        "Removing stage folding results in a 12.5% increase in iteration time. Disabling the prefetcher cuts "
        "throughput by 8%. Using the cache lowers the step time by 6%.",
        papers_bound,
    )
    assert found == [
        (12.5, "Brisket without stage folding"),
        (8.0, "Brisket without prefetcher"),
        (6.0, "Brisket with cache"),
    ]


def test_a_component_stating_a_compared_level_or_behind_an_aside_is_the_system_with_it(papers_bound):
    found = claims_in_order(
        _OWN + "In our trace, the decoder stage achieves 4x higher throughput than the vocoder stage on one GPU. "
        "The cost-optimal schedule (Figure 3b) reduces energy use by 24.3% compared to Flint. Our system "
        "achieves 30% lower cost than Flint. The system achieves 3x higher throughput than Flint.",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found[1:]] == [
        (4.0, "Brisket with decoder stage"),
        (24.3, "Brisket with cost-optimal schedule"),
        (30.0, "Brisket"),
        (3.0, "Brisket"),
    ]


def test_a_verb_coordinated_with_the_clause_before_keeps_its_subject_and_a_list_keeps_the_technique(papers_bound):
    found = _subjects(
        "Brisket moves the cache to a remote pool, and reduces E2E latency by 8.6x. Prefetching improves the "
        "step time by 1.13x, 1.14x and 1.21x on the three models.",
        papers_bound,
    )
    assert found == [
        (8.6, "Brisket"),
        (1.13, "Brisket with prefetching"),
        (1.14, "Brisket with prefetching"),
        (1.21, "Brisket with prefetching"),
    ]
