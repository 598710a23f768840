"""Near-misses of the event rules: lines a little off the shapes the rows were written for (a save of the
model *and* its optimizer, a checkpoint named with its step glued on, a shell's ``Aborted``, glog's FATAL
after a date), read through the whole ``parse_log`` path."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log

_AROUND = ["step 1 loss 2.50", "step 2 loss 2.40"]


def _kinds(tmp_path, line: str) -> set[str]:
    log = parse_log(write_log(tmp_path, [*_AROUND, line, "step 3 loss 2.30"]))
    return {e["kind"] for e in log.events}


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Saving the model and scheduler state at epoch 4 to /tmp/exp/save_4", "checkpoint"),
        ("[rank 0] saved optimizer and model to out/run2", "checkpoint"),
        ("saved everything needed to resume under /data/ckpts/checkpoint_900", "checkpoint"),
        ("run_all.sh: line 5: 77012 Aborted                 python -u fit.py --cfg a.yaml", "failure"),
        ("2021-11-12 13:14:15.161718: F tensorflow/stream_executor/cuda/cuda_dnn.cc:99] Check failed: x", "failure"),
    ],
)
def test_near_miss_lines_give_their_event(tmp_path, line, kind):
    assert kind in _kinds(tmp_path, line)


@pytest.mark.parametrize(
    "line",
    [
        "loaded the model and optimizer from checkpoint_100",  # a load, not a save
        "2021-11-12 13:14:15.161718: I tensorflow/core/platform/cpu_feature_guard.cc:142] AVX2",  # info, not fatal
        "the job was Aborted? no, step 4 went on",  # prose, no shell report
    ],
)
def test_lines_close_to_them_give_none(tmp_path, line):
    assert not _kinds(tmp_path, line) & {"checkpoint", "failure"}
