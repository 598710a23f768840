"""A record printed under its ``Epoch k/N`` header with its time first and no dash before it (older Keras'
``812s - loss: 0.41 - acc: 0.91``) is at epoch k; a file holding several fits, each counting its epochs from 1
again, starts a new fit where the one before ran its last epoch (``Epoch N/N``) or said it stopped early
(``Epoch 00004: early stopping``): no restart there. A count going back with neither is still one. Own-written
logs, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _fit(epochs: int, of: int, base: float, stop_after: int | None = None) -> list[str]:
    lines = ["Train on 5000 samples, validate on 500 samples"]
    for k in range(1, epochs + 1):
        lines.append(f"Epoch {k}/{of}")
        if stop_after is not None and k == epochs:
            lines.append(f"Epoch {stop_after:05d}: early stopping")
        lines.append(f"41{k}s - loss: {base / k:.4f} - acc: 0.{50 + k} - val_loss: {base / k + 0.1:.4f} - val_acc: 0.{40 + k}")
    return lines


def test_a_record_under_its_header_is_at_its_epoch(tmp_path):
    log = parse_log(write_log(tmp_path, _fit(4, 4, 1.0)))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3, 4]


def test_fits_that_ran_out_or_stopped_early_start_no_restart(tmp_path):
    lines = _fit(5, 5, 1.0) + _fit(3, 5, 0.5, stop_after=2) + _fit(4, 5, 0.2)
    log = parse_log(write_log(tmp_path, lines))
    assert not [e for e in log.events if e["kind"] == "restart"]
    assert log.series("loss")[-1] == (4, 0.05)


def test_a_count_going_back_mid_fit_is_still_a_restart(tmp_path):
    lines = _fit(3, 5, 1.0) + _fit(4, 5, 0.5)
    log = parse_log(write_log(tmp_path, lines))
    assert [e["step"] for e in log.events if e["kind"] == "restart"] == [1]
