"""A metric that counts the epochs a run has completed (``Train time/epoch: 0``, a path's last part) names no
epoch 0: the console's own ``[epoch=1]`` is the first epoch, and its batches count from the run's start. Logs
written for the test."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _console(records: list[tuple[int, int, float]]) -> str:
    lines = []
    for epoch, batch, loss in records:
        lines += [
            f"[epoch={epoch}][batch={batch}/50]:",
            f"\t Train time/epoch: {epoch - 1}",
            f"\t Train time/batch: {(epoch - 1) * 50 + batch - 1}",
            f"\t Train loss/train/total: {loss}",
        ]
    return "\n".join(lines) + "\n"


def test_completed_epochs_name_no_first_epoch(tmp_path):
    path = tmp_path / "console.log"
    path.write_text(_console([(1, 1, 3.2), (1, 2, 3.1), (1, 3, 3.0), (2, 1, 2.6)]))
    assert [s for s, _ in parse_log(path).series("loss")] == [1, 2, 3, 51]


def test_an_epoch_zero_label_still_counts_from_zero(tmp_path):
    lines = ["Epoch 0 starting"] + [f"[epoch={e}][batch={b}/50]: loss {2 - b / 10}" for e, b in ((0, 10), (0, 20), (1, 10))]
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n")
    assert [s for s, _ in parse_log(path).series("loss")] == [10, 20, 60]
