"""Words that say which split a record measures (``Training`` / ``Validation``, ``train`` / ``eval``) are keys to
the template miner: two lines that differ only in one are records of two templates, so the words around each
template's fields still say which split its values belong to (issue 25: a validation loss read as the training
loss). Each log is written here in the shapes such loops print, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_training_and_validation_of_an_epoch_are_two_series(tmp_path):
    lines = []
    for e in (1, 2, 3):
        lines.append(f"Training of Epoch {e} - loss: {1.5 - e / 10:.4f} - acc: {0.6 + e / 100:.4f}")
        lines.append(f"Validation of Epoch {e} - loss: {1.6 - e / 10:.4f} - acc: {0.55 + e / 100:.4f}")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(1, 1.4), (2, 1.3), (3, 1.2)]
    assert log.series("val_loss") == [(1, 1.5), (2, 1.4), (3, 1.3)]
    assert log.series("val_acc")[-1] == (3, 0.58)


def test_a_split_word_deep_in_the_line_still_parts_the_records(tmp_path):
    lines = []
    for e in (1, 2, 3):
        lines.append(f"Results on train at epoch {e} => loss={1.5 - e / 10:.4f} f1={0.6 + e / 100:.4f}")
        lines.append(f"Results on eval at epoch {e} => loss={1.6 - e / 10:.4f} f1={0.55 + e / 100:.4f}")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (3, 1.2)
    assert log.series("val_f1") == [(1, 0.56), (2, 0.57), (3, 0.58)]


def test_training_records_alone_read_as_before(tmp_path):
    lines = [f"Training step {s} loss {2 - s / 1000:.3f} acc {0.5 + s / 10000:.3f}" for s in (100, 200, 300)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(100, 1.9), (200, 1.8), (300, 1.7)]
    assert log.series("val_loss") == []
