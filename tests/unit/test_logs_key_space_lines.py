"""A ``key value`` line with no colon (nnU-Net's ``train_loss 0.41`` under a date) is read as a pair like a
``key: value`` line: the reader neither fails on it nor leaves it out. Own-written log, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _epochs() -> list[str]:
    lines = []
    for e in range(3):
        stamp = f"2025-03-0{e + 1} 10:00:00.{e:06d}"
        lines += [
            f"{stamp}: Epoch {e} ",
            f"{stamp}: Current learning rate: 0.00{9 - e} ",
            f"{stamp}: train_loss {0.5 - e / 10:.4f} ",
            f"{stamp}: val_loss {0.6 - e / 20:.4f} ",
            f"{stamp}: Epoch time: 31{e}.5 s ",
            f"{stamp}:  ",
        ]
    return lines


def test_key_value_lines_without_a_colon_are_read_and_raise_nothing(tmp_path):
    log = parse_log(write_log(tmp_path, _epochs()))
    assert not [i for i in log.issues if "Error" in str(i)]
    assert log.series("val_loss") == [(0, 0.6), (1, 0.55), (2, 0.5)]
    assert log.series("loss") == [(0, 0.5), (1, 0.4), (2, 0.3)]
