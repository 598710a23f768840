"""Values printed over their goal, solvers that fit again, counters that start again under an epoch's banner,
counts in thousands and JSON objects of quoted keys (issue 25). Own-written logs in those shapes, through
``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _matlab_train(epochs: range) -> list[str]:
    lines = ["Training with TRAINSCG."]
    for k in epochs:
        # the time is whole on some lines ("Time 85,"): the same template as "Time 80.29,"
        time = f"{k // 5}" if k % 50 == 0 else f"{k / 5.3:.4f}"
        lines.append(
            f"Epoch {k}/2000, Time {time}, Performance {4.2 / (k + 1):.5g}/1e-10, Gradient {1.7 / (k + 1):.5g}/1e-06, "
            f"Validation Checks {(k // 25) % 3}/6"
        )
    lines.append("Training with TRAINSCG completed: Validation stop.")
    return lines


def test_a_value_over_its_goal_is_the_value_and_the_performance_function_the_loss(tmp_path):
    log = parse_log(write_log(tmp_path, _matlab_train(range(0, 226, 25))))
    assert [s for s, _ in log.series("loss")] == list(range(0, 226, 25))  # the epoch, not the checks' count
    assert log.series("loss")[-1] == (225, float(f"{4.2 / 226:.5g}"))
    assert log.run["framework"] == "MATLAB"
    assert log.run["status"] == "completed"


def test_a_solver_that_fits_again_after_it_said_it_converged_has_no_restart(tmp_path):
    lines = []
    for fit in range(3):
        lines += ["# weights:  9 (4 variable)", "initial  value 120.500000 "]
        lines += [f"iter {k:3d} value {30 - fit - k / 10:.6f}" for k in range(10, 41, 10)]
        lines += [f"final  value {26 - fit:.6f} ", "converged" if fit < 2 else "stopped after 40 iterations"]
    log = parse_log(write_log(tmp_path, lines))
    assert "restart" not in log.event_kinds()
    assert log.run["status"] == "completed"
    # without the line that says the fit ended, the counter going back is a resumed run
    resumed = [line for line in lines if line != "converged"]
    assert "restart" in parse_log(write_log(tmp_path, resumed, "resumed.log")).event_kinds()


def test_a_counter_that_starts_again_under_each_epochs_banner_is_no_restart(tmp_path):
    lines = []
    for epoch in (1, 2, 3):
        lines.append(f"Epoch {epoch}")
        lines += [f"batch {b} loss {3 - epoch / 2 - b / 1000:.4f}" for b in (100, 200, 300)]
    log = parse_log(write_log(tmp_path, lines))
    assert "restart" not in log.event_kinds()
    assert len(log.series("loss")) == 9
    # a banner whose epoch goes back is a resumed run
    lines += ["Epoch 2", "batch 100 loss 2.0500"]
    assert "restart" in parse_log(write_log(tmp_path, lines, "resumed.log")).event_kinds()


def test_a_counter_printed_in_thousands_is_the_step(tmp_path):
    lines = [f"[Iter: {k / 10:.1f}k / lr: 1.00e-4]\tTime: 58.{k}0 (Data: 49.{k}1)\tErr: {20 / k:.6f}\t" for k in range(1, 8)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("lr")] == list(range(100, 701, 100))


def test_quoted_keys_of_a_json_object_keep_their_series_apart(tmp_path):
    lines = ["["]
    for step in (250, 500, 750):
        lines += [
            "  {",
            f'    "step": {step},',
            f'    "train loss": {1.2 - step / 1000:.4f},',
            f'    "train samples": {step * 4},',
            f'    "train time": {step / 10:.2f},',
            f'    "elapsed time": {step / 5:.2f}',
            "  },",
        ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(250, 0.95), (500, 0.7), (750, 0.45)]


def test_an_average_printed_after_the_records_at_their_last_step_is_no_record(tmp_path):
    lines = [f"Train Epoch: 1 [{b}/600 ({b // 6}%)]\tLoss: {0.5 - b / 10000:.6f}" for b in range(100, 601, 100)]
    lines.append("Train set: Average loss: 0.4100")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (600, 0.44)  # the last step's own loss, not the epoch's average
    assert log.series("epoch_avg_loss") == [(600, 0.41)]  # kept, under its own name


def test_an_average_on_the_line_after_its_own_counter_is_that_steps_record(tmp_path):
    lines = []
    for step in (100, 200, 300):
        lines += [f"Iteration {step}:", f"  avg loss {3 - step / 100:.2f}"]
    assert [s for s, _ in parse_log(write_log(tmp_path, lines)).series("loss")] == [100, 200, 300]


def test_a_last_record_cut_inside_a_keys_word_keeps_its_complete_fields(tmp_path):
    lines = [f"Episode: {k} Total reward: {100 + 5 * k:.1f} Explore P: {1 - k / 50:.4f} Training Loss {1 / k:.4f}"
             for k in range(1, 7)]
    lines.append("Episode: 7 Total reward: 135.0 Expl")  # the excerpt ends inside the next key
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("reward")[-1] == (7, 135.0)
    assert log.series("loss")[-1] == (6, 0.1667)


def test_values_right_under_an_evaluations_heading_are_the_evaluations(tmp_path):
    lines = []
    for epoch in (1, 2):
        lines += [
            f"===== Summary epoch {epoch} / 10",
            "Training on shard_a",
            f"Loss = {1.2 - epoch / 10:.3f} | err = 0.30",
            "-----",
            "Validating on shard_dev",
            f"Loss = {1.6 - epoch / 10:.3f} | err = 0.44",
            "-----",
            f"Learning rate = 0.0{epoch}",
        ]
    log = parse_log(write_log(tmp_path, lines))
    assert [v for _, v in log.series("val_loss")] == [1.5, 1.4]
    assert [v for _, v in log.series("loss")] == [1.1, 1.0]
    assert not any(n.startswith("val_") and "learning" in n for n in log.metrics.column("name").to_pylist())


def test_an_unlabelled_loss_under_a_split_that_opens_its_record_is_that_splits(tmp_path):
    lines = []
    for epoch in (1, 2, 3):
        for split, loss in (("Train", 0.06 / epoch), ("Validate", 0.07 / epoch)):
            lines.append(f"{split} performance at epoch {epoch} is precision: 0.88, recall: 0.68, fscore: 0.77")
            lines.append(f"Loss is: {loss:.6f}.")
        lines.append(f"Validation loss decreased ({0.1 / epoch:.4f} --> {0.07 / epoch:.4f}).  Saving model ...")
        lines.append(f"Updating learning rate to {1e-3 / epoch}")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(1, 0.06), (2, 0.03), (3, 0.02)]
    assert log.series("val_loss")[-1] == (3, round(0.07 / 3, 6))
    assert "val_lr" not in set(log.metrics.column("name").to_pylist())  # a sentence about a split heads nothing
