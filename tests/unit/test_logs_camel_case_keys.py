"""Keys printed in CamelCase (``TrainLossPerSample``, ``LearningRate``) are read by the words their capitals
start, and a loss averaged over what it says (``loss per sample``, ``loss_per_token``) is the loss; a rate or a
size per token stays apart. Through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_camel_case_loss_and_learning_rate(tmp_path):
    lines = [f"Step {n}: SamplesSeen = 640; TrainLossPerSample = {3 - n / 10:.2f}; LearningRate = 0.001" for n in (1, 2, 3)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(1, 2.9), (2, 2.8), (3, 2.7)]
    assert log.series("lr") == [(1, 0.001), (2, 0.001), (3, 0.001)]


def test_a_loss_per_token_is_the_loss_but_memory_per_token_is_no_memory(tmp_path):
    lines = [f"step {n} | loss_per_token {2 - n / 10:.2f} | mem_per_token 0.5 | lr 0.1" for n in (1, 2, 3)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(1, 1.9), (2, 1.8), (3, 1.7)]
    assert log.series("memory_mb") == []
