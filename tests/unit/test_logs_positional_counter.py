"""A key followed by a whole number that rises record after record and then a measurement (``Train loss 12
0.81``): the number counts the records and the key names the measurement. Read from how the two values
behave across a template's records, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _run(steps: range) -> list[str]:
    lines = ["Epoch: 0"]
    for n in steps:
        lines.append(f"Train loss {n} {3.0 / (n + 1):.6f} Grad Norm {1.5 + n / 10:.4f} {2.1 + n / 100:.2f}s/it")
        if n % 4 == 3:
            lines.append(f"Validation loss {n}:  {2.9 / (n + 1):.6f}  ")
            lines.append(f"Saving model and optimizer state at iteration {n} to /runs/a/checkpoint_{n}")
    return lines


def test_the_rising_whole_number_is_the_step_and_the_key_names_the_value(tmp_path):
    log = parse_log(write_log(tmp_path, _run(range(8))))
    loss = log.series("loss")
    assert [s for s, _ in loss] == list(range(8))
    assert loss[-1][1] == 3.0 / 8
    assert [s for s, _ in log.series("grad_norm")] == list(range(8))


def test_the_validation_value_after_its_counter_and_a_colon(tmp_path):
    log = parse_log(write_log(tmp_path, _run(range(8))))
    assert log.series("val_loss") == [(3, round(2.9 / 4, 6)), (7, round(2.9 / 8, 6))]
    assert [e["step"] for e in log.events if e["kind"] == "checkpoint"] == [3, 7]


def test_a_number_that_does_not_rise_stays_a_value(tmp_path):
    # two values after a key, the first whole but going up and down: no counter, nothing made a step of it
    lines = [f"step {n}: cost 3 {v} loss {0.5 - n / 100:.3f}" for n, v in ((1, "0.25"), (2, "0.5"), (3, "0.75"))]
    lines[1] = "step 2: cost 1 0.5 loss 0.480"
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3]
