"""A value stated at a step in a sentence (``Score at iteration 40 is 0.69``), a counter named as the current one
(``"cur_iter": "40"``), and the framework rows that recognise such lines (issue 25). Own-written logs in those
shapes, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_value_stated_at_a_step_is_named_by_its_words_and_placed_at_that_step(tmp_path):
    lines = [f"10:11:{k:02d}.345 [main] INFO  o.d.o.l.ScoreIterationListener - Score at iteration {k * 20} is {2 - k / 10:.4f}"
             for k in range(1, 6)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("score") == [(20, 1.9), (40, 1.8), (60, 1.7), (80, 1.6), (100, 1.5)]
    assert log.run["framework"] == "Deeplearning4j"


def test_a_stated_value_not_at_a_step_needs_a_known_name(tmp_path):
    lines = [f"Budget for job {k} is {k * 3}" for k in range(1, 5)]
    assert "budget" not in set(parse_log(write_log(tmp_path, lines)).metrics.column("name").to_pylist())


def test_the_current_iteration_is_the_step(tmp_path):
    lines = [
        f'[INFO: logging.py:   67]: json_stats: {{"_type": "train_iter", "cur_epoch": "2", "cur_iter": "{k}", '
        f'"loss": {1 - k / 100:.4f}, "lr": 0.05, "mode": "train"}}'
        for k in (10, 20, 30)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(10, 0.9), (20, 0.8), (30, 0.7)]
    assert log.run["framework"] == "PySlowFast"


def test_two_leading_numbers_are_the_epoch_and_the_counter_within_it(tmp_path):
    lines = [f"{e} {i} Loss={0.9 - e / 1000 - i / 10000:.4f} Time=0.04" for e, i in ((7, 38), (7, 39), (7, 40), (8, 1), (8, 2))]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [38, 39, 40, 1, 2]  # as printed: the epoch's length is not
    assert [v for _, v in log.series("epoch")] == [7, 7, 7, 8, 8]
    assert "restart" not in log.event_kinds()


def test_the_best_records_summary_is_no_record_and_no_restart(tmp_path):
    lines = ["Step      Train loss    Test loss"]
    lines += [f"{s:<10}[{3 - s / 1000:.2e}]    [{4 - s / 1000:.2e}]" for s in (0, 1000, 2000)]
    lines += ["", "Best model at step 0:", "  train loss: 3.00e+00", "  test loss: 4.00e+00"]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (2000, 1.0)
    assert "restart" not in log.event_kinds()


def test_a_loss_per_word_is_the_loss(tmp_path):
    lines = [f"[exp1] Epoch 0.{k}000: train_loss/word={8 - k / 10:.6f} (steps={20 * k}, words/sec=9000.00)" for k in range(1, 6)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (100, 7.5)


def test_an_epochs_total_after_its_steps_sums_them_up(tmp_path):
    lines = []
    for epoch, step in ((1, 1000), (2, 2000), (3, 3000)):
        lines.append(f"INFO - trainer - Epoch {epoch:3d}, Step: {step:8d}, Batch Loss: {3 - epoch / 2:12.6f}, Lr: 0.0003")
        lines.append(f"INFO - trainer - Epoch {epoch:3d}: total training loss {900 - 100 * epoch:.2f}")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (3000, 1.5)  # the step's own loss, not the epoch's sum
    assert [v for _, v in log.series("epoch_total_loss")] == [800.0, 700.0, 600.0]
