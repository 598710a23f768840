"""A step counter whose name is no step word (``k = 71 / 600``): where no step key names the step, a named value
printed with its total that stays the same and a whole number that never goes down counts the steps; and a
counter word followed by no count (``waiting for batch 0.020s``) is no step, so its line keeps its record's."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _loss(tmp_path, text):
    path = tmp_path / "run.log"
    path.write_text(text, encoding="utf-8")
    return parse_log(str(path)).series("loss")


def test_a_counter_with_its_total_beside_a_fractional_epoch(tmp_path):
    text = "Epoch 1.20 / 10, k = 71 / 600, loss = 1.90\nEpoch 1.22 / 10, k = 72 / 600, loss = 1.88\n"
    assert _loss(tmp_path, text) == [(71, 1.90), (72, 1.88)]


def test_a_counter_with_its_total_alone(tmp_path):
    text = "pos = 10 / 500, loss = 2.25\npos = 11 / 500, loss = 2.20\n"
    assert _loss(tmp_path, text) == [(10, 2.25), (11, 2.20)]


def test_a_counter_printed_glued_to_its_total(tmp_path):
    text = "n 5/80 loss 3.1\nn 6/80 loss 3.0\nn 7/80 loss 2.9\n"
    assert _loss(tmp_path, text) == [(5, 3.1), (6, 3.0), (7, 2.9)]


def test_a_pair_whose_total_changes_is_no_counter(tmp_path):
    text = "hits = 10 / 50, loss = 2.25\nhits = 12 / 40, loss = 2.20\n"
    assert [step for step, _ in _loss(tmp_path, text)] != [10, 12]


def test_a_counter_word_before_no_count_keeps_the_records_step(tmp_path):
    text = (
        "batch 70, epoch 1/15 overall mean objf: 1.7123 over 31000.0 frames (99.0% kept), \n"
        "this batch mean objf: 1.5511 over 4100 frames (99.0% kept) avg time waiting for batch 0.031s\n"
    )
    assert _loss(tmp_path, text) == [(70, 1.7123), (70, 1.5511)]
