"""The objective's error on each split is the loss where a log prints no loss: ``rmse_trn`` beside ``rmse_val``
in a learning-curve file's header, ``train_mae`` in a regression script's records (as a booster's
``train-rmse``); a component's error (``rmse_e_trn``) is not. An unnamed count with its total set apart by
separators beside the epoch (``Train | Epoch 2 | 150/400 | Loss 0.21``) counts the epoch's batches and is made
global across epochs; the epoch's summary line after it makes no step of its own. Own-written logs, through
``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_the_training_error_in_a_curve_files_header_is_the_loss(tmp_path):
    lines = ["#  step   rmse_val   rmse_trn   rmse_e_val   rmse_e_trn   lr"]
    lines += [
        f"  {s:5d}   {3 / (s + 50):.2e}   {2 / (s + 50):.2e}   {1 / (s + 90):.2e}   {1 / (s + 99):.2e}   1.0e-03"
        for s in range(0, 500, 100)
    ]
    log = parse_log(write_log(tmp_path, lines, name="lcurve.out"))
    assert [s for s, _ in log.series("loss")] == [0, 100, 200, 300, 400]
    assert log.series("loss")[-1][1] == float(f"{2 / 450:.2e}")
    assert log.series("val_loss")[-1][1] == float(f"{3 / 450:.2e}")


def test_a_split_written_before_the_error_names_the_loss_too(tmp_path):
    lines = [f"iter {i} | train_mae {1 / i:.4f} | valid_mae {1.2 / i:.4f} | lr 0.001" for i in range(10, 60, 10)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (50, round(1 / 50, 4))
    assert log.series("val_loss")[-1] == (50, round(1.2 / 50, 4))


def _separated(epochs: int = 3, length: int = 400) -> list[str]:
    lines = []
    for e in range(1, epochs + 1):
        for i in (100, 200, 300, 399):
            lines.append(f"* Train | Epoch {e} | {i}/{length} | 2.10 it/sec | Loss {1 / (e * i):.5f} | Grad 0.1{e}")
        lines.append(f"* Train Summary | Epoch {e} | Loss={1 / (e * 399):.5f} | Grad=0.1{e}")
        lines.append(f"* Valid | Epoch {e} | 1/2 | 0.50 it/sec | Loss {2 / (e * 399):.5f}")
        lines.append(f"* Valid | Epoch {e} | 2/2 | 0.50 it/sec | Loss {2 / (e * 399):.5f}")
    return lines


def test_a_count_in_a_field_of_its_own_beside_the_epoch_is_the_step(tmp_path):
    log = parse_log(write_log(tmp_path, _separated()))
    steps = sorted({s for s, _ in log.series("loss")})  # (the epoch's summary repeats its last step)
    assert steps == [100, 200, 300, 399, 500, 600, 700, 799, 900, 1000, 1100, 1199]
    assert not [e for e in log.events if e["kind"] == "restart"]


def test_the_validation_sits_at_the_training_step_before_it(tmp_path):
    log = parse_log(write_log(tmp_path, _separated()))
    assert {s for s, _ in log.series("val_loss")} == {399, 799, 1199}
