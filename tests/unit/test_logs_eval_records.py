"""Evaluation records: every value of a line about evaluation is the split's, its loss terms too (an
``nll_loss`` of a ``valid:{...}`` record is no training loss, nor its step a training step); only a name that
says its own split stands. Evaluation words of languages written without spaces (``测试``, ``検証``) are
found inside the phrase that names the value (``_split_sections.SPLIT_WORDS``, each row with an example)."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log
from assay.operators.logs._split_sections import SPLIT_WORDS


def _log(tmp_path, lines):
    return parse_log(write_log(tmp_path, lines))


def _names(log):
    return set(log.metrics.column("name").to_pylist())


def test_loss_terms_of_a_glued_validation_dict_are_the_splits(tmp_path):
    lines = [
        "[ t:1s seen:640 ] {'seen': 640, 'num_updates': 40, 'loss': 5.25, 'nll_loss': 1.75, 'ppl': 5.8}",
        "[ t:2s seen:1280 ] {'seen': 640, 'num_updates': 80, 'loss': 4.5, 'nll_loss': 1.5, 'ppl': 4.5}",
        "[ starting evaluation ]",
        "valid:{'seen': 200, 'hits': 0.61, 'num_updates': 95, 'loss': 4.1, 'nll_loss': 1.41, 'ppl': 4.1}",
        "[ t:3s seen:1920 ] {'seen': 640, 'num_updates': 120, 'loss': 4.0, 'nll_loss': 1.38, 'ppl': 4.0}",
    ]
    log = _log(tmp_path, lines)
    assert [s for s, _ in log.series("nll_loss")] == [40, 80, 120]
    assert log.series("val_nll_loss") == [(95, pytest.approx(1.41))]
    assert log.series("val_loss") == [(95, pytest.approx(4.1))]


def test_a_loss_term_alone_on_an_eval_line(tmp_path):
    lines = [
        "step 100 | loss 3.10 | nll_loss 2.90",
        "step 200 | loss 3.00 | nll_loss 2.80",
        "eval step 250 | nll_loss 2.75 | ppl 15.6",
        "step 300 | loss 2.90 | nll_loss 2.70",
    ]
    log = _log(tmp_path, lines)
    assert [s for s, _ in log.series("nll_loss")] == [100, 200, 300]
    assert [v for _, v in log.series("val_nll_loss")] == [pytest.approx(2.75)]


def test_a_name_of_several_words_gets_the_prefix(tmp_path):
    lines = [
        "step 10 | loss 0.90",
        "step 20 | loss 0.80",
        "validation step 20 | left kidney mean dice 0.44 | dice loss 0.61",
        "step 30 | loss 0.70",
    ]
    log = _log(tmp_path, lines)
    evaluated = {n for n in _names(log) if n.startswith("val_")}
    assert evaluated and all(s == 20 for n in evaluated for s, _ in log.series(n))
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]


def test_a_chinese_test_set_loss_is_the_validation_loss(tmp_path):
    lines = [
        "---- 第 1 轮 ----",
        "训练步数：100, Loss：1.75",
        "训练步数：200, Loss：1.50",
        "全部测试集上的Loss: 301.5",
        "---- 第 2 轮 ----",
        "训练步数：300, Loss：1.25",
        "全部测试集上的Loss: 280.25",
    ]
    log = _log(tmp_path, lines)
    assert [v for _, v in log.series("loss")] == [1.75, 1.5, 1.25]
    assert [v for _, v in log.series("val_loss")] == [301.5, 280.25]


@pytest.mark.parametrize("row", [w for w in SPLIT_WORDS if w.split == "eval"], ids=lambda w: w.word)
def test_each_evaluation_word_makes_its_loss_the_validation_loss(tmp_path, row):
    lines = ["epoch 1 iteration 10 of 20, loss: 2.5", "epoch 1 iteration 20 of 20, loss: 2.25", row.example]
    log = _log(tmp_path, lines)
    assert [v for _, v in log.series("loss")] == [2.5, 2.25]
    assert len(log.series("val_loss")) == 1
