"""The trace simulator: clock, restart penalty, completion, ground truth and workload loading."""

from __future__ import annotations

import numpy as np
import pytest

from assay.scheduler.policies import BatchLimits, Decision, get_policy
from assay.scheduler.simulator import simulate
from assay.scheduler.workloads import (
    TraceJob,
    Workload,
    adaptdl_workload,
    canonical,
    get_profile,
    load_workload,
    philly_workload,
)


class LinearProfile:
    """1 s per step on any placement, every step worth one initial step, 10 epochs of 10 steps."""

    name = "linear"
    limits = BatchLimits(init_batch=8, max_batch=8, min_local=1, max_local=8)
    epoch_targets = np.arange(1, 11) * 10.0

    def step_time(self, counts, atomic_bsz):
        return 1.0 / sum(counts), 0.0  # perfect scaling: k workers, k times faster

    def gains(self, batch):
        return np.ones(10)

    def grad_stats(self, batch, epoch):
        return 1.0, 0.0


class Fixed:
    """Runs every job on a scripted number of workers: {time: workers}."""

    name = "scripted"

    def __init__(self, script):
        self.script = script

    def decide(self, jobs, cluster, now):
        workers = 0
        for t, w in sorted(self.script.items()):
            if now >= t:
                workers = w
        return {j.job_id: Decision(workers, f"script: {workers}") for j in jobs}


def one_job(submit=10.0, duration=None):
    return Workload("one", [TraceJob("a", submit, "linear", 1, duration=duration)])


def run(script, **kw):
    return simulate(one_job(**kw), Fixed(script), gpus=4, profiles={"linear": LinearProfile()})


def test_clock_first_decision_restart_and_completion():
    r = run({0: 1})
    job = r.jobs[0]
    # Seen at the first round after submission (60 s), 30 s restart, 100 steps of 1 s.
    assert job["start_time"] == 60.0
    assert job["finish_time"] == pytest.approx(60 + 30 + 100)
    assert job["jct"] == pytest.approx(180.0)
    assert job["queueing"] == pytest.approx(50.0)
    assert r.allocations[-1]["reason"] == "finished"


def test_every_change_of_workers_costs_the_restart_delay():
    steady = run({0: 1})
    resized = run({0: 1, 120: 2})
    # 30 s restart, 30 s at 1 step/s by t=120, then a second 30 s restart, 70 steps at 2 steps/s.
    assert resized.jobs[0]["finish_time"] == pytest.approx(120 + 30 + 35)
    assert resized.jobs[0]["restarts"] == 1 and steady.jobs[0]["restarts"] == 0
    paused = run({0: 1, 120: 0, 240: 1})
    assert paused.jobs[0]["finish_time"] == pytest.approx(240 + 30 + 70)
    assert paused.jobs[0]["queueing"] == pytest.approx(50 + 120)


def test_duration_sets_the_work_at_the_requested_size():
    r = run({0: 1}, duration=300.0)
    assert r.jobs[0]["finish_time"] == pytest.approx(60 + 30 + 300)
    assert r.jobs[0]["isolated_s"] == pytest.approx(330.0)


def test_all_jobs_finish_with_consistent_summary():
    w = philly_workload(12, seed=3)
    r = simulate(w, "goodput", gpus=16)
    assert r.summary["finished"] == 12 and r.summary["unfinished"] == 0
    for j in r.jobs:
        assert j["finish_time"] > j["start_time"] >= j["submit_time"]
        assert j["jct"] == pytest.approx(j["finish_time"] - j["submit_time"])
    jct = sorted(j["jct"] for j in r.jobs)
    assert r.summary["avg_jct"] == pytest.approx(sum(jct) / 12)
    assert r.summary["p50_jct"] <= r.summary["p99_jct"] <= jct[-1]
    assert 0 < r.summary["utilization"] <= 1
    assert r.summary["fairness"] > 0
    finished = [a for a in r.allocations if a["reason"] == "finished"]
    assert len(finished) == 12


def test_allocations_never_exceed_the_cluster():
    w = philly_workload(30, seed=1)
    r = simulate(w, "tiresias", gpus=16)
    live: dict[str, int] = {}
    times = sorted({a["t"] for a in r.allocations})
    for t in times:  # the state after all of one instant's changes
        for a in r.allocations:
            if a["t"] == t:
                live[a["job_id"]] = a["workers"]
        assert sum(live.values()) <= 16
    assert max(sum(1 for a in r.allocations if a["t"] == t and a["workers"]) for t in times) > 1


