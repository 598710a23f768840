"""Issue 31: per-GPU-type profiles fitted from the runs in the store, for a heterogeneous replay without a
folder of measured profiles. The runs are written here: a made-up speed for two catalogue applications
on T4 nodes, one of them also on A100 nodes three times as fast."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from assay.scheduler.simulator import profiles_from_store, simulate
from assay.scheduler.workloads import fit_typed_profiles, load_workload
from assay.scheduler.workloads._from_runs import pool_type
from assay.store import write_rows

TYPES = ("aws", "dgx-ext")


def _ms(workers: int, atomic: int, fast: float) -> float:
    """Step milliseconds: compute linear in the per-GPU batch, plus an all-reduce that grows with workers."""
    compute = (20.0 + 2.5 * atomic) / fast
    return compute + (0.0 if workers == 1 else 15.0 + 4.0 * (workers - 2))


def _runs():
    runs, metrics = [], []
    plan = [("cifar10", "t4-16g", 1.0), ("cifar10", "a100-40g", 3.0), ("imagenet", "t4-16g", 1.0)]
    for model, hardware, fast in plan:
        for workers in (1, 2, 4):
            for atomic in (32, 64):
                run_id = f"{model}-{hardware}-{workers}-{atomic}"
                runs.append({"run_id": run_id, "model": model, "world_size": workers, "dp": workers, "tp": 1,
                             "pp": 1, "micro_batch_size": atomic, "global_batch_size": atomic * workers,
                             "hardware": hardware, "framework": "assay"})
                metrics += [{"run_id": run_id, "step": s, "name": "step_time_ms", "rank": 0,
                             "value": _ms(workers, atomic, fast)} for s in range(6)]
    return runs, metrics


def _rows():
    runs, _ = _runs()
    return [r | {"step_time_ms": _ms(r["dp"], r["micro_batch_size"], 3.0 if "a100" in r["hardware"] else 1.0)}
            for r in runs]


def test_a_runs_hardware_names_a_pool_type_by_its_gpu():
    assert pool_type("t4-16g", TYPES) == "aws" and pool_type("a100-40g", TYPES) == "dgx-ext"
    assert pool_type("aws", TYPES) == "aws"
    assert pool_type("h100-80g", TYPES) is None and pool_type("abacus", TYPES) is None and pool_type(None, TYPES) is None


def test_step_times_per_type_are_fitted_and_an_unseen_type_is_projected_by_the_single_gpu_ratio():
    profiles = fit_typed_profiles(_rows(), TYPES)
    cifar, imagenet = profiles["cifar10"], profiles["imagenet"]
    assert cifar.typed and set(cifar.fitted) == {"aws", "dgx-ext"} and not cifar.projected
    # the fitted step times follow the runs, inside a node and on one GPU
    for workers, atomic in ((1, 32), (4, 64)):
        assert cifar.step_time((workers,), atomic, "aws")[0] * 1000 == pytest.approx(_ms(workers, atomic, 1.0),
                                                                                    rel=0.15)
    assert cifar.speed("dgx-ext") / cifar.speed("aws") == pytest.approx(3.0, rel=0.05)
    # imagenet never ran on an A100: projected from its T4 fit by cifar10's one-GPU ratio (3), not by the
    # types' peak FLOP/s ratio (312/65 = 4.8)
    assert imagenet.projected["dgx-ext"][0] == "aws"
    assert imagenet.projected["dgx-ext"][1] == pytest.approx(3.0, rel=0.05)
    assert imagenet.step_time((1,), 32, "aws")[0] / imagenet.step_time((1,), 32, "dgx-ext")[0] == \
        pytest.approx(3.0, rel=0.05)
    # with no application measured on both types, the peak FLOP/s ratio
    alone = fit_typed_profiles([r for r in _rows() if r["model"] == "imagenet"], TYPES)["imagenet"]
    assert alone.projected["dgx-ext"][1] == pytest.approx(312 / 65)


def test_the_store_path_and_the_simulate_command_use_the_fitted_profiles(tmp_path):
    db = tmp_path / "kg.duckdb"
    runs, metrics = _runs()
    write_rows(db, {"runs": runs, "metrics": metrics})
    profiles = profiles_from_store(db, TYPES)
    assert set(profiles) == {"cifar10", "imagenet"}
    assert profiles_from_store(tmp_path / "none.duckdb", TYPES) == {}

    csv = tmp_path / "jobs.csv"
    csv.write_text("name,time,application,num_replicas,batch_size\ncifar10-0,0,cifar10,1,128\n")
    w = load_workload(csv)
    fast = simulate(w, "goodput", cluster="dgx-ext:1x8", profiles=profiles).summary["avg_jct"]
    slow = simulate(w, "goodput", cluster="aws:2x4", profiles=profiles).summary["avg_jct"]
    assert fast < slow / 2

    from assay.cli import app

    res = CliRunner().invoke(app, ["simulate", "--workload", str(csv), "--cluster", "aws:1x4,dgx-ext:1x8",
                                   "--policy", "goodput", "--json", "--no-store", "--db", str(db)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["avg_jct"] == pytest.approx(simulate(w, "goodput", cluster="aws:1x4,dgx-ext:1x8",
                                                    calibration="sia", profiles=profiles).summary["avg_jct"])
