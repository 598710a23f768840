"""Round 12 of the baseline rules (issue 26): what a comparison phrase's words say it is, where it ends, and a
number carried on from the one before it. Own-worded sentences about invented systems, each through the whole
extraction (``extract_knowledge``), with the rules alone and with the trained parse where installed
(``papers_bound``)."""

from __future__ import annotations

from papers_extract import claims_in_order

_OWN = "We present Marlin, a checkpointing library. Marlin cuts recovery time by 35% over Kestrel. "


def test_over_before_a_figure_is_its_bound_not_a_baseline(papers_bound):
    # "achieving over a 2.2x speedup": "over" qualifies the number, it names no system
    found = claims_in_order(
        _OWN + "Restores on Marlin went from 80 s down to 35 s, achieving over a 2.2x speedup.", papers_bound
    )
    assert found[-1]["value"] == 2.2
    assert found[-1]["versus"] != "2.2x speedup"
    assert "speedup" not in (found[-1]["versus"] or "")


def test_a_measure_with_a_system_names_that_system(papers_bound):
    # "compared to the latency with X": the same measure of X, so X is the baseline
    found = claims_in_order(
        _OWN + "Marlin lowers the restore latency by 12% when compared to the latency with plain snapshot files.",
        papers_bound,
    )
    assert found[-1]["value"] == 12
    assert found[-1]["versus"] == "plain snapshot files"


def test_a_gap_or_distance_from_x_after_the_number_names_x(papers_bound):
    found = claims_in_order(
        _OWN + "Beyond eight nodes the restore rate stalls, with up to a 3x gap from perfect linear scaling. "
        "The small jobs still sit 5x away from peak disk bandwidth.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found[-2:]] == [
        (3, "perfect linear scaling"),
        (5, "peak disk bandwidth"),
    ]


def test_a_verb_of_change_after_the_phrase_is_no_part_of_the_baseline(papers_bound):
    # "the advantage over X grows with ...": the clause's verb, cut by the preposition after it
    found = claims_in_order(
        _OWN + "The advantage over eager flushing grows with job size, from parity on tiny jobs to 2.6x on the "
        "largest ones.",
        papers_bound,
    )
    assert found[-1]["value"] == 2.6
    assert found[-1]["versus"] == "eager flushing"


def test_a_device_count_glued_to_its_device_stays_in_the_baseline(papers_bound):
    # "the cheapest 1xK40 node": not a number that opens another statement
    found = claims_in_order(
        _OWN + "Marlin lowers storage cost by up to 2.8x compared to the baseline of renting the cheapest 1×K40 "
        "node.",
        papers_bound,
    )
    assert found[-1]["value"] == 2.8
    assert found[-1]["versus"] == "baseline of renting the cheapest 1×K40 node"


def test_over_a_horizon_is_a_stretch_of_time_not_a_baseline(papers_bound):
    found = claims_in_order(
        _OWN + "We see a cost cut of up to 1.6x for long jobs that can exploit prices over longer horizons.",
        papers_bound,
    )
    assert found[-1]["value"] == 1.6
    assert found[-1]["versus"] in (None, "Kestrel")
    assert "horizon" not in (found[-1]["versus"] or "")


def test_a_number_carried_on_by_a_participle_of_change_keeps_the_baseline(papers_bound):
    # "by 17% on average, growing to 30% at ...": the same comparison at another setting
    found = claims_in_order(
        _OWN + "Marlin cuts stall time by about 14% over Kestrel on average, growing to about 27% at the "
        "largest cluster size.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found[-2:]] == [(14, "Kestrel"), (27, "Kestrel")]


def test_a_gerund_after_of_stays_in_the_baseline(papers_bound):
    # "the baseline of using X": what the baseline is, not a setting that ends the phrase
    found = claims_in_order(
        _OWN + "Marlin lowers storage cost by up to 2.4x compared to the baseline of using a single shared "
        "disk.",
        papers_bound,
    )
    assert found[-1]["value"] == 2.4
    assert found[-1]["versus"] == "baseline of using a single shared disk"


def test_a_distance_phrase_runs_over_a_line_break(papers_bound):
    found = claims_in_order(
        _OWN + "Restores stall, with up to a 3x gap from perfect\nlinear scaling on big clusters.", papers_bound
    )
    assert (found[-1]["value"], found[-1]["versus"]) == (3, "perfect linear scaling")
