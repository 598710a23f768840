"""Fitting the cost model's constants to measured runs, in memory and from the knowledge graph."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from assay.scheduler.cost_model import (
    CPU_DEFAULTS,
    GPU_DEFAULTS,
    CostModel,
    fit,
    fit_from_db,
    latest_model,
    refit_if_new_runs,
)
from assay.scheduler.cost_model._fit import LinearisedRuns, observations_from_rows
from assay.scheduler.cost_model._synthetic import synthetic_observations
from assay.store import connect, write_rows
from assay.store.queries_costmodel import latest_fit, runs_for_fit

TRUTH = {
    "a100-80g": replace(GPU_DEFAULTS, flop_fraction=0.55, intra_bw_eff=0.5, step_overhead_s=0.1),
    "cpu": replace(CPU_DEFAULTS, flop_fraction=0.05, layer_overhead_s=2e-3, step_overhead_s=0.02),
}


def _mape(predicted, measured) -> float:
    return float(np.mean(np.abs(predicted - measured) / measured) * 100)


def test_fit_recovers_constants_that_explain_the_runs():
    train = synthetic_observations(60, TRUTH, noise=0.02, seed=1)
    test = synthetic_observations(30, TRUTH, noise=0.0, seed=2)
    model, report = fit(train)
    assert {g.hardware for g in report.groups} == {"a100-80g", "cpu"}
    assert all(g.fitted for g in report.groups)
    assert report.mape < 5 and report.holdout_mape < 6
    # On fresh runs the fitted model is close to the truth, and far closer than the defaults.
    truth_times = np.array([o.step_time_s for o in test])
    fitted_times = np.array([model.step_time(o.model, o.layout, o.cluster) for o in test])
    default_times = np.array([CostModel.default().step_time(o.model, o.layout, o.cluster) for o in test])
    assert _mape(fitted_times, truth_times) < 6
    assert _mape(fitted_times, truth_times) < _mape(default_times, truth_times) / 3


def test_too_few_runs_keep_the_defaults_and_report_their_error():
    obs = synthetic_observations(2, {"cpu": TRUTH["cpu"]}, noise=0.0, seed=3)
    model, report = fit(obs)
    (group,) = report.groups
    assert not group.fitted
    assert model.params_for(obs[0].cluster) == CPU_DEFAULTS
    expected = _mape(LinearisedRuns(obs).predict(CPU_DEFAULTS), np.array([o.step_time_s for o in obs]))
    assert group.holdout_mape == pytest.approx(expected)


def test_no_runs_gives_the_defaults():
    model, report = fit([])
    assert report.n_runs == 0 and report.groups == ()
    assert model.params_for(synthetic_observations(1, {"cpu": CPU_DEFAULTS})[0].cluster) == CPU_DEFAULTS


def test_same_runs_same_fit_id_new_run_new_id():
    obs = synthetic_observations(4, {"cpu": TRUTH["cpu"]}, seed=4)
    _, first = fit(obs)
    _, again = fit(list(reversed(obs)))
    _, more = fit(obs + synthetic_observations(5, {"cpu": TRUTH["cpu"]}, seed=4)[4:])
    assert first.fit_id == again.fit_id != more.fit_id


# -- from the knowledge graph ---------------------------------------------------------------------------

def _run(run_id: str, **fields) -> dict:
    base = {"run_id": run_id, "model": "gpt-tiny", "world_size": 2, "dp": 2, "tp": 1, "pp": 1,
            "micro_batch_size": 4, "global_batch_size": 32, "hardware": "cpu", "framework": "assay"}
    return base | fields


def _steps(run_id: str, ms: list[float]) -> list[dict]:
    return [{"run_id": run_id, "step": i, "name": "step_time_ms", "value": v, "rank": 0} for i, v in enumerate(ms)]


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "kg.duckdb"
    steady = [900.0, 700.0] + [100.0] * 8  # two slow warm-up steps, then 100 ms
    runs = [
        _run("r1"), _run("r2", dp=1, world_size=1, micro_batch_size=8), _run("r3", dp=4, world_size=4),
        _run("r4", tp=2, dp=1, micro_batch_size=8),
        _run("custom", model="my-net", hardware=None,
             config=json.dumps({"layers": 2, "hidden": 32, "heads": 2, "seq_len": 32, "vocab": 100,
                                "backend": "gloo"})),
        _run("job-run", model="gpt-4l-64h", job_id="j1",  # as assay's training runner records it
             config=json.dumps({"spec": {"model": {"layers": 4, "hidden": 64, "heads": 4, "seq_len": 64,
                                                   "vocab": 256, "ffn_hidden": 0}}, "plan": None})),
        _run("mystery", model="mystery-net"),
        _run("no-times"),
        _run("abacus", hardware="abacus-9000"),
        _run("odd", dp=3, world_size=3),
    ]
    metrics = []
    for i, r in enumerate(runs):
        if r["run_id"] != "no-times":
            metrics += _steps(r["run_id"], [v * (1 + 0.3 * i) for v in steady])
    metrics.append({"run_id": "r1", "step": 10, "name": "step_time_ms", "value": float("nan"), "rank": 0})
    write_rows(path, {"runs": runs, "metrics": metrics})
    return path


def test_runs_for_fit_takes_the_median_after_warm_up(db):
    frame = runs_for_fit(db).set_index("run_id")
    assert frame.loc["r1", "step_time_ms"] == pytest.approx(100.0)  # the NaN and warm-up steps left out
    assert np.isnan(frame.loc["no-times", "step_time_ms"])


def test_observations_skip_runs_they_cannot_describe_and_count_why(db):
    obs, skipped = observations_from_rows(runs_for_fit(db).to_dict("records"))
    assert sorted(o.run_id for o in obs) == ["custom", "job-run", "r1", "r2", "r3", "r4"]
    assert sum(skipped.values()) == 4
    assert any("unknown model" in why for why in skipped)
    assert skipped["unknown hardware"] == 1
    assert skipped["no step_time_ms"] == 1
    assert skipped["invalid layout"] == 1  # 32 sequences do not split over 3 ranks
    custom = next(o for o in obs if o.run_id == "custom")
    assert (custom.model.layers, custom.model.hidden, custom.cluster.name) == (2, 32, "cpu")
    assert not custom.layout.recompute
    job_run = next(o for o in obs if o.run_id == "job-run")
    assert (job_run.model.layers, job_run.model.hidden, job_run.model.ffn_hidden) == (4, 64, 256)


def test_fit_from_db_stores_one_row_per_distinct_set_of_runs(db):
    model, report = fit_from_db(db)
    assert report.n_runs == 6 and report.n_skipped == 4
    row = latest_fit(db)
    assert row["fit_id"] == report.fit_id == model.fit_id
    assert row["n_runs"] == 6 and row["holdout_mape"] == pytest.approx(report.holdout_mape, abs=1e-3)
    stored = json.loads(row["params"])
    assert stored["model"] == "assay-analytic-v1" and "cpu" in stored["params"]
    assert stored["skipped"]["unknown hardware"] == 1

    fit_from_db(db)  # nothing new: same id, no second row
    with connect(db, read_only=True) as con:
        assert con.execute("SELECT count(*) FROM cost_model_fits").fetchall()[0][0] == 1

    write_rows(db, {"runs": [_run("r5", dp=8, world_size=8, micro_batch_size=4)],
                    "metrics": _steps("r5", [50.0] * 5)})
    _, refit = fit_from_db(db)
    assert refit.fit_id != report.fit_id and refit.n_runs == 7
    with connect(db, read_only=True) as con:
        assert con.execute("SELECT count(*) FROM cost_model_fits").fetchall()[0][0] == 2
    loaded = latest_model(db)
    assert loaded.fit_id == refit.fit_id
    assert loaded.fitted_hardware == ["cpu"]


def test_refit_if_new_runs_fits_only_when_the_runs_changed(db):
    model, report = refit_if_new_runs(db)
    assert report is not None and model.fit_id == report.fit_id
    again, none = refit_if_new_runs(db)
    assert none is None and again.fit_id == report.fit_id
    write_rows(db, {"runs": [_run("r6", dp=8, world_size=8)], "metrics": _steps("r6", [60.0] * 4)})
    _, newer = refit_if_new_runs(db)
    assert newer is not None and newer.fit_id != report.fit_id


@pytest.mark.parametrize("config,expected", [
    ({"checkpoint_activations": True}, True), ({"recompute_granularity": "full"}, True),
    ({"recompute": "false"}, False), ({}, False),
])
def test_recomputation_is_read_from_megatron_argument_names(config, expected):
    row = _run("x", config=json.dumps(config)) | {"step_time_ms": 10.0}
    (obs,), _ = observations_from_rows([row])
    assert obs.layout.recompute is expected


def test_an_empty_graph_gives_the_defaults_and_stores_nothing(tmp_path):
    path = tmp_path / "empty.duckdb"
    model, report = fit_from_db(path)
    assert report.n_runs == 0 and model.fitted_hardware == []
    assert latest_fit(path) is None
    assert latest_model(path).fit_id is None
    assert refit_if_new_runs(path)[1] is None
