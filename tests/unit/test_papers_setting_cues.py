"""Settings that read like claims, and a multiple before "GPU" that is one, through the whole extraction path:
a coefficient swept between values, a parameter halved from one value to another, a workload's share written
without "of", the size of a run ("for 2x more resources"), a table's reference cell (1x), and a multiple in 倍
or after a change verb before a measured noun of the GPU ("降低9倍 GPU 显存")."""

from __future__ import annotations

from papers_extract import claims_in_order


def _values(text: str) -> list[tuple[float, str]]:
    return [(c["value"], c["unit"]) for c in claims_in_order(text)]


def test_a_coefficient_moved_between_values_is_a_setting():
    text = "Raising the decay coefficient from 15% to 30% freezes layers too early, while Fir is 1.4x faster."
    assert _values(text) == [(1.4, "x")]


def test_halving_a_parameter_from_one_value_to_another_is_a_setting():
    text = "As Figure 7 shows, halving the window from 12 to 6 barely moves accuracy, and Fir is 1.4x faster."
    assert _values(text) == [(1.4, "x")]


def test_halving_the_latency_stays_a_result():
    assert (50.0, "%") in _values("Fir overlaps the two phases, halving the step latency of the baseline.")


def test_a_share_of_requests_without_of_is_the_workload():
    text = "We replay the trace and have 30% requests produce images; Fir cuts tail latency by 2.2x."
    assert _values(text) == [(2.2, "x")]


def test_more_resources_for_an_efficiency_is_the_size_of_the_run():
    text = "Growing the ring, Fir keeps 81% of its efficiency for 4x more resources."
    assert _values(text) == [(81.0, "%")]


def test_a_whole_one_in_a_table_is_the_reference():
    text = (
        "Fir is quick on every precision.\n\nMetric | int4 | int8 | fp16\n"
        "Decode speedup | 2.75× | 1.62× | 1×\n"
    )
    assert _values(text) == [(2.75, "x"), (1.62, "x")]


def test_a_multiple_in_bei_before_gpu_memory_is_a_claim():
    assert (9.0, "x") in _values("Fir 训练 GPT 模型：降低9倍 GPU 显存占用，或线性扩展。")


def test_a_reduction_before_gpu_memory_is_a_claim():
    assert (3.0, "x") in _values("With offloading, Fir can reduce 3x GPU memory for the same model.")


def test_a_count_of_machines_stays_no_claim():
    assert _values("We train on 8x A100 servers and 4x GPU nodes, and Fir is 1.3x faster than Oak.") == [
        (1.3, "x")
    ]
