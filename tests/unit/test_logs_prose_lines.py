"""A sentence with numbers is no record (issue 25): a line whose numbers are separated by function words or
verbs (``from``, ``until``, ``to``, ``in`` ...) says what a run does, not what it measured at a step. Before,
``Engine resuming at iteration 0, epoch 6 until 7 epochs`` was a record at step 0 with series ``epoch`` and
``until``, and its step 0 carried on to the lines after it. Own-worded logs through ``parse_log``."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log
from assay.operators.logs._emit import names_metric
from assay.operators.logs._gate import PROSE_WORDS, is_prose


def test_a_resume_sentence_is_no_record_and_moves_no_step(tmp_path):
    lines = []
    for epoch in (4, 5):
        for it in (1, 2, 3):
            lines.append(f"12:00:0{it} trainer - Epoch: {epoch}/20, Iter: {it}/3 -- fit_loss: {2 - epoch / 10 - it / 100:.4f}")
        lines.append(f"12:00:04 tester - Engine resuming at iteration 0, epoch {epoch - 1} until {epoch} epochs")
        lines.append(f"12:00:05 tester - Epoch[{epoch}] Metrics -- val_mean_iou: {0.2 + epoch / 100:.4f}")
    log = parse_log(write_log(tmp_path, lines, "seg.log"))
    assert [s for s, _ in log.series("loss")] == [10, 11, 12, 13, 14, 15]
    assert not log.series("until") and not log.series("epoch")
    assert 0 not in {s for s, _ in log.series("val_mean_iou")}


def test_a_record_with_a_counter_total_and_a_metric_is_still_read(tmp_path):
    lines = [f"epoch 1 of 3 step {s} of 90 loss {3 - s / 100:.3f} done in {s % 7 + 1} s" for s in (10, 20, 30)]
    log = parse_log(write_log(tmp_path, lines, "of.log"))
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]


@pytest.mark.parametrize(("word", "example"), list(PROSE_WORDS.items()))
def test_each_function_word_example_is_prose(word, example):
    assert word in example.split()
    assert is_prose(example, names_metric)
