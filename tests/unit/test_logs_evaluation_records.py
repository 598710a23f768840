"""Evaluation records told by structure, and non-finite values reported in words, through ``parse_log``.

The logs are written here in the shapes training loops print (none is copied from a measured set)."""

from __future__ import annotations

import math

import pytest

from assay.operators.logs import parse_log


def _parse(tmp_path, lines: list[str]):
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return parse_log(str(path))


def _series(log, name: str) -> list[tuple[int | None, float]]:
    table = log.metrics.sort_by([("line_no", "ascending")])
    rows = zip(*(table.column(c).to_pylist() for c in ("step", "name", "value")), strict=True)
    return [(step, value) for step, metric, value in rows if metric == name]


def _interleaved(every: int = 50, last: int = 400) -> list[str]:
    """A loop that logs every 10 steps and, every ``every`` steps, an evaluation record of its own shape
    with no word saying so: the same step, a loss of another size and an accuracy instead of a rate."""
    lines = []
    for step in range(10, last + 1, 10):
        lines.append(f"2025-03-01 09:{step // 60:02d}:{step % 60:02d} | ep 0 | it {step} | loss {3 - step / 400:.4f}"
                     f" | lr 0.0003")
        if step % every == 0:
            lines.append(f"2025-03-01 09:{step // 60:02d}:{step % 60:02d} | it {step} | loss {4 - step / 800:.4f}"
                         f" | acc {step / 1000:.3f}")
    return lines


def test_a_template_printed_at_round_training_steps_with_another_loss_is_the_validation_loss(tmp_path):
    log = _parse(tmp_path, _interleaved())
    train, val = _series(log, "loss"), _series(log, "val_loss")
    assert train[-1] == (400, pytest.approx(2.0))  # the training record's loss, not the evaluation's 3.5
    assert len(train) == 40
    assert val == [(s, pytest.approx(4 - s / 800)) for s in range(50, 401, 50)]


def test_a_second_logger_repeating_the_training_record_stays_training(tmp_path):
    """The same loss at the same step, at a lower rate (a summary writer echoing its record): not evaluation."""
    lines = []
    for step in range(10, 201, 10):
        loss = 3 - step / 400
        lines.append(f"it {step} | loss {loss:.4f} | lr 0.0003")
        if step % 50 == 0:
            lines.append(f"[writer] it {step} | loss {loss:.4f} | tok/s 51234")
    log = _parse(tmp_path, lines)
    assert _series(log, "val_loss") == []
    assert _series(log, "loss")[-1] == (200, pytest.approx(2.5))


def test_a_running_average_at_a_lower_rate_stays_training(tmp_path):
    lines = []
    for step in range(10, 201, 10):
        lines.append(f"it {step} | loss {3 - step / 400:.4f} | lr 0.0003")
        if step % 50 == 0:
            lines.append(f"it {step} | avg loss {2.9 - step / 400:.4f} | acc 0.1")
    assert _series(_parse(tmp_path, lines), "val_loss") == []


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: Function 'AddmmBackward0' returned nan values in its 0th output.",
        "ValueError: loss is inf at step 30",
        "the batch contains NaN after the encoder (step 30)",
        "step 30: encountered an inf in the logits",
    ],
)
def test_a_non_finite_value_reported_in_words_is_a_nan_event(tmp_path, line):
    log = _parse(tmp_path, ["step 10 loss 2.31 lr 1e-4", "step 20 loss 2.20 lr 1e-4", line])
    assert "nan" in log.event_kinds()


def test_a_non_finite_metric_value_is_a_nan_event_at_its_step(tmp_path):
    log = _parse(tmp_path, ["it 10 | loss 2.31 | gnorm 1.2", "it 20 | loss 2.20 | gnorm 1.1",
                            "it 30 | loss inf | gnorm nan", "it 40 | loss inf | gnorm nan"])
    assert [e.get("step") for e in log.events if e["kind"] == "nan"] == [30]
    assert math.isinf(_series(log, "loss")[-1][1])


def test_clean_runs_with_evaluation_records_invent_no_event(tmp_path):
    log = _parse(tmp_path, [*_interleaved(), "Information: infinite-horizon returns are not used", "done."])
    assert not [e for e in log.events if e["kind"] in ("nan", "failure", "restart")]
