"""Reproductions without a cluster: which claims are reproducible, the sweep's job specs, the steady step
times, the verdict on a measured ratio, and the extrapolation of a sweep's runs to the claim's scale."""

from __future__ import annotations

import json

import pytest

from assay.checks import ClaimSetting, plan_sweep, reproduce
from assay.checks._extrapolate import best_estimate, claim_batch, extrapolate
from assay.checks._interval import Interval, ratio_interval
from assay.checks._interval import judge as judge_interval
from assay.checks._reproduce import SideSpeed, steady_step_times
from assay.checks._sweep import Unreproducible, micro_batch, scale_layout
from assay.scheduler.cluster import get_cluster
from assay.scheduler.cost_model import CostModel
from assay.scheduler.layout import Layout
from assay.scheduler.model_spec import get_model
from assay.store import write_rows

LAYOUT_CLAIM = {
    "claim_id": "c-pp-tp-4", "subject": "pipeline parallelism", "versus": "tensor parallelism",
    "metric": "throughput", "measure": "throughput", "value": 1.3, "unit": "x", "gpus": 4,
    "model": "gpt-7.5b", "hardware": "A100 80GB",
}


def claim(**changes) -> ClaimSetting:
    return ClaimSetting.from_row({**LAYOUT_CLAIM, **changes})


def no_echo(_line: str) -> None:
    pass


@pytest.mark.parametrize(("changes", "words"), [
    ({"measure": "memory", "metric": "peak memory", "unit": "GB"}, "this claim is about memory"),
    ({"measure": "mfu", "metric": "MFU"}, "this claim is about mfu"),
    ({"subject": "Megatron-LM", "versus": "DeepSpeed"}, "'Megatron-LM' is not a parallel layout"),
    ({"versus": None, "unit": "tokens/s"}, "names no baseline"),
    ({"gpus": None}, "neither on how many workers nor at which degrees"),
    ({"versus": "pipeline parallelism"}, "are the same layout"),
])
def test_claims_that_are_not_layout_comparisons_of_speed_are_untestable(changes, words):
    check = reproduce("unused.duckdb", claim(**changes), workers=2, echo=no_echo)
    assert (check.kind, check.verdict) == ("reproduction", "untestable")
    assert words in check.reason
    assert check.evidence == {}


def test_a_single_worker_cannot_compare_two_layouts():
    check = reproduce("unused.duckdb", claim(), workers=1, echo=no_echo)
    assert check.verdict == "untestable" and "needs at least 2" in check.reason


def test_a_pp_vs_tp_claim_becomes_pp_vs_tp_on_the_workers_at_hand():
    sweep = plan_sweep(claim(), 2, steps=16)
    assert sweep.claimed == (Layout(pp=4), Layout(tp=4))
    assert sweep.scaled == (Layout(pp=2), Layout(tp=2)) and sweep.workers == 2
    assert [(j.side, j.model) for j in sweep.jobs] == [("subject", "gpt-tiny"), ("baseline", "gpt-tiny"),
                                                       ("subject", "gpt-mini"), ("baseline", "gpt-mini")]
    for job in sweep.jobs:
        spec = job.spec
        assert spec.parallel == job.layout
        # pinned to its size: the scheduler never resizes or re-plans the layout being measured
        assert spec.min_workers == spec.max_workers == 2
        assert spec.steps == 16 and spec.seed == 0
        assert spec.model.layers == get_model(job.model).layers and spec.global_batch == 32
        assert spec.checkpoint_every < spec.steps
        assert job.side in spec.name and job.model in spec.name and " " not in spec.name
    pp, tp = sweep.jobs[0].spec, sweep.jobs[1].spec
    assert pp.global_batch // pp.micro_batch >= 2 * 2  # the pipeline gets micro-batches to fill it
    assert tp.micro_batch == tp.global_batch  # no pipeline: one micro-batch


def test_the_claims_own_size_is_kept_when_the_cluster_has_room():
    sweep = plan_sweep(claim(gpus=2), 8)
    assert sweep.scaled == (Layout(pp=2), Layout(tp=2)) and sweep.workers == 2


def test_models_that_cannot_run_a_layout_are_left_out_with_the_reason():
    sweep = plan_sweep(claim(gpus=8), 8, models=("gpt-tiny", "gpt-mini"))
    assert sweep.scaled == (Layout(pp=8), Layout(tp=8))
    assert sweep.models == ["gpt-mini"]  # 8 heads, 8 layers; gpt-tiny has 4 of each
    assert "gpt-tiny" in sweep.skipped and "8 stages for 4 layers" in sweep.skipped["gpt-tiny"]
    with pytest.raises(Unreproducible, match="no CPU model of gpt-tiny runs both"):
        plan_sweep(claim(gpus=8), 8, models=("gpt-tiny",))


def test_scaling_down_drops_data_parallelism_first_then_the_larger_model_parallel_degree():
    assert scale_layout(Layout(dp=4, tp=2, pp=1), 4) == Layout(dp=2, tp=2, pp=1)
    assert scale_layout(Layout(dp=2, tp=8, pp=2), 4) == Layout(dp=1, tp=2, pp=2)
    assert scale_layout(Layout(pp=6), 2) == Layout()  # 6 -> 3 -> 1: halving gives 3, which is still too many
    assert scale_layout(Layout(pp=6), 3) == Layout(pp=3)
    assert scale_layout(Layout(tp=2), 4) == Layout(tp=2)


def test_sides_that_meet_when_scaled_down_are_unreproducible():
    # dp=2 tp=2 vs tp=4 on 2 workers: both become tp=2
    with pytest.raises(Unreproducible, match="both sides become tp=2"):
        plan_sweep(claim(subject="DP=2, TP=2", versus="TP=4"), 2)


