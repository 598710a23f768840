"""The cost model and planner against Megatron-LM's published weak-scaling table (Narayanan et al.,
SC'21, Table 1): predicted per-GPU throughput within 15 % of the published figure, and the planner's own
layout never predicted slower than the published one."""

from __future__ import annotations

import pytest

from assay.scheduler._megatron_table import PEAK_TFLOPS, ROWS, MegatronRow
from assay.scheduler.cluster import get_cluster
from assay.scheduler.cost_model import CostModel, Observation, StepEstimate, fit
from assay.scheduler.layout import Layout
from assay.scheduler.model_spec import get_model
from assay.scheduler.planner import plan_layout

A100 = get_cluster("a100-80g")
TOLERANCE = 0.15


def published_layout(row: MegatronRow, cost_model: CostModel) -> tuple[Layout, StepEstimate]:
    """The row's (t, p, d) with recomputation (as in the paper) and the best micro-batch that fits: the
    table does not give the micro-batch size."""
    model = get_model(row.model)
    best = None
    for b in range(1, 9):
        layout = Layout(row.dp, row.tp, row.pp, b, row.global_batch, recompute=True)
        if layout.problems(model):
            continue
        est = cost_model.estimate(model, layout, A100)
        if est.fits and (best is None or est.step_time_s < best[1].step_time_s):
            best = (layout, est)
    assert best is not None, f"{row.model}: the published layout does not fit in the memory model"
    return best


def measured_step_time(row: MegatronRow) -> float:
    """The paper's throughput as a step time: its eq. 3 FLOPs over (teraFLOP/s per GPU x GPUs)."""
    return get_model(row.model).flops_per_step(row.global_batch, recompute=True) / (row.tflops_per_gpu * 1e12 * row.gpus)


@pytest.fixture(scope="module")
def fitted() -> tuple[CostModel, object]:
    obs = []
    for row in ROWS:
        layout, _ = published_layout(row, CostModel.default())
        obs.append(Observation(row.model, get_model(row.model), layout, A100, measured_step_time(row)))
    return fit(obs)


def test_the_table_is_self_consistent():
    for row in ROWS:
        assert row.gpus % (row.tp * row.pp) == 0
        assert row.global_batch % row.dp == 0
        assert row.tflops_per_gpu * row.gpus / 1000 == pytest.approx(row.aggregate_pflops, rel=0.02)
        assert 100 * row.tflops_per_gpu / PEAK_TFLOPS == pytest.approx(row.percent_of_peak, abs=1.0)
    assert [r.params_billion for r in ROWS] == sorted(r.params_billion for r in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.model)
def test_analytic_defaults_predict_the_published_throughput(row):
    _, est = published_layout(row, CostModel.default())
    assert est.tflops_per_device == pytest.approx(row.tflops_per_gpu, rel=TOLERANCE)


def test_fitted_constants_predict_every_row_and_held_out_rows(fitted):
    model, report = fitted
    assert report.n_runs == len(ROWS)
    assert report.holdout_mape < 5.0  # leave-one-out over the ten rows
    (group,) = report.groups
    assert 0.5 < group.params.flop_fraction < 0.95
    for row in ROWS:
        _, est = published_layout(row, model)
        assert est.tflops_per_device == pytest.approx(row.tflops_per_gpu, rel=TOLERANCE), row.model
        assert abs(report.errors[row.model]) < 100 * TOLERANCE


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.model)
def test_planner_is_never_predicted_slower_than_the_published_layout(row):
    model = get_model(row.model)
    _, published = published_layout(row, CostModel.default())
    plan = plan_layout(model, row.gpus, A100, row.global_batch)
    assert plan.dp * plan.tp * plan.pp == row.gpus
    assert plan.estimate.fits and sum(plan.stage_layers) == model.layers
    assert plan.step_time_s <= published.step_time_s * (1 + 1e-9)
