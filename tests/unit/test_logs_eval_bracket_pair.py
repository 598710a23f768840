"""An evaluation's line that prints its epoch and the batches it evaluated in two brackets (``Epoch(val)
[8][1730]``) counts the evaluation, not the run: its values are at the training step before it. A round
counter alone in brackets on a line with evaluation words (``[500] train-logloss:... eval-logloss:...``) is
still the step. Through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_an_evaluation_pair_of_brackets_takes_the_training_step(tmp_path):
    lines = [
        f"2021-03-02 10:0{k}:00,100 - INFO - Epoch [4][{i}/500]\tlr: 1.000e-02, time: 1.6, loss_cls: 2.{k}, loss: 2.{k}"
        for k, i in enumerate((440, 460, 480, 500))
    ]
    lines += [
        "2021-03-02 10:05:00,000 - INFO - Saving checkpoint at 4 epochs",
        "2021-03-02 10:09:00,000 - INFO - Epoch(val) [4][500]\ttop1 acc: 0.0661, top5 acc: 0.1539",
    ]
    log = parse_log(write_log(tmp_path, lines))
    steps = sorted(set(log.metrics.column("step").to_pylist()))
    assert steps == [1940, 1960, 1980, 2000]


def test_a_round_counter_in_brackets_with_evaluation_words_is_the_step(tmp_path):
    lines = [f"[{n}]\ttrain-logloss:0.{9 - k}\teval-logloss:0.{9 - k}5" for k, n in enumerate((100, 200, 300))]
    log = parse_log(write_log(tmp_path, lines))
    assert sorted(set(log.metrics.column("step").to_pylist())) == [100, 200, 300]


def test_rounds_counted_from_zero_in_brackets_are_steps_not_a_viewers_line_numbers(tmp_path):
    # Every line opens with a bracketed number one above the last, as a viewer's line numbers do; but no viewer
    # numbers a line 0, so these are the tool's rounds (a boosting library printing each round from the first).
    lines = [f"[{n}] train-rmse:0.{80 - 7 * n}\tvalid-rmse:0.{85 - 6 * n}" for n in range(5)]
    log = parse_log(write_log(tmp_path, lines))
    steps = log.metrics.column("step").to_pylist()
    assert sorted(set(steps)) == [0, 1, 2, 3, 4]
    # The same lines numbered from 1 by a viewer keep their numbering out of the records.
    viewer = [f"[{n + 1}] epoch {n} loss {0.9 - n / 10:.2f}" for n in range(5)]
    log = parse_log(write_log(tmp_path, viewer, name="viewer.log"))
    assert sorted(set(log.metrics.column("step").to_pylist())) == [0, 1, 2, 3, 4]
