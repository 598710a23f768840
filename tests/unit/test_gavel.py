"""The gavel baseline (issue 31): Gavel's max-sum-throughput program solved exactly, and its rounds."""

from __future__ import annotations

import numpy as np
import pytest

from assay.scheduler.policies import ClusterView, JobView, get_policy
from assay.scheduler.policies._gavel import max_sum_throughput
from assay.scheduler.policies._lp import maximize


def test_the_simplex_finds_the_optimum_of_a_small_program():
    # max 3x + 2y, x + y <= 4, x + 3y <= 6, x <= 3: optimum at x=3, y=1 (value 11)
    x = maximize(np.array([3.0, 2.0]), np.array([[1, 1], [1, 3], [1, 0]]), np.array([4.0, 6.0, 3.0]))
    assert x == pytest.approx([3.0, 1.0])
    with pytest.raises(ValueError, match="unbounded"):
        maximize(np.array([1.0]), np.array([[-1.0]]), np.array([1.0]))


def test_degenerate_programs_of_many_equal_jobs_end():
    thr = np.ones((40, 3))
    x = max_sum_throughput(thr, [1] * 40, [4, 4, 4])
    assert (x * 1).sum() == pytest.approx(12.0) and (x.sum(axis=1) <= 1 + 1e-9).all()


def test_max_sum_throughput_fills_each_type_with_who_does_most_there():
    # job 0 is 4x faster on type 1, job 1 barely; one GPU each: job 0 takes type 1
    thr = np.array([[1.0, 4.0], [1.0, 1.2]])
    x = max_sum_throughput(thr, [1, 1], [1, 1])
    assert x == pytest.approx(np.array([[0.0, 1.0], [1.0, 0.0]]))
    # a type that cannot hold a job (throughput 0 there) gets none of it; capacity counts workers
    x = max_sum_throughput(np.array([[2.0, 0.0], [1.0, 1.0]]), [4, 1], [4, 2])
    assert x[0, 0] == pytest.approx(1.0) and x[0, 1] == 0.0 and x[1].sum() == pytest.approx(1.0)


def _job(name, t, asks=1, speed=None, **kw):
    return JobView(name, t, asks, requested_batch=8, type_speed=speed or {"slow": 1.0, "fast": 2.0}, **kw)


def test_a_round_stands_until_it_ends_and_a_new_job_waits_for_the_next():
    policy = get_policy("gavel", lease_s=360.0)
    cluster = ClusterView((2, 2), (), ("slow", "fast"))
    first = policy.decide([_job("a", 0.0, 2)], cluster, 0.0)
    assert first["a"].workers == 2 and first["a"].gpu_type == "fast"
    running = _job("a", 0.0, 2, workers=2, placement=first["a"].placement, gpu_type="fast")
    mid = policy.decide([running, _job("b", 60.0)], cluster, 120.0)
    assert mid["a"].placement == first["a"].placement and mid["b"].workers == 0
    assert "next round" in mid["b"].reason
    nxt = policy.decide([running, _job("b", 60.0)], cluster, 360.0)
    assert nxt["b"].workers == 1 and nxt["a"].workers == 2
    assert not set(nxt["a"].placement) & set(nxt["b"].placement)


def test_jobs_that_want_the_same_gpus_take_turns_by_the_share_they_have_had():
    policy = get_policy("gavel", lease_s=60.0)
    cluster = ClusterView((1,), (), ("only",))
    speed = {"only": 1.0}
    holders = []
    state = {"a": None, "b": None}
    for r in range(6):
        jobs = [_job(n, 0.0, 1, speed, workers=1 if state[n] else 0, placement=state[n] or (),
                     gpu_type="only" if state[n] else None) for n in ("a", "b")]
        out = policy.decide(jobs, cluster, 60.0 * r)
        on = [n for n in ("a", "b") if out[n].workers]
        assert len(on) == 1
        holders.append(on[0])
        state = {n: out[n].placement if out[n].workers else None for n in ("a", "b")}
    assert holders.count("a") == holders.count("b") == 3  # alternating rounds, not one job throughout
