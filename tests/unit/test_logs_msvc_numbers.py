"""Numbers as MSVC's C runtime prints non-finite floats (``1.#QNAN0``, ``1.#IND00``, ``-1.#INF00``): they are
NaN and infinities, not +-1.0, read through the whole ``parse_log`` path."""

from __future__ import annotations

import math

from log_files import write_log

from assay.operators.logs import parse_log


def test_msvc_nan_and_inf_spellings_are_not_one(tmp_path):
    lines = [
        "iter 10 loss 0.6931 grad 1.25",
        "iter 20 loss 0.5512 grad 1.10",
        "iter 30 loss 1.#QNAN0 grad -1.#INF0",
        "iter 40 loss -1.#IND000 grad 1.#INF000",
    ]
    log = parse_log(write_log(tmp_path, lines))
    loss = [v for _, v in log.series("loss")]
    grad = [v for _, v in log.series("grad")]
    assert loss[:2] == [0.6931, 0.5512]
    assert len(loss) == 4 and all(math.isnan(v) for v in loss[2:]), loss
    assert grad[2:] == [-math.inf, math.inf], grad


def test_an_msvc_nan_loss_is_a_nan_event_as_nan_is(tmp_path):
    lines = [f"iter {i * 10} loss {0.9 - i * 0.02:.4f}" for i in range(1, 6)]
    log = parse_log(write_log(tmp_path, [*lines, "iter 60 loss 1.#QNAN00", "iter 70 loss 1.#IND0"]))
    assert [(e["kind"], e["step"]) for e in log.events] == [("nan", 60)]
    assert log.run["status"] == "diverged"
