"""A Keras log saved off a terminal erases each bar with backspaces before drawing it again (hundreds a line):
it is a text log, and each epoch's last draw is its record. Through ``parse_log``."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _epoch(k: int) -> bytes:
    running = f"1/1 [==============================] - ETA: 0s - loss: 0.{50 - k}00 - mean_squared_error: 0.{50 - k}00"
    final = (f"1/1 [==============================] - 1s 1s/step - loss: 0.{50 - k}00 - mean_squared_error: "
             f"0.{50 - k}00 - val_loss: 0.{60 - k}00 - val_mean_squared_error: 0.{60 - k}00")
    return f"Epoch {k}/40\n\r{running}".encode() + b"\x08" * len(running) + f"\r{final}\n".encode()


def test_a_backspaced_bar_is_read_as_a_redrawn_one(tmp_path):
    path = tmp_path / "fit.log"
    path.write_bytes(b"Model: sequential\n" + b"".join(_epoch(k) for k in (1, 2, 3, 4)))
    log = parse_log(str(path))
    assert not log.issues
    assert log.series("loss") == [(1, 0.49), (2, 0.48), (3, 0.47), (4, 0.46)]
    assert log.series("val_loss")[-1] == (4, 0.56)


def test_a_file_of_control_bytes_is_still_no_log(tmp_path):
    path = tmp_path / "blob.log"
    path.write_bytes(bytes(range(1, 8)) * 400 + b"step 1 loss 2.0\n")
    log = parse_log(str(path))
    assert log.issues and "binary" in log.issues[0]["error"]
