"""Numbers that pick a part of a whole ("the first 40% of the layers", "the 1% longest jobs", "(i.e., 0-40%)")
and an unknown in an equation ("2x + 1 ≥ 3") are no claims; a result stated next to them still is."""

from __future__ import annotations

from papers_extract import extracted_claims


def _values(text: str) -> list[tuple[float | None, str]]:
    return [(c["value"], c["unit"]) for c in extracted_claims(text)]


def test_a_portion_picked_by_rank_is_no_claim():
    text = (
        "We present Quill, an optimizer that splits its state between host and device. With a split "
        "ratio of 0.3, Quill assigns the first 30% (i.e., 0-30%) of the parameters to the host and updates "
        "the remaining 70% (i.e., 30-100%) on the device. This lowers the step time by 22% over BarOpt.\n"
    )
    assert _values(text) == [(22.0, "%")]


def test_a_share_ranked_after_it_is_no_claim():
    text = (
        "We present Quill, a scheduler. When we look at the slowest 2% of requests, Quill still serves them "
        "1.4x sooner than FooServe. Figure 9b plots the 2% slowest requests alone.\n"
    )
    assert _values(text) == [(1.4, "x")]


def test_an_unknown_of_an_equation_is_no_multiple():
    text = (
        "We present Quill. For the first tenant to gain from sharing, we need 2x + 1 ≥ 16, i.e., x ≥ 8; "
        "Quill is 1.9x faster than Bar.\n"
    )
    assert _values(text) == [(1.9, "x")]


def test_a_system_named_speed_is_no_result_word():
    # "FooSpeed" holds "speed" but states nothing: the portion it places is still a setting.
    text = (
        "We present Quill. The FooSpeed engine then places the first 30% of the layers on the host. Quill "
        "trains 1.2x faster than FooSpeed.\n"
    )
    assert _values(text) == [(1.2, "x")]


def test_the_accuracy_a_time_to_accuracy_stops_at_is_no_claim():
    text = (
        "We present Quill. On ImageNet, plain data parallelism takes 2.8x longer than Quill to reach a 72% "
        "top-1 accuracy.\n"
    )
    assert _values(text) == [(2.8, "x")]


def test_a_repetition_count_is_no_multiple_and_a_speedup_of_n_times_is():
    text = (
        "We present Quill. Without deduplication, each stage sends the same set of tensors 4 times across "
        "the network. Quill gives a speedup of 3 times over FooPipe.\n"
    )
    assert _values(text) == [(3.0, "x")]


def test_a_comparison_keeps_a_result_in_a_sentence_that_sets_something():
    text = (
        "We present Quill. When we set the micro-batch of FooPipe to match Quill's, FooPipe shows 35% and 48% "
        "throughput slowdowns compared to Quill on the two clusters, respectively.\n"
    )
    assert _values(text) == [(35.0, "%"), (48.0, "%")]
