"""Whose a number is when the sentence gives it by position, not by its subject: a level followed by "for
<name>" ("exact match is 38.5% for DenseTune") is that system's; a number derived from a pair just set against
each other ("SlimTune reaches 6100 tokens/s versus 5000 tokens/s for Dense FT, a 22% gain") compares the first
number's system with the comparand's owner; a capitalised preposition opening a sentence ("Under this rule")
is never a name. Own-worded papers about invented systems, each through the whole extraction, with the rules
alone and with the trained parse where installed (``papers_bound``)."""

from __future__ import annotations

from papers_extract import claims_in_order

_OWN = "We present SlimTune, an adapter method. SlimTune trains 1.4x faster than DenseTune. "


def _pct(body: str, bound) -> list[tuple[float, str, str | None]]:
    return [(c["value"], c["subject"], c["versus"]) for c in claims_in_order(_OWN + body, bound) if c["unit"] == "%"]


def test_a_level_given_to_a_name_by_for_is_that_names(papers_bound):
    found = _pct(
        "Under the stricter parser, accuracy is 61.2% for DenseTune and 63.0% for SlimTune-r8. Under this "
        "rule, exact match is 38.5% for Dense FT, 39.1% for SlimTune-r4, and 40.2% for SlimTune-r8.",
        papers_bound,
    )
    assert [(v, s) for v, s, _ in found] == [
        (61.2, "DenseTune"),
        (63.0, "SlimTune-r8"),
        (38.5, "Dense FT"),
        (39.1, "SlimTune-r4"),
        (40.2, "SlimTune-r8"),
    ]


def test_a_change_by_the_clauses_actor_for_a_name_stays_the_actors(papers_bound):
    # "by 30% for DenseTune": what the actor did, DenseTune is where
    found = _pct("SlimTune cuts the memory by 30% for DenseTune users.", papers_bound)
    assert [s for _, s, _ in found] == ["SlimTune"]


def test_a_number_derived_from_a_pair_compares_the_first_with_the_comparands_owner(papers_bound):
    found = _pct(
        "At batch 8, SlimTune-r8 reaches 6100 tokens/s versus 5000 tokens/s for Dense FT, a 22.0% gain.",
        papers_bound,
    )
    assert [(v, vs) for v, _, vs in found] == [(22.0, "Dense FT")]
    assert found[0][1].startswith("SlimTune")


def test_a_sentence_opening_preposition_is_never_a_subject(papers_bound):
    found = _pct(
        "Under heavy load, the queue grows. Under this rule, the hit rate is 41.0%. Across the sweep, the hit "
        "rate is 44.0%.",
        papers_bound,
    )
    assert [s for _, s, _ in found] == ["SlimTune", "SlimTune"]


def test_a_name_modifying_a_share_s_whole_is_no_baseline_but_a_systems_figure_is(papers_bound):
    found = claims_in_order(
        "We present Brisket, a pipeline-parallel training system. Data centers may use nearly 9% of EU "
        "electricity demand by 2030. Brisket sustains 61% of A100 peak throughput. Brisket reaches 80% of "
        "Flint throughput.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found] == [
        (9.0, None),
        (61.0, "A100 peak throughput"),
        (80.0, "Flint"),
    ]


def test_a_multiple_for_a_name_is_measured_on_it_not_its(papers_bound):
    found = claims_in_order(_OWN + "Speculative decoding gives 1.69x-2.00x for Quokka-K2.5 and 5x for Bilby-NLG.", papers_bound)
    assert [c["subject"] for c in found[1:]] == ["SlimTune", "SlimTune"]


def test_a_system_named_before_a_one_word_measure_is_the_shares_baseline(papers_bound):
    found = claims_in_order(
        "We present Brisket, a pipeline-parallel training system. Brisket keeps 96% of BF16 slope and 91% of "
        "BF16 training throughput.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found] == [(96.0, "BF16"), (91.0, "BF16")]
