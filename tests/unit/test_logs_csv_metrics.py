"""A metrics table written as CSV by any logger (a reinforcement-learning library's ``progress.csv``, a script's
``csv.DictWriter``): the step is the run-wide counter's column, empty cells are values not logged, and the loss is
the total by meaning. Lightning's ``metrics.csv`` keeps its own reader. Through ``parse_log``."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _progress(rows: int) -> str:
    lines = ["time/iterations,rollout/ep_rew_mean,time/total_timesteps,train/value_loss,train/loss,train/n_updates"]
    for k in range(1, rows + 1):
        train = ("", "", "") if k == 1 else (f"{0.5 / k:.4f}", f"{0.2 / k:.4f}", str(10 * (k - 1)))
        lines.append(f"{k},{k / 10:.2f},{1024 * k},{train[0]},{train[1]},{train[2]}")
    return "\n".join(lines) + "\n"


def test_a_progress_table_is_read_at_its_run_wide_counter(tmp_path):
    log = parse_log(_write(tmp_path, "progress.csv", _progress(5)))
    assert [s for s, _ in log.series("loss")] == [2048, 3072, 4096, 5120]  # the first row logged no loss
    assert log.series("loss")[-1] == (5120, 0.04)  # the total, not the value term
    names = {r["name"] for r in log.metrics.to_pylist()}
    assert {"train_value_loss", "rollout_ep_rew_mean"} <= names and "time_total_timesteps" not in names


def test_the_first_rows_without_training_values_still_count(tmp_path):
    log = parse_log(_write(tmp_path, "progress.csv", _progress(3)))
    steps = sorted({r["step"] for r in log.metrics.to_pylist()})
    assert steps == [1024, 2048, 3072]


def test_lightnings_metrics_csv_keeps_its_own_reader(tmp_path):
    text = "epoch,step,train_loss,val_loss\n0,49,1.20,\n0,99,1.00,\n0,99,,1.10\n"
    log = parse_log(_write(tmp_path, "metrics.csv", text))
    assert log.run["framework"] == "PyTorch Lightning"
    assert log.series("loss") == [(49, 1.2), (99, 1.0)]


def test_a_text_log_with_commas_is_no_table(tmp_path):
    text = "Epoch 1, step 10, loss 2.10\nEpoch 1, step 20, loss 1.90\nEpoch 1, step 30, loss 1.70\n"
    log = parse_log(_write(tmp_path, "train.log", text))
    assert log.series("loss") == [(10, 2.1), (20, 1.9), (30, 1.7)]
