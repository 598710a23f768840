"""Scheduling policies: each one's behaviour on small, hand-built rounds (no simulator, no Ray)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay.scheduler.policies import (
    BatchLimits,
    ClusterView,
    Decision,
    GoodputModel,
    JobView,
    available_policies,
    fit_perf_params,
    get_policy,
    register_policy,
    split_batch,
)
from assay.scheduler.policies._placement import pack, spread
from assay.scheduler.policies._tiresias import Tiresias

LIMITS = BatchLimits(init_batch=128, max_batch=4096, min_local=32, max_local=512)


def job(job_id: str, t: float = 0.0, gpus: int = 1, **kw) -> JobView:
    return JobView(job_id=job_id, submit_time=t, requested_workers=gpus, **kw)


def used(cluster: ClusterView, decisions: dict[str, Decision]) -> list[int]:
    free = list(cluster.capacity)
    for d in decisions.values():
        for node in d.placement or ():
            free[node] -= 1
    return free


# -- the interface ---------------------------------------------------------------------------------------

def test_registry_lists_builtins_and_accepts_a_users_policy():
    assert {"fifo", "tiresias", "goodput"} <= set(available_policies())
    with pytest.raises(KeyError, match="known: .*fifo"):
        get_policy("nope")

    class Idle:
        name = "idle"

        def decide(self, jobs, cluster, now):
            return {j.job_id: Decision(0, "idle: never runs anything") for j in jobs}

    register_policy("idle-test", Idle)
    out = get_policy("idle-test").decide([job("a")], ClusterView.uniform(1, 4), 0.0)
    assert out["a"].workers == 0 and out["a"].reason.startswith("idle")


def test_unknown_knob_names_the_policy():
    with pytest.raises(TypeError, match="policy 'goodput'"):
        get_policy("goodput", no_such_knob=1)


# -- fifo ------------------------------------------------------------------------------------------------

def test_fifo_starts_in_submission_order_and_the_head_blocks():
    cluster = ClusterView.uniform(2, 4)
    jobs = [job("late", t=20, gpus=2), job("first", t=0, gpus=4), job("big", t=10, gpus=8)]
    out = get_policy("fifo").decide(jobs, cluster, 30.0)
    assert out["first"].workers == 4
    assert out["big"].workers == 0 and "head of the queue" in out["big"].reason
    assert out["late"].workers == 0 and "behind big" in out["late"].reason
    backfill = get_policy("fifo", backfill=True).decide(jobs, cluster, 30.0)
    assert backfill["late"].workers == 2


def test_fifo_never_preempts_and_keeps_placements():
    cluster = ClusterView.uniform(1, 4)
    running = job("old", t=5, gpus=4, workers=4, placement=(0, 0, 0, 0))
    out = get_policy("fifo").decide([job("new", t=0, gpus=1), running], cluster, 60.0)
    assert out["old"].workers == 4 and out["old"].placement == (0, 0, 0, 0)
    assert out["new"].workers == 0


# -- tiresias --------------------------------------------------------------------------------------------

def test_tiresias_preempts_the_job_with_more_attained_service():
    cluster = ClusterView.uniform(1, 4)
    policy = Tiresias(thresholds=(3600.0,))
    hog = job("hog", t=0, gpus=4, workers=4, placement=(0, 0, 0, 0), attained_service=4 * 3600.0)
    fresh = job("fresh", t=100, gpus=4)
    out = policy.decide([hog, fresh], cluster, 200.0)
    assert out["fresh"].workers == 4
    assert out["hog"].workers == 0 and "preempted" in out["hog"].reason


def test_tiresias_keeps_fifo_order_within_a_queue_and_skips_jobs_that_do_not_fit():
    cluster = ClusterView.uniform(2, 4)
    jobs = [job("a", t=0, gpus=4), job("b", t=1, gpus=8), job("c", t=2, gpus=2), job("d", t=3, gpus=4)]
    out = get_policy("tiresias").decide(jobs, cluster, 60.0)
    assert [out[k].workers for k in "abcd"] == [4, 0, 2, 0]
    assert min(used(cluster, out)) >= 0


def test_tiresias_spreads_like_pollux_artifact():
    free = [2, 4, 4, 1]
    assert spread(5, free) == (1, 1, 1, 1, 2)
    assert free == [2, 0, 3, 1]


# -- placement -------------------------------------------------------------------------------------------

def test_pack_uses_fewest_nodes_and_best_fit():
    free = [3, 4, 1, 4]
    assert pack(1, free) == (2,)
    assert pack(6, free) == (1, 1, 1, 1, 0, 0)
    assert pack(20, [1, 1]) is None


# -- the goodput model -----------------------------------------------------------------------------------

def truth(nodes, workers, atomic, sync_cost):
    compute = 0.02 + 0.001 * atomic
    sync = 0.0 if workers == 1 else sync_cost * (4.0 if nodes > 1 else 1.0)
    return compute + sync, sync


def model_from(sync_cost: float, sizes=(1, 2, 4), noise: float = 50.0) -> GoodputModel:
    m = GoodputModel(LIMITS)
    for k in sizes:
        for atomic in (64, 128):
            nodes = math.ceil(k / 4)
            step, sync = truth(nodes, k, atomic, sync_cost)
            m.observe_step(nodes, k, atomic, step, sync)
    m.observe_noise(1.0, noise)
    return m


def test_fit_recovers_compute_and_network_time():
    m = model_from(0.05)
    p = m.params
    assert p.alpha_c == pytest.approx(0.02, rel=0.05) and p.beta_c == pytest.approx(0.001, rel=0.05)
    step, _ = truth(1, 4, 100, 0.05)
    from assay.scheduler.policies._goodput_model import predict_step_time
    pred = predict_step_time(p, np.array(1), np.array(4), np.array(100), np.array(0))
    assert float(pred) == pytest.approx(step, rel=0.1)


def test_fit_with_one_batch_size_splits_compute_evenly():
    p = fit_perf_params([1], [1], [64], [0.1], [0.0])
    assert p.alpha_c == pytest.approx(0.05) and p.beta_c * 64 == pytest.approx(0.05)
    # Never seen across nodes: assumed 10 % slower than inside one node.
    q = fit_perf_params([1, 1, 1], [1, 2, 4], [64, 64, 64], [0.1, 0.15, 0.2], [0.0, 0.05, 0.1])
    assert q.alpha_n == pytest.approx(1.1 * q.alpha_r) and q.alpha_r > 0.01


def test_unobserved_model_rates_only_one_worker():
    good, batch = GoodputModel(LIMITS).table(8)
    assert good[1] == 1.0 and not good[2:].any() and batch[1] == 128


def test_larger_batches_pay_only_with_gradient_noise():
    quiet, noisy = model_from(0.01, noise=0.01), model_from(0.01, noise=1000.0)
    assert quiet.best(1, 1)[1] < noisy.best(1, 1)[1]
    assert quiet.efficiency_gain(1024)[()] == pytest.approx(1.0, abs=0.01)


def test_split_batch_follows_adaptdl_rules():
    assert split_batch(2048, 6, LIMITS) == (342, 0)
    assert split_batch(4096, 4, LIMITS) == (512, 1)  # 1024 per GPU: two steps of 512
    assert split_batch(256, 1, LIMITS) == (128, 1)  # one GPU above the initial batch: accumulate
    fixed = BatchLimits(256, 32768, 32, 32768, fixed_batch=32768)
    assert split_batch(32768, 1, fixed) == (16384, 1)


# -- goodput ---------------------------------------------------------------------------------------------

def test_goodput_gives_more_workers_to_the_job_that_scales():
    cluster = ClusterView.uniform(4, 4)
    jobs = [job("scales", model=model_from(0.001), limits=LIMITS, attained_service=10.0),
            job("stalls", model=model_from(0.5), limits=LIMITS, attained_service=10.0)]
    out = get_policy("goodput", growth=8).decide(jobs, cluster, 600.0)
    assert out["scales"].workers > out["stalls"].workers >= 1
    assert out["scales"].workers + out["stalls"].workers <= 16
    assert min(used(cluster, out)) >= 0


def test_goodput_respects_min_and_max_workers():
    cluster = ClusterView.uniform(4, 4)
    capped = job("capped", max_workers=2, model=model_from(0.001), limits=LIMITS)
    gang = job("gang", min_workers=6, model=model_from(0.001, sizes=(6,)), limits=LIMITS)
    out = get_policy("goodput", growth=8).decide([capped, gang], cluster, 600.0)
    assert 1 <= out["capped"].workers <= 2
    assert out["gang"].workers == 0 or out["gang"].workers >= 6
    small = ClusterView.uniform(1, 4)
    assert get_policy("goodput").decide([gang], small, 600.0)["gang"].workers == 0


def test_goodput_starts_unmeasured_jobs_on_one_worker_and_caps_growth():
    cluster = ClusterView.uniform(16, 4)
    new = get_policy("goodput").decide([job("new", model=GoodputModel(LIMITS), limits=LIMITS)], cluster, 0.0)
    assert new["new"].workers == 1
    measured = model_from(0.0001, sizes=(1, 2))
    for growth, cap in ((2, 4), (4, 8)):
        out = get_policy("goodput", growth=growth).decide([job("j", model=measured, limits=LIMITS)], cluster, 0.0)
        assert 1 < out["j"].workers <= cap


def test_goodput_restart_cost_keeps_a_small_improvement_from_resizing():
    cluster = ClusterView.uniform(1, 5)
    running = job("r", t=0, workers=4, placement=(0, 0, 0, 0), model=model_from(0.0001, sizes=(1, 2, 4)),
                  limits=LIMITS, attained_service=4 * 3600.0)
    costly = get_policy("goodput", min_resize=0.0).decide([running], cluster, 7200.0)
    assert costly["r"].workers == 4 and costly["r"].placement == (0, 0, 0, 0)
    free = get_policy("goodput", min_resize=0.0, restart_s=0.0).decide([running], cluster, 7200.0)
    assert free["r"].workers == 5


def test_goodput_favours_the_job_with_less_attained_service_when_short():
    cluster = ClusterView.uniform(1, 2)
    jobs = [job(f"j{i}", t=0, model=model_from(0.0001), limits=LIMITS, attained_service=s)
            for i, s in enumerate((50 * 3600.0, 10.0, 20 * 3600.0))]
    out = get_policy("goodput").decide(jobs, cluster, 100.0)
    assert out["j1"].workers >= 1 and out["j0"].workers == 0


def test_goodput_decisions_carry_reason_batch_and_a_valid_placement():
    cluster = ClusterView.uniform(2, 4)
    jobs = [job(f"j{i}", model=model_from(0.01), limits=LIMITS) for i in range(3)]
    out = get_policy("goodput").decide(jobs, cluster, 100.0)
    for d in out.values():
        assert d.reason.startswith("goodput:")
        if d.workers:
            assert len(d.placement) == d.workers
            assert LIMITS.init_batch <= d.batch_size <= LIMITS.max_batch
    assert min(used(cluster, out)) >= 0


def test_free_pool_places_like_the_functions():
    from assay.scheduler.policies._placement import FreePool

    rng = np.random.default_rng(0)
    for _ in range(200):
        free = rng.integers(0, 5, size=12).tolist()
        pool, a, b = FreePool(free), list(free), list(free)
        for count in rng.integers(1, 9, size=4).tolist():
            assert pool.pack(count) == pack(count, a)
            assert pool.free == a
        pool = FreePool(free)
        for count in rng.integers(1, 9, size=4).tolist():
            assert pool.spread(count) == spread(count, b)
