"""A value stated at a step after a colon (``Training loss (for 1 batch) at step 200: 3.02``) is named by the
words before "at", past the parenthesis that qualifies them: the step is the qualifier's."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _parsed(tmp_path, lines):
    return parse_log(write_log(tmp_path, lines))


def test_a_loss_at_a_step_after_its_qualifier_is_the_loss(tmp_path):
    lines = []
    for step in range(0, 500, 100):
        lines += [f"Train loss (one batch) at step {step}: {2.0 - step / 1000:.4f}", f"Seen so far: {step * 32} samples"]
    parsed = _parsed(tmp_path, lines)
    assert parsed.series("loss") == [(s, 2.0 - s / 1000) for s in range(0, 500, 100)]


def test_a_validation_loss_at_an_epoch_is_the_validation_loss(tmp_path):
    lines = []
    for epoch in range(1, 4):
        lines += [f"epoch {epoch} step {epoch * 50} loss {1.0 / epoch:.3f}", f"val loss at epoch {epoch}: {1.2 / epoch:.3f}"]
    parsed = _parsed(tmp_path, lines)
    assert [v for _, v in parsed.series("val_loss")] == [1.2, 0.6, 0.4]
