"""Tools named by a format their own code prints, where the log names no package (issue 25): each pattern was read
from the tool's logging code (the marker row's comment names the file). Logs are written here in those shapes,
with values of our own, through the whole ``parse_log`` path; a user's look-alike line stays unnamed."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log

CASES = {
    # BasicSR 0.x trainer: ``<epoch:  N, iter:  N,NNN, lr:X> key: value ...`` behind its asctime.msecs stamp
    "BasicSR": [f"20-03-04 05:06:{10 + k}.250 - INFO: <epoch:{k + 3:3d}, iter:{(k + 3) * 400:8,d}, lr:2.000e-04> "
                f"l_pix: {0.01 + k / 1000:.4e} " for k in range(4)],
    # nnU-Net v1's NetworkTrainer, one block per epoch
    "nnU-Net": [line for e in range(3) for line in (
        f"epoch:  {e}", f"2021-02-03 04:{10 + e}:05.123456: train loss : {-0.41 - e / 20:.4f}",
        f"2021-02-03 04:{10 + e}:35.123456: validation loss: {-0.45 - e / 20:.4f}",
        f"2021-02-03 04:{10 + e}:36.123456: This epoch took 301.2 s")],
    # an icefall recipe on one device: no ``(rank/world)`` after the logger
    "icefall": [f"2023-01-02 03:04:{10 + k},500 INFO [train.py:871] Epoch 2, batch {k * 50}, loss[loss={0.3 - k / 100:.3f}, "
                f"simple_loss={0.6 - k / 100:.3f}, over 4100.00 frames.], tot_loss[loss={0.33 - k / 200:.4f}, "
                f"simple_loss=0.61, over 80211.50 frames.], batch size: 21, lr: 2.50e-03" for k in range(1, 5)],
    # PaddleSeg's legacy pdseg trainer
    "PaddleSeg": [f"epoch=3 step={k * 20} lr=0.00410 loss={0.51 - k / 50:.4f} step/sec=3.120 | ETA 01:10:0{k}"
                  for k in range(1, 5)],
    # Keras fit at verbose=2: one line per epoch under its header
    "Keras": [line for e in range(5, 9) for line in (
        f"Epoch {e}/20", f"125/125 - 2s - loss: {0.52 - e / 100:.4f} - auc: 0.7{e}10 - val_loss: {0.55 - e / 100:.4f}")],
}


@pytest.mark.parametrize("tool", sorted(CASES))
def test_a_tools_own_format_names_it(tmp_path, tool):
    log = parse_log(write_log(tmp_path, CASES[tool], "run.log"))
    assert log.run["framework"] == tool
    assert log.series("loss")


def test_bigdl_iterations_are_read_and_named(tmp_path):
    lines = [
        f"2019-05-06 07:08:{10 + k} INFO  DistriOptimizer$:408 - [Epoch 5 {2048 * (k + 1)}/50000][Iteration {900 + k}]"
        f"[Wall Clock {4100.5 + k}s] Trained 2048 records in 0.9 seconds. Throughput is 2270.1 records/second. "
        f"Loss is {2.31 - k / 10:.4f}. Current learning rate is 0.05. "
        for k in range(4)
    ]
    log = parse_log(write_log(tmp_path, lines, "spark_train.log"))
    assert log.run["framework"] == "BigDL"


def test_a_look_alike_line_of_ones_own_script_names_no_tool(tmp_path):
    lines = [f"train loss: {0.4 - k / 100:.4f} (epoch {k})" for k in range(4)]
    assert parse_log(write_log(tmp_path, lines, "mine.log")).run["framework"] is None
