"""A JSON lines log whose last line holds the trainer's whole state (a ``log_history`` list, the paths of its
best and last checkpoints) is still read line by line, not as a ``trainer_state.json``; the end-of-training
summary's ``train_loss`` is the run's mean, not the last point of the curve; the checkpoint folders the summary
names (``checkpoint-300``) are saves at their steps. Own-written logs, through ``parse_log``."""

from __future__ import annotations

import json

from log_files import write_log

from assay.operators.logs import parse_log


def _lines() -> list[str]:
    records = [
        {"loss": round(2.0 - step / 400, 4), "learning_rate": 1e-4, "epoch": step / 320, "global_step/max_steps": f"{step}/320"}
        for step in range(20, 320, 20)
    ]
    records.insert(10, {"eval_loss": 1.4321, "epoch": 0.625, "global_step/max_steps": "200/320"})
    summary = {"train_runtime": 812.5, "train_loss": 1.7777, "epoch": 1.0, "global_step/max_steps": "320/320"}
    state = {
        "last_model_checkpoint": "/runs/lora7/checkpoint-320",
        "best_model_checkpoint": "/runs/lora7/checkpoint-200",
        "global_step": 320,
        "log_history": records,
    }
    return [json.dumps(r) for r in (*records, summary, state)]


def test_the_lines_are_read_as_json_lines(tmp_path):
    log = parse_log(write_log(tmp_path, _lines(), name="logging.jsonl"))
    assert [s for s, _ in log.series("loss")][-1] == 300
    assert log.series("loss")[-1][1] == 1.25
    assert [s for s, _ in log.series("val_loss")] == [200]


def test_the_summary_loss_is_the_runs_mean(tmp_path):
    log = parse_log(write_log(tmp_path, _lines(), name="logging.jsonl"))
    assert log.series("train_loss_mean") == [(320, 1.7777)]
    assert log.run["status"] == "completed"


def test_the_checkpoints_the_summary_names_are_saves_at_their_steps(tmp_path):
    log = parse_log(write_log(tmp_path, _lines(), name="logging.jsonl"))
    assert sorted(e["step"] for e in log.events if e["kind"] == "checkpoint") == [200, 320]


def test_a_pretty_printed_trainer_state_is_still_a_trainer_state(tmp_path):
    state = {"global_step": 40, "max_steps": 40, "log_history": [{"loss": 1.5, "step": 20}, {"loss": 1.2, "step": 40}]}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state, indent=2), encoding="utf-8")
    log = parse_log(str(path))
    assert log.series("loss") == [(20, 1.5), (40, 1.2)]
