"""The analytic cost model: how step time and memory respond to the layout."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from assay.scheduler.cluster import get_cluster
from assay.scheduler.cost_model import GPU_DEFAULTS, CostModel, CostParams, Observation
from assay.scheduler.cost_model._analytic import estimate_step
from assay.scheduler.cost_model._fit import LinearisedRuns
from assay.scheduler.layout import Layout
from assay.scheduler.model_spec import get_model

A100 = get_cluster("a100-80g")
GPT175 = get_model("gpt-175b")


def est(layout: Layout, model=GPT175, cluster=A100, params: CostParams = GPU_DEFAULTS):
    return estimate_step(model, layout, cluster, params)


def test_recomputation_trades_memory_for_time():
    on = est(Layout(8, 8, 16, 1, 1536, recompute=True))
    off = est(Layout(8, 8, 16, 1, 1536, recompute=False))
    assert on.memory_bytes < off.memory_bytes / 2
    # One more forward pass: roughly 4/3 of the compute.
    assert 1.2 < on.compute_s / off.compute_s < 1.4


def test_bubble_matches_p_minus_1_over_m_for_even_stages():
    e = est(Layout(dp=8, tp=8, pp=8, micro_batch_size=1, global_batch=512))  # 12 layers per stage, m = 64
    slowest = max(e.stage_times_s)
    assert e.bubble_s / (64 * slowest) == pytest.approx(7 / 64, rel=0.02)


def test_more_micro_batches_shrink_the_bubble_share():
    small = est(Layout(8, 8, 16, 1, 256))
    large = est(Layout(8, 8, 16, 1, 2048))
    assert large.bubble_s / large.step_time_s < small.bubble_s / small.step_time_s / 4


def test_tensor_parallelism_cuts_memory_and_adds_communication():
    t4 = est(Layout(16, 4, 16, 1, 1536))
    t8 = est(Layout(8, 8, 16, 1, 1536))
    assert t8.memory_bytes < t4.memory_bytes
    assert t8.tp_comm_s / t8.step_time_s > t4.tp_comm_s / t4.step_time_s


def test_tensor_parallelism_across_nodes_costs_more_than_inside_one():
    model = get_model("gpt-18b")
    inside = est(Layout(1, 8, 1, 1, 8), model)
    across = est(Layout(1, 16, 1, 1, 8), model)
    per_layer_inside = inside.tp_comm_s / inside.compute_s
    per_layer_across = across.tp_comm_s / across.compute_s
    assert per_layer_across > 2 * per_layer_inside


def test_gradient_allreduce_grows_with_model_and_overlap_hides_it():
    slow_link = replace(A100, inter_bw=1e9)
    exposed = est(Layout(64, 1, 1, 1, 512), get_model("gpt-1.7b"), slow_link)
    hidden = est(Layout(64, 1, 1, 1, 512), get_model("gpt-1.7b"), slow_link, replace(GPU_DEFAULTS, overlap=1.0))
    # 3.3 GB of half-precision gradients, ring over 64 ranks, 8 per node each with its own 1 GB/s NIC.
    grads = get_model("gpt-1.7b").num_params * 2
    expected = 2 * 63 / 64 * grads / (8 * 1e9 * GPU_DEFAULTS.inter_bw_eff)
    assert exposed.dp_comm_s == pytest.approx(expected, rel=0.01)
    assert hidden.dp_comm_s < exposed.dp_comm_s


def test_zero1_shards_the_optimizer_over_data_parallel_ranks():
    plain = est(Layout(32, 8, 4, 1, 1536))
    zero = est(Layout(32, 8, 4, 1, 1536, zero1=True))
    params_per_device = GPT175.num_params / 32
    saved = plain.memory_bytes - zero.memory_bytes
    assert saved == pytest.approx(params_per_device * 12 * (1 - 1 / 32), rel=0.05)


def test_1f1b_first_stage_holds_the_most_activations():
    e = est(Layout(8, 8, 16, 1, 1536, recompute=False))
    assert e.stage_memory_bytes[0] > e.stage_memory_bytes[8] > e.stage_memory_bytes[14]


def test_gpt_175b_on_one_gpu_does_not_fit():
    e = est(Layout(1, 1, 1, 1, 8))
    assert not e.fits and e.memory_bytes > 16 * GPT175.num_params * 0.99


def test_invalid_layouts_say_why():
    assert Layout(2, 3, 1, 1, 8).problems(get_model("gpt-tiny"))  # 3 does not divide 4 heads
    assert Layout(1, 1, 5, 1, 8).problems(get_model("gpt-tiny"))  # 5 stages for 4 layers
    assert Layout(3, 1, 1, 1, 8).problems(get_model("gpt-tiny"))  # 8 sequences over 3 ranks
    assert Layout(1, 1, 2, 1, 8, stage_layers=(1, 2)).problems(get_model("gpt-tiny"))
    with pytest.raises(ValueError, match="divisible"):
        est(Layout(3, 1, 1, 1, 8), get_model("gpt-tiny"))


def test_throughput_numbers_agree_with_step_time():
    layout = Layout(4, 8, 32, 1, 1536)
    e = est(layout)
    assert e.tokens_per_s == pytest.approx(1536 * 2048 / e.step_time_s)
    assert e.tflops_per_device == pytest.approx(GPT175.flops_per_step(1536) / e.step_time_s / 1024 / 1e12)
    assert e.model_tflops_per_device < e.tflops_per_device


def test_cost_model_uses_fitted_constants_for_its_hardware_only():
    faster = replace(GPU_DEFAULTS, flop_fraction=0.9)
    model = CostModel().with_params("a100-80g", faster)
    layout = Layout(8, 8, 16, 1, 1536)
    assert model.step_time(GPT175, layout, A100) < CostModel().step_time(GPT175, layout, A100)
    h100 = get_cluster("h100-80g")
    assert model.step_time(GPT175, layout, h100) == CostModel().step_time(GPT175, layout, h100)
    restored = CostModel.from_params_json(model.params_json())
    assert restored.params_for(A100) == faster


def test_linearised_prediction_equals_the_model():
    """The fit evaluates runs through their linear form; it must agree with estimate_step exactly."""
    rng = random.Random(7)
    cases = []
    for name, cluster in [("gpt-tiny", get_cluster("cpu")), ("gpt-mini", get_cluster("cpu")),
                          ("gpt-7.5b", A100), ("gpt-175b", A100), ("gpt-175b", get_cluster("h100-80g"))]:
        model = get_model(name)
        for _ in range(6):
            tp = rng.choice([t for t in (1, 2, 4, 8, 16) if model.heads % t == 0])
            pp = rng.choice([p for p in (1, 2, 3, 4, 8) if p <= model.layers])
            dp = rng.choice([1, 2, 4, 8])
            b = rng.choice([1, 2, 4])
            layout = Layout(dp, tp, pp, b, dp * b * rng.choice([1, 3, 16]), recompute=rng.random() < 0.5,
                            zero1=rng.random() < 0.3)
            cases.append((model, layout, cluster))
    obs = [Observation(str(i), m, lay, c.for_workers(lay.world_size), 1.0) for i, (m, lay, c) in enumerate(cases)]
    params = CostParams(0.6, 0.7, 0.8, 0.5, 1.7, 0.4, 1e-4, 0.03)
    predicted = LinearisedRuns(obs).predict(params)
    for o, p in zip(obs, predicted, strict=True):
        assert p == pytest.approx(estimate_step(o.model, o.layout, o.cluster, params).step_time_s, rel=1e-9)
