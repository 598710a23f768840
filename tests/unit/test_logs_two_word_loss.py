"""Loss keys of two words (``sum loss: 98.2``, ``box loss: 0.31``) read as their underscored forms: the whole
loss stays ``loss``, the terms keep their own names; through the whole ``parse_log`` path."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log


@pytest.mark.parametrize("sep", [" ", "_"])
def test_a_term_on_its_own_line_is_not_the_loss(tmp_path, sep):
    lines = []
    for k in (1, 2, 3):
        lines += [f"---- Epoch {k} ----", f"sum{sep}loss: {98.0 - k}", f"box{sep}loss: {0.3 + k / 10:.1f}",
                  f"obj{sep}loss: {0.6 + k / 10:.1f}"]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(1, 97.0), (2, 96.0), (3, 95.0)]
    assert [v for _, v in log.series("obj_loss")] == [0.7, 0.8, 0.9]


def test_prose_before_a_loss_is_no_term(tmp_path):
    lines = [f"Epoch {k}/3 finished with loss {2.0 - k / 10:.1f}" for k in (1, 2, 3)]
    assert [v for _, v in parse_log(write_log(tmp_path, lines)).series("loss")] == [1.9, 1.8, 1.7]
