"""Issue 31: clusters of several GPU types in the simulator and the policies.

The profiles here are written by the tests, in the per-type layout of Sia's artifact (placements-<type>.csv,
validation-<B>.csv), for a made-up application whose steps are twice as fast on the ``fast`` type.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from assay.scheduler.policies import ClusterView, JobView, get_policy
from assay.scheduler.policies._placement import pack, place_typed
from assay.scheduler.simulator import simulate
from assay.scheduler.workloads import load_workload
from assay.scheduler.workloads._typed import SIA_CALIBRATION, Calibration, typed_profile

# seconds per step on one GPU at local batch 8 / 32 on the slow type; the fast type takes half
SLOW = {8: 0.10, 32: 0.30}


def _write_app(root, name="toyapp", types=(("slow", 1.0), ("fast", 0.5)), epochs=4):
    app = root / name
    app.mkdir(parents=True)
    for gpu, factor in types:
        lines = ["placement,local_bsz,step_time,sync_time"]
        for placement, sync in (("1", 0.0), ("2", 0.01), ("4", 0.02), ("22", 0.05), ("44", 0.06)):
            for b, step in SLOW.items():
                lines.append(f"{placement},{b},{factor * step + sync:.4f},{sync:.4f}")
        (app / f"placements-{gpu}.csv").write_text("\n".join(lines) + "\n")
    for batch, var in ((8, 1.0), (64, 2.0)):
        rows = ["progress,iteration,metric,grad_sqr,grad_var"]
        for e in range(1, epochs + 1):
            rows.append(f"{200.0 * e},{200 * e},0.5,1.0,{var}")
        (app / f"validation-{batch}.csv").write_text("\n".join(rows) + "\n")
    return app


def _workload(tmp_path, rows):
    path = tmp_path / "jobs.csv"
    path.write_text("name,time,application,num_replicas,batch_size\n"
                    + "".join(f"{n},{t},toyapp,{k},{b}\n" for n, t, k, b in rows))
    return path


@pytest.fixture
def traces(tmp_path):
    root = tmp_path / "traces"
    _write_app(root)
    return root


def test_per_type_profiles_read_the_artifact_layout_and_project_unmeasured_types(traces):
    prof = typed_profile(traces / "toyapp", ("slow", "fast", "aws"))
    assert prof is not None and prof.types == ("slow", "fast", "aws")
    slow, _ = prof.step_time((1,), 8, "slow")
    fast, _ = prof.step_time((1,), 8, "fast")
    assert fast == pytest.approx(slow / 2)
    assert prof.speed("fast") / prof.speed("slow") == pytest.approx(2.0)
    # 'aws' has no file: projected from the first measured type (unknown peak ratio: the same speed)
    assert prof.step_time((1,), 8, "aws") == pytest.approx(prof.step_time((1,), 8, "slow"))
    # the calibration's slowdown multiplies every measured step
    calibrated = typed_profile(traces / "toyapp", ("slow", "fast"), Calibration(slowdown={"toyapp": 1.5}))
    assert calibrated.step_time((1,), 8, "slow")[0] == pytest.approx(1.5 * slow)
    assert typed_profile(traces / "toyapp", ("none-here",)) is None


def test_projection_by_peak_flops_between_known_types(tmp_path):
    app = _write_app(tmp_path, types=(("aws", 1.0),))
    prof = typed_profile(app, ("aws", "dgx-ext"))
    ratio = prof.step_time((1,), 8, "aws")[0] / prof.step_time((1,), 8, "dgx-ext")[0]
    assert ratio == pytest.approx(312 / 65, rel=1e-6)  # A100 over T4 dense FP16 peak


def test_place_typed_keeps_a_job_on_one_type():
    free = [2, 4, 8]
    types = ("slow", "slow", "fast")
    placement = place_typed(pack, 6, free, types)  # the type with the most free workers
    assert placement is not None and {types[n] for n in placement} == {"fast"}
    assert free == [2, 4, 2]
    assert place_typed(pack, 4, free, types, "fast") is None  # 2 left on fast: no mixing with slow
    assert free == [2, 4, 2]
    assert sorted(place_typed(pack, 5, free, types)) == [0, 1, 1, 1, 1]
    assert place_typed(pack, 3, [4, 4], ()) == pack(3, [4, 4])  # one type: as before


@pytest.mark.parametrize("policy", ["goodput", "gavel", "fifo", "tiresias"])
def test_every_policy_runs_jobs_on_one_type_and_records_the_types(tmp_path, traces, policy):
    path = _workload(tmp_path, [("a", 0, 2, 16), ("b", 30, 4, 32), ("c", 60, 1, 8), ("d", 90, 2, 16)])
    w = load_workload(path, profiles_dir=traces)
    r = simulate(w, policy, cluster="slow:2x4,fast:1x4", calibration=SIA_CALIBRATION)
    assert r.summary["unfinished"] == 0
    assert r.params["cluster"] == r.cluster == "slow:2x4,fast:1x4"  # for sim_runs.cluster
    assert {j["gpu_type"] for j in r.jobs} <= {"slow", "fast"}
    assert all(j["gpu_type"] is not None for j in r.jobs)
    running = [a for a in r.allocations if a["workers"] > 0]
    assert running and all(a["gpu_type"] in ("slow", "fast") for a in running)


def test_a_lone_job_goes_to_the_faster_type_and_finishes_sooner_there(tmp_path, traces):
    path = _workload(tmp_path, [("a", 0, 2, 16)])
    w = load_workload(path, profiles_dir=traces)
    for policy in ("goodput", "gavel"):
        r = simulate(w, policy, cluster="slow:1x4,fast:1x4")
        assert r.jobs[0]["gpu_type"] == "fast", policy
    on_fast = simulate(w, "fifo", cluster="fast:1x4").summary["avg_jct"]
    on_slow = simulate(w, "fifo", cluster="slow:1x4").summary["avg_jct"]
    assert on_fast < 0.7 * on_slow


def test_the_calibrations_restart_cost_is_the_jobs_own(tmp_path, traces):
    path = _workload(tmp_path, [("a", 0, 2, 16)])
    w = load_workload(path, profiles_dir=traces)
    cheap = simulate(w, "fifo", cluster="fast:1x4", calibration=Calibration(restart_s={"toyapp": 0.0}))
    dear = simulate(w, "fifo", cluster="fast:1x4", calibration=Calibration(restart_s={"toyapp": 500.0}))
    assert dear.jobs[0]["finish_time"] - cheap.jobs[0]["finish_time"] == pytest.approx(500.0, abs=1.0)


def test_one_type_cluster_without_pools_is_unchanged(tmp_path, traces):
    path = _workload(tmp_path, [("a", 0, 2, 16), ("b", 30, 4, 32)])
    w = load_workload(path, profiles_dir=traces)
    r = simulate(w, "goodput", gpus=8, gpus_per_node=4)
    assert "cluster" not in r.params and r.cluster is None and "gpu_type" not in r.jobs[0]
    assert all("gpu_type" not in a for a in r.allocations)


def test_gavel_gives_the_fast_type_to_the_job_that_does_most_there():
    cluster = ClusterView((1, 1), (), ("slow", "fast"))
    gains_much = JobView("much", 0.0, 1, type_speed={"slow": 1.0, "fast": 4.0})
    gains_little = JobView("little", 0.0, 1, type_speed={"slow": 1.0, "fast": 1.2})
    out = get_policy("gavel").decide([gains_little, gains_much], cluster, 0.0)
    assert out["much"].gpu_type == "fast" and out["little"].gpu_type == "slow"


def test_simulate_cli_prints_avg_p99_makespan_for_a_mixed_cluster(tmp_path, traces):
    from assay.cli import app

    path = _workload(tmp_path, [("a", 0, 2, 16), ("b", 30, 4, 32)])
    for policy in ("goodput", "gavel"):
        res = CliRunner().invoke(app, ["simulate", "--workload", str(path), "--cluster", "slow:2x4,fast:1x4",
                                       "--profiles", str(traces), "--policy", policy, "--json", "--no-store"])
        assert res.exit_code == 0, res.output
        out = json.loads(res.stdout.strip().splitlines()[-1])
        assert out["policy"] == policy and out["cluster"] == "slow:2x4,fast:1x4"
        assert out["avg_jct"] > 0 and out["p99_jct"] >= out["avg_jct"] and out["makespan"] > 0
    bad = CliRunner().invoke(app, ["simulate", "--workload", str(path), "--cluster", "slow=2", "--no-store"])
    assert bad.exit_code != 0 and "TYPE:NODESxGPUS" in bad.output


def _observed_model():
    from assay.scheduler.policies import BatchLimits, GoodputModel

    limits = BatchLimits(init_batch=8, max_batch=64, min_local=4, max_local=32)
    model = GoodputModel(limits, gpus_per_node=4)
    for workers, step in ((1, 0.10), (2, 0.11), (4, 0.12)):
        model.observe_step(1, workers, 8, step, 0.01 * (workers - 1))
    model.observe_noise(1.0, 1.0)
    return limits, model


@pytest.mark.parametrize(("restart_s", "moves"), [(10.0, True), (20000.0, False)])
def test_goodput_moves_a_job_to_a_faster_type_only_when_the_move_pays(restart_s, moves):
    limits, model = _observed_model()
    job = JobView("a", 0.0, 4, workers=4, placement=(0, 0, 0, 0), batch_size=32, limits=limits, model=model,
                  restarts=0, gpu_type="slow", models={"slow": model}, type_speed={"slow": 1.0, "fast": 3.0},
                  restart_s=restart_s)
    cluster = ClusterView((4, 4), (4, 0), ("slow", "fast"))
    d = get_policy("goodput").decide([job], cluster, 3600.0)["a"]
    assert d.workers > 0
    assert (d.gpu_type == "fast") is moves, d.reason
    assert {cluster.node_types[n] for n in d.placement} == {d.gpu_type}


def _scaling_model():
    """A job measured on one and two GPUs that scales almost linearly (noisy gradients: large batches pay)."""
    from assay.scheduler.policies import BatchLimits, GoodputModel

    limits = BatchLimits(init_batch=8, max_batch=256, min_local=4, max_local=32)
    model = GoodputModel(limits, gpus_per_node=4)
    for workers in (1, 2):
        model.observe_step(1, workers, 8, 0.10 + 0.001 * (workers - 1), 0.001 * (workers - 1))
    model.observe_noise(1.0, 100.0)
    return limits, model


@pytest.mark.parametrize("dear_first", [True, False])
def test_goodput_grows_the_job_cheapest_to_restart_into_leftover_gpus(dear_first):
    """Two equal running jobs, three free GPUs on their type: neither's best step (four more) fits, so
    the leftover goes to one of them; the one that restarts in 30 s gets it, not the one taking 300 s,
    whichever came first."""
    jobs = []
    for name, restart_s, node in (("dear", 300.0, 0), ("cheap", 30.0, 1)):
        limits, model = _scaling_model()
        jobs.append(JobView(name, 0.0 if (name == "dear") == dear_first else 10.0, 2, workers=2,
                            placement=(node, node), batch_size=16, limits=limits, model=model, gpu_type="slow",
                            models={"slow": model}, type_speed={"slow": 1.0, "fast": 0.01}, restart_s=restart_s))
    cluster = ClusterView((4, 3, 4), (2, 2, 0), ("slow", "slow", "fast"))
    out = get_policy("goodput").decide(jobs, cluster, 36000.0)
    assert out["dear"].workers == 2 and out["dear"].gpu_type == "slow", out["dear"].reason
    assert out["cheap"].workers > 2 and out["cheap"].gpu_type == "slow", out["cheap"].reason
    assert sum(d.workers for d in out.values() if d.gpu_type == "slow") <= 7
