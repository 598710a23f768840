"""A count printed before its counter word (Flower's ``After 3 Round: loss = 0.46``) is the step, and the key
after the counter's colon is a key, not the counter's value. Through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_count_before_its_round_word_is_the_step(tmp_path):
    lines = ["INFO :      Starting Flower server, config: num_rounds=4, no round_timeout"]
    for r in (1, 2, 3, 4):
        lines += [f"INFO :      [ROUND {r}]", "INFO :      aggregate_fit: received 8 results and 0 failures",
                  f"After {r} Round: loss = 0.{50 - r}, accuracy: 0.8{r}"]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(1, 0.49), (2, 0.48), (3, 0.47), (4, 0.46)]
    assert log.run["framework"] == "Flower"


def test_finished_epochs_counted_before_their_word(tmp_path):
    lines = [f"finished {e} epochs: train loss = {1.0 / e:.3f}" for e in (1, 2, 3)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3]


def test_a_number_before_a_plain_word_is_no_counter(tmp_path):
    lines = [f"step {k}: processed 512 images, loss = 0.{90 - k}" for k in (10, 20, 30)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]

