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


def _dated(rows: int) -> str:
    lines = ["train/mse_step,train/loss_step,global_step,epoch,logged_at,run"]
    for k in range(1, rows + 1):
        lines.append(f"{0.3 / k:.5f},{0.4 / k:.5f},{25 * k - 1}.0,{k // 3},2031-04-0{k} 10:1{k}:00.250000,blue-fox")
    return "\n".join(lines) + "\n"


def test_a_table_with_a_time_and_a_name_column_is_still_read(tmp_path):
    log = parse_log(_write(tmp_path, "metrics.csv", _dated(4)))
    assert log.series("loss") == [(24, 0.4), (49, 0.2), (74, 0.13333), (99, 0.1)]
    assert log.run["started_at"].startswith("2031-04-01 10:11") and log.run["ended_at"].startswith("2031-04-04")
    assert not log.issues  # the text columns hold no series, so no cell of theirs is a bad number


def test_a_stray_word_in_a_number_column_is_an_issue_not_a_text_column(tmp_path):
    rows = [f"{10 * k},{1 - k / 100:.2f},0.1" for k in range(1, 21)]
    rows[15] = "160,oops,0.1"  # past the head the format is told from
    log = parse_log(_write(tmp_path, "progress.csv", "step,loss,lr\n" + "\n".join(rows) + "\n"))
    assert len(log.series("loss")) == 19 and (160, 0.84) not in log.series("loss")
    assert any("oops" in issue["error"] for issue in log.issues)


def test_mostly_text_columns_make_no_table(tmp_path):
    text = "name,host,status,loss\nalpha,node1,ok,0.5\nbeta,node2,ok,0.4\n"
    log = parse_log(_write(tmp_path, "runs.csv", text))
    assert log.run["config"] is None or '"format": "csv_metrics"' not in log.run["config"]
