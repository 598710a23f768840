"""Two counters with the same total but a different word before them count different things (a data loader's
batches, the training's iterations): one going back after the other is no new epoch of it (issue 25: the wrong
counter becomes the step). The same word going back is still an epoch's counter starting over. Each log is
written here in the shapes such loops print, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_loader_counter_at_its_end_does_not_start_a_new_epoch_of_training(tmp_path):
    lines = ["Reading in batch: 1000 / 1000"]
    lines += [f"training it {s}/1000 loss {3 - s / 1000:.3f}" for s in (250, 500, 750)]
    lines += ["Reading in batch: 1000 / 1000", "training it 1000/1000 loss 2.000"]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [250, 500, 750, 1000]


def test_a_counter_printed_between_every_step_keeps_apart(tmp_path):
    lines = []
    for s in (100, 200, 300, 400):
        lines += [f"Step {s}/800 | loss {3 - s / 1000:.3f} | lr 1e-4", "Tokenized batch 800/800"]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (400, 2.6)  # not 2800: the tokenizer's 800 is no training epoch's end


def test_the_same_word_going_back_still_counts_on_over_epochs(tmp_path):
    lines = [
        f"Epoch {e} batch {s}/300 loss {3 - e / 10 - s / 1000:.3f}" for e in (1, 2) for s in (100, 200, 300)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [100, 200, 300, 400, 500, 600]
