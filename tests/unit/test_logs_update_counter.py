"""Two step keys on one line, one counting passes (micro-batches) and one optimizer updates (LitGPT's
``iter {iter_num} step {step_count}``): which is the step, through the whole ``parse_log`` path. Own-worded logs."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _steps(tmp_path, lines, name="loss"):
    return [step for step, _ in parse_log(write_log(tmp_path, lines)).series(name)]


def test_records_several_updates_apart_are_stepped_by_the_update(tmp_path):
    # a pre-training loop that logs every 50 updates, 4 passes per update: the update counts the run's steps
    lines = [
        f"Epoch 2 | iter {4 * s} step {s} | loss train: {3 - s / 10000:.3f}, val: 3.100 | iter time: 98.10 ms (step)"
        for s in (5000, 5050, 5100)
    ]
    assert _steps(tmp_path, lines) == [5000, 5050, 5100]
    assert _steps(tmp_path, lines, "val_loss") == [5000, 5050, 5100]


def test_records_on_every_pass_are_stepped_by_the_pass(tmp_path):
    # a fine-tuning loop that prints every pass under accumulation 2 (the updating pass marked): the update
    # counter repeats over two records, the pass counter numbers them
    lines = [
        f"iter {i} step {i // 2}: loss {2.5 - i / 100:.4f}, iter time: 612.{i}0ms" + (" (optimizer.step)" if i % 2 == 0 else "")
        for i in range(1, 9)
    ]
    assert _steps(tmp_path, lines) == list(range(1, 9))
