"""``assay plan`` through the command line's ``main``: its output, and its errors as a user sees them."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from types import SimpleNamespace

import pytest

from assay.cli import main
from assay.scheduler.cost_model import fit_from_db
from assay.store import write_rows


def invoke(*args: str) -> SimpleNamespace:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(["plan", *args])
        except SystemExit as exc:
            code = exc.code
    return SimpleNamespace(exit_code=code, output=out.getvalue() + err.getvalue(), stderr=err.getvalue())


def test_plan_prints_the_best_layout_and_runner_ups():
    result = invoke("--model", "gpt-175b", "--workers", "1024", "--gpu", "a100-80g", "--global-batch", "1536")
    assert result.exit_code == 0, result.output
    assert "best: dp=" in result.output and "tp=8" in result.output
    assert "TFLOP/s per device" in result.output and "memory" in result.output
    assert "runner-ups:" in result.output
    assert "analytic defaults" in result.output


def test_plan_json_is_machine_readable():
    result = invoke("--model", "gpt-tiny", "--workers", "4", "--gpu", "cpu", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["dp"] * data["tp"] * data["pp"] == 4
    assert data["global_batch"] == 32  # the preset's default batch
    assert {"step_time_s", "tokens_per_s", "tflops_per_device", "memory_gb", "stage_layers"} <= set(data)


@pytest.mark.parametrize("args,flag,valid", [
    (("--model", "gpt-9000", "--workers", "8"), "--model", "gpt-175b"),
    (("--model", "gpt-tiny", "--workers", "8", "--gpu", "tpu-v5"), "--gpu", "a100-80g"),
])
def test_unknown_names_give_one_line_listing_the_valid_ones(args, flag, valid):
    result = invoke(*args)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1
    assert lines[0].startswith("assay plan: error: ") and lines[0].endswith("(see 'assay plan --help')")
    assert flag in lines[0] and valid in lines[0]


def test_a_model_too_large_for_the_workers_is_a_one_line_error():
    result = invoke("--model", "gpt-1t", "--workers", "8")
    assert result.exit_code == 2
    assert "needs at least" in result.output and len(result.output.strip().splitlines()) == 1


def test_options_reach_the_planner(tmp_path):
    no_rc = invoke("--model", "gpt-18b", "--workers", "64", "--no-recompute", "--max-tp", "2", "--json")
    data = json.loads(no_rc.output)
    assert data["recompute"] is False and data["tp"] <= 2
    cluster = tmp_path / "lab.yaml"
    cluster.write_text("preset: h100-80g\nname: lab-h100\nnum_nodes: 8\n")
    result = invoke("--model", "gpt-39b", "--workers", "64", "--cluster-file", str(cluster), "--json")
    assert json.loads(result.output)["cluster"] == "lab-h100"
    bad = invoke("--model", "gpt-39b", "--workers", "64", "--cluster-file", str(tmp_path / "missing.yaml"))
    assert bad.exit_code == 2 and "--cluster-file" in bad.output


def test_fitted_uses_the_latest_fit_in_the_database(tmp_path):
    db = tmp_path / "kg.duckdb"
    runs = [{"run_id": f"r{i}", "model": "gpt-tiny", "world_size": dp, "dp": dp, "tp": 1, "pp": 1,
             "micro_batch_size": 4, "global_batch_size": 32, "hardware": "cpu"} for i, dp in enumerate((1, 2, 4))]
    metrics = [{"run_id": f"r{i}", "step": s, "name": "step_time_ms", "value": 40.0 / dp, "rank": 0}
               for i, dp in enumerate((1, 2, 4)) for s in range(4)]
    write_rows(db, {"runs": runs, "metrics": metrics})
    _, report = fit_from_db(db)
    result = invoke("--model", "gpt-tiny", "--workers", "4", "--gpu", "cpu", "--fitted", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert f"fit {report.fit_id}" in result.output
