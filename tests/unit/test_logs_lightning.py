"""PyTorch Lightning: the CSVLogger's sparse metrics.csv and the progress bar on stdout (also NeMo's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.operators.logs import parse_log

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


def test_sparse_csv_rows():
    parsed = parse_log(SAMPLES / "lightning_logs" / "version_0" / "metrics.csv")
    assert parsed.run["framework"] == "PyTorch Lightning"
    assert len(parsed.series("loss")) == 15 and parsed.series("loss")[0][0] == 9  # train_loss_step
    assert len(parsed.series("lr")) == 15  # lr-AdamW
    assert [s for s, _ in parsed.series("val_loss")] == [49, 99, 149]
    assert len(parsed.series("train_loss_epoch")) == 3 and len(parsed.series("val_acc")) == 3


def test_a_short_row_is_an_issue(tmp_path):
    path = tmp_path / "metrics.csv"
    path.write_text("epoch,step,train_loss\n0,0,2.5\n0,1\n0,2,2.3\n")
    parsed = parse_log(path)
    assert parsed.series("loss") == [(0, 2.5), (2, 2.3)]
    assert parsed.issues and parsed.issues[0]["line_no"] == 3


def test_nemo_progress_bar_postfix_and_process_groups():
    parsed = parse_log(SAMPLES / "nemo_llama_tp2.log")
    run = parsed.run
    assert run["framework"] == "NeMo" and run["status"] == "completed"
    assert (run["world_size"], run["dp"], run["tp"], run["pp"]) == (8, 4, 2, 1)
    # the trainer's global_step, not the bar's position; redraws joined by carriage returns each count once
    assert parsed.series("loss") == [(0, 10.93), (1, 10.41), (2, 9.87), (3, 9.35), (4, 8.96), (5, 8.71)]
    times = parsed.series("step_time_ms")
    assert times[0] == (0, pytest.approx(4910.0)) and len(times) == 6  # "train_step_timing in s" in ms
    assert parsed.series("val_loss") == [(5, 8.64)]
    assert [(e["kind"], e["step"]) for e in parsed.events] == [("checkpoint", 5)]


def test_lightning_bar_with_rate_and_postfix(tmp_path):
    path = tmp_path / "fit.log"
    path.write_text(
        "GPU available: True (cuda), used: True\n"
        "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0]\n"
        "Epoch 0:  50%|#####     | 1/2 [00:00<00:00, 10.00it/s, v_num=0, train_loss=1.23]\r"
        "Epoch 0: 100%|##########| 2/2 [00:00<00:00, 11.00it/s, v_num=0, train_loss=1.10]\n"
        "Epoch 1: 100%|##########| 2/2 [00:00<00:00, 11.00it/s, v_num=0, train_loss=0.90, val_loss=0.95]\n"
        "`Trainer.fit` stopped: `max_epochs=2` reached.\n"
    )
    parsed = parse_log(path)
    assert parsed.run["framework"] == "PyTorch Lightning" and parsed.run["status"] == "completed"
    assert parsed.series("loss") == [(1, 1.23), (2, 1.10), (4, 0.90)]  # epoch * batches + position
    assert parsed.series("val_loss") == [(4, 0.95)]
