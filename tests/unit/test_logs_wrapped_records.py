"""Records a console wrapped over several lines (at a space, or mid-word at a fixed width) are read as one
record; lines padded to a console's width (a table) and lines that end a record where they stand (a bar's
``]``) are left as they are. Through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _space_wrapped() -> list[str]:
    lines = []
    for k, step in enumerate((40, 50, 60)):
        lines += [
            f"2024-03-01 10:0{k}:00 INFO trainer.py:88] step {step}, loss: {2.3 - k / 10:.2f}, learning ",
            f"rate: 0.00{k + 1}, grad norm: 1.{k} ",
            f"{19000 + k} frames.",
        ]
    return lines


def test_a_record_wrapped_at_spaces_is_one_record(tmp_path):
    log = parse_log(write_log(tmp_path, _space_wrapped()))
    assert log.series("lr") == [(40, 0.001), (50, 0.002), (60, 0.003)]
    assert log.series("loss") == [(40, 2.3), (50, 2.2), (60, 2.1)]


def _width_wrapped(width: int = 105) -> list[str]:
    lines = []
    for k, step in enumerate((10, 20, 30)):
        record = (
            f"2024-03-01 10:0{k}:00 INFO [train.py:211] batch {step}, epoch 0/8 total loss: {1.9 - k / 10:.3f} over "
            f"{29000 + k}.0 frames, cls loss: 0.5{k}, lr: 0.001 waited {k}.5s"
        )
        lines += [record[:width], record[width:]]
    return lines


def test_a_record_wrapped_at_a_fixed_width_mid_word_is_one_record(tmp_path):
    lines = _width_wrapped()
    assert lines[0].endswith("lo") and lines[1].startswith("ss: 0.50")  # the shape this test is about
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("cls_loss") == [(10, 0.5), (20, 0.51), (30, 0.52)]
    assert "ss" not in set(log.metrics.column("name").to_pylist())


def test_lines_padded_to_the_console_width_are_not_joined(tmp_path):
    lines = []
    for step in (4090, 4210, 4310):
        lines += [
            "Step (% Done)       Train Iter (time)".ljust(110) + "run.py:554",
            "-" * 80 + " " * 30 + "run.py:554",
            f"{step} ({step / 50:.2f}%)       43.140 ms".ljust(110) + "run.py:566",
        ]
    lines.append("4410 (88.20%)       46.135 ms")
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("train_iter_time")] == [4090, 4210, 4310, 4410]


def test_a_bar_that_ends_at_the_console_width_is_not_joined_to_the_next_line(tmp_path):
    bar = "100%|" + "#" * 80 + "| 137/137 [01:43<00:00,  1.33it/s]"
    lines = []
    for epoch in (1, 2, 3):
        lines += [bar, f"train_logger - epoch: {epoch}, lr: 1.00e+00 - train loss: 0.9{epoch} - valid loss: 1.2{epoch}"]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(1, 0.91), (2, 0.92), (3, 0.93)]
