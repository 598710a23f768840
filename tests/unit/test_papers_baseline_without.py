"""A comparison with a figure reached without a feature ("higher than the best throughput achieved without
recomputation") is against the run without it, not against the figure's description."""

from __future__ import annotations

from papers_extract import claims_by_text


def _claims(text: str) -> dict[str, dict]:
    return claims_by_text(text)


def test_the_run_without_the_feature_is_the_baseline():
    c = _claims(
        "We present Quill, a memory planner. With offloading on, the step rate at long sequences is up to "
        "1.7x higher than the best rate obtained without offloading on the same GPUs.\n"
    )
    assert c["1.7x"]["versus"] == "without offloading"


def test_a_value_set_against_a_value_names_no_baseline_in_chinese():
    # "（3.2 rps 对比 1.6 rps）": two measured values side by side; the baseline stays the one named before.
    c = _claims(
        "我们提出了Quill，一个推理服务系统。\n\n在相同的硬件上，与FooServe相比，Quill 展示了高达 2 倍的吞吐量"
        "（3.2 rps 对比 1.6 rps）在相同的延迟下；或高达 40% 的延迟减少（5 秒对比 8 秒）。Quill 的吞吐量比 FooServe 高 1.5 倍。\n"
    )
    assert c["40%"]["versus"] == "FooServe"


def test_a_named_system_run_without_a_component_is_the_baseline_and_the_result_is_it_with_the_component():
    c = _claims(
        "Using H100 GPUs, we achieve 3.4x faster rollout generation for Llama-3-8B with Rowan Fast Decoder "
        "compared to Rowan without Fast Decoder (baseline) as shown in the figure.\n"
    )
    assert c["3.4x"]["versus"] == "Rowan without Fast Decoder"
    assert c["3.4x"]["subject"] == "Rowan with Fast Decoder"


def test_a_verb_phrase_with_an_object_pronoun_is_no_subject():
    c = _claims("Flexo enables us to cut the step time of a 7B model by 20% on eight GPUs.\n")
    assert "us" not in (c["20%"]["subject"] or "").split()


def test_each_amount_takes_the_comparison_right_before_it():
    c = _claims(
        "We present Quill, a checkpointing system. As shown in Figure 12, Quill improves the checkpoint "
        "frequency over HighFreq by 8x and over Strawman by more than 170x.\n"
    )
    assert c["8x"]["versus"] == "HighFreq" and c["170x"]["versus"] == "Strawman"


def test_a_measure_of_a_named_system_is_that_systems_result():
    c = _claims(
        "We present Quill, a checkpointing system. When N = 16 and k = 3, Ring's probability is 25.0% lower "
        "than that of Quill. As shown in Figure 16, the iteration time with Blocking is 10.1% higher than the "
        "Baseline due to the extra checkpoint time.\n"
    )
    assert (c["25.0%"]["subject"], c["25.0%"]["versus"]) == ("Ring", "Quill")
    assert (c["10.1%"]["subject"], c["10.1%"]["versus"]) == ("Blocking", "Baseline")