def test_ground_truth_matches_the_measured_profiles():
    cifar, known = get_profile("cifar10")
    assert known and cifar.limits.init_batch == 128 and cifar.limits.max_batch == 4096
    assert cifar.epochs == 100
    # A measured placement is read as is (up to rotation), an unmeasured one is interpolated between.
    step, sync = cifar.step_time((1,), 32)
    assert step == pytest.approx(0.0427886962890625)
    assert cifar.step_time((2, 1, 1), 64) == cifar.step_time((1, 1, 2), 64)
    six = cifar.step_time((4, 4, 4, 4, 4, 4), 64)[0]
    assert cifar.step_time((4, 4, 4, 4), 64)[0] <= cifar.step_time((4, 4, 4, 4, 4), 64)[0] <= six * 1.5
    assert canonical((0, 3, 1, 2)) == (1, 2, 3)
    gains = cifar.gains(2048)
    assert gains.shape == (100,) and (gains >= 1).all() and (gains <= 2048 / 128).all()


def test_unknown_models_get_the_default_profile_and_a_warning():
    w = Workload("u", [TraceJob("x", 0.0, "my-secret-net", 2, duration=600.0)])
    r = simulate(w, "fifo", gpus=8)
    assert any("my-secret-net" in issue for issue in r.issues)
    assert r.summary["finished"] == 1


def test_a_job_larger_than_the_cluster_is_reported_not_run():
    w = Workload("big", [TraceJob("huge", 0.0, "gpt-175b", 64, duration=3600.0),
                         TraceJob("small", 0.0, "cifar10", 1, duration=600.0)])
    r = simulate(w, "tiresias", gpus=16)
    assert any("huge" in issue and "needs" in issue for issue in r.issues)
    assert r.summary["finished"] == 1 and r.summary["unfinished"] == 1


def test_gpt_profiles_need_more_workers_when_large():
    small, _ = get_profile("gpt-350m")
    big, _ = get_profile("gpt-175b")
    assert small.min_workers == 1 and big.min_workers > 16
    assert small.step_time((4, 4), 4)[1] > small.step_time((4,), 4)[1]  # across nodes is slower


def test_csv_loader_skips_bad_rows(tmp_path):
    path = tmp_path / "w.csv"
    path.write_text("job_id,submit_time,num_gpus,duration,model\n"
                    "a,0,1,600,cifar10\n"
                    "b,10,two,600,cifar10\n"
                    "c,20,4,-5,bert\n"
                    "a,30,1,600,ncf\n"
                    "d,40,8,3600,gpt-1.3b\n")
    w = load_workload(path)
    assert [j.job_id for j in w.jobs] == ["a", "d"]
    assert len(w.issues) == 3
    assert any("num_gpus is not a number" in i for i in w.issues)
    assert any("repeats" in i for i in w.issues)


def test_adaptdl_format_is_detected_and_ncf_is_held_at_one_gpu(tmp_path):
    path = tmp_path / "workload-9.csv"
    path.write_text("name,time,application,num_replicas,batch_size\n"
                    "ncf-0,5,ncf,1,32768\ncifar10-1,7,cifar10,6,2048\nbad,x,ncf,1,1\n")
    w = load_workload(path)
    assert w.kind == "adaptdl" and len(w.jobs) == 2 and len(w.issues) == 1
    ncf = w.jobs[0]
    assert ncf.max_workers == 1 and ncf.fixed_batch == 32768 and ncf.duration is None


def test_packaged_adaptdl_workloads():
    w = adaptdl_workload(6)
    assert w.name == "adaptdl/workload-6" and len(w.jobs) == 160 and not w.issues
    with pytest.raises(ValueError, match="1..8"):
        adaptdl_workload(9)


def test_philly_generator_shape_is_deterministic():
    a, b = philly_workload(400, seed=5), philly_workload(400, seed=5)
    assert [j.job_id for j in a.jobs] == [j.job_id for j in b.jobs]
    gpus = np.array([j.num_gpus for j in a.jobs])
    assert (gpus == 1).mean() > 0.5 and (gpus >= 16).mean() < 0.1 and {2, 4, 8} <= set(gpus)
    durations = np.array([j.duration for j in a.jobs])
    assert np.mean(durations) > 1.5 * np.median(durations)  # heavy tail
    assert [j.submit_time for j in philly_workload(400, seed=6).jobs] != [j.submit_time for j in a.jobs]


def test_policy_errors_name_the_problem():
    with pytest.raises(KeyError):
        simulate(one_job(), "no-such-policy")
    with pytest.raises(ValueError):
        simulate(one_job(), get_policy("fifo"), gpus=0)