def test_micro_batches_fill_a_pipeline():
    assert micro_batch(Layout(pp=4), 32) == 4
    assert micro_batch(Layout(dp=2, pp=2), 32) == 4
    assert micro_batch(Layout(tp=2), 32) == 32
    assert micro_batch(Layout(pp=8), 8) == 1


def test_warm_up_and_the_first_step_after_a_restart_are_left_out():
    steps = {1: 900.0, 2: 300.0, 3: 100.0, 4: 102.0, 5: 101.0, 6: 700.0, 7: 99.0}
    assert steady_step_times(steps, restarts=[5]) == [100.0, 102.0, 101.0, 99.0]
    assert steady_step_times({1: 50.0, 2: 60.0}) == [50.0, 60.0]  # too short to leave anything out


def test_the_ratio_is_the_subjects_speed_over_the_baselines():
    fast = SideSpeed("a", "ra", (100.0, 100.0, 110.0, 90.0), 2048)
    slow = SideSpeed("b", "rb", (150.0, 150.0, 160.0, 140.0), 2048)
    interval = ratio_interval([fast.step_ms], [slow.step_ms], invert=True)
    assert interval.point == pytest.approx(1.5) == pytest.approx(fast.tokens_per_s / slow.tokens_per_s)
    assert interval.low < interval.point < interval.high


@pytest.mark.parametrize(("claimed", "observed", "low", "high", "verdict", "words"), [
    (1.3, 1.2, 1.1, 1.3, "consistent", "lies inside it widened by the 25%"),
    (2.0, 1.3, 0.9, 2.1, "inconclusive", "more rounds"),
    (1.3, 0.8, 0.7, 0.9, "contradicted", "outside it"),
    (0.7, 1.4, 1.3, 1.5, "contradicted", "outside it"),
    (3.0, 1.2, 1.1, 1.3, "contradicted", "2.31x beyond its nearest end"),
    (None, 1.2, 1.1, 1.3, "consistent", "the subject wins"),
    (None, 0.9, 0.8, 0.95, "contradicted", "the baseline wins"),
])
def test_verdicts(claimed, observed, low, high, verdict, words):
    got, why = judge_interval(claimed, Interval(observed, low, high, 3, 30), 0.25, unit_of_more="rounds")
    assert got == verdict and words in why


def test_the_claims_scale_is_estimated_as_its_authors_would_tune_it():
    model = get_model("gpt-7.5b")
    batch = claim_batch(claim(global_batch=30), model, (Layout(dp=4), Layout(dp=2, tp=2)))
    assert batch == 32  # a multiple of both sides' data parallelism
    est, layout = best_estimate(CostModel.default(), model, Layout(pp=4), 32, get_cluster("a100-80g"))
    assert est.fits and layout.pp == 4
    for mb in (1, 2, 4, 8):
        for recompute in (False, True):
            other = CostModel.default().estimate(model, layout.__class__(1, 1, 4, mb, 32, recompute=recompute),
                                                 get_cluster("a100-80g"))
            assert not other.fits or other.step_time_s >= est.step_time_s
    assert best_estimate(CostModel.default(), get_model("gpt-tiny"), Layout(tp=8), 32, get_cluster("cpu")) is None


def _sweep_runs(db, sweep, step_ms):
    """Rows as the jobs would write them for each job of ``sweep``: its run, with its spec in the config."""
    runs, jobs, speeds = [], [], {}
    for i, job in enumerate(sweep.jobs):
        run_id, job_id = f"run-{i}", f"job-{i}"
        lay = job.layout
        runs.append({"run_id": run_id, "framework": "assay", "status": "completed", "model": job.model,
                     "world_size": lay.world_size, "dp": lay.dp, "tp": lay.tp, "pp": lay.pp,
                     "micro_batch_size": job.spec.micro_batch, "global_batch_size": job.spec.global_batch,
                     "job_id": job_id, "hardware": "cpu", "config": json.dumps({"spec": job.spec.to_dict()})})
        jobs.append({"job_id": job_id, "run_id": run_id})
        speeds[job_id] = SideSpeed(job_id, run_id, (step_ms[i],), job.spec.tokens_per_step)
    write_rows(db, {"runs": runs})
    return jobs, speeds


def test_a_sweep_of_four_runs_fits_the_cost_model_and_extrapolates(tmp_path):
    db = tmp_path / "graph.duckdb"
    setting = claim()
    sweep = plan_sweep(setting, 2)
    jobs, speeds = _sweep_runs(db, sweep, [105.0, 143.0, 950.0, 1200.0])
    out = extrapolate(db, setting, sweep, jobs, speeds)
    assert out["fit"]["n_runs"] == 4 and out["fit"]["fitted"]
    assert out["ratio"] > 0 and out["model"] == "gpt-7.5b" and out["hardware"] == "a100-80g"
    assert out["workers"] == 4
    assert "cpu constants fitted on the sweep's 4 runs" in out["constants"]
    assert "a100-80g constants: the analytic defaults" in out["constants"]
    assert f"{out['ratio']:.2f}x" in out["summary"]


def test_two_runs_are_too_few_to_fit_and_the_extrapolation_says_so(tmp_path):
    db = tmp_path / "graph.duckdb"
    setting = claim(model=None, params_b=None, hardware=None)
    sweep = plan_sweep(setting, 2, models=("gpt-tiny",))
    jobs, speeds = _sweep_runs(db, sweep, [105.0, 143.0])
    out = extrapolate(db, setting, sweep, jobs, speeds)
    assert out["fit"] == {**out["fit"], "n_runs": 2, "fitted": False}
    assert out["ratio"] is None and "names no model size" in out["summary"]
