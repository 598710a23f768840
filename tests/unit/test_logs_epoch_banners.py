"""Epochs named by the lines around the records, not on them: a banner before an epoch's records
(``Epoch 3/20``, ``===== Epoch 3 =====``, ``Starting epoch 4``), a footer after them (``End of epoch 3``,
``Epoch 3 finished, loss 0.41``), a line printing the epoch's length; records whose counter starts again each
epoch count on across epochs where the length is printed: ``step = (epoch - first epoch) * length + i``, the
first epoch the run's (1, or 0 where the log names an epoch 0). Where no length is printed the counter stays as
printed (docs/gold-conventions.md D7), and its going back with a new epoch is no restart."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _log(tmp_path, lines):
    return parse_log(write_log(tmp_path, lines))


def _steps(log, name="loss"):
    return [step for step, _ in log.series(name)]


def test_a_banner_over_sparse_counters_with_their_total(tmp_path):
    # every 100th of 300 batches printed, the epoch's last ones not: the banner says the epoch went up
    lines = []
    for k in (1, 2, 3):
        lines += [f"===== Epoch {k} =====", f"[100/300] loss {1 - k / 10:.2f}"]
    log = _log(tmp_path, lines)
    assert _steps(log) == [100, 400, 700]
    assert "restart" not in log.event_kinds()


def test_a_banner_over_a_counter_without_total(tmp_path):
    # the epoch's length is nowhere printed: the counter stays as printed, each new epoch no restart
    lines = []
    for k in (1, 2, 3):
        lines += [f"Starting epoch {k}"] + [
            f"iter {i} loss {2 - k / 4 - i / 1000:.3f}" for i in (100, 200, 300)
        ]
    log = _log(tmp_path, lines)
    assert _steps(log) == [100, 200, 300] * 3
    assert log.event_kinds() == []
    # the same counter going back within an epoch is a resumed run
    resumed = ["Starting epoch 1", "iter 100 loss 0.9", "iter 200 loss 0.8", "iter 100 loss 0.85"]
    assert _log(tmp_path, resumed).event_kinds() == ["restart"]


def test_an_excerpt_that_starts_mid_run_counts_the_runs_epochs_before(tmp_path):
    # an excerpt that starts at epoch 3 of 20: epochs 1 and 2 each counted the counter's 500 steps
    lines = ["Epoch 3/20", "[120/500] loss 0.80", "[240/500] loss 0.75", "Epoch 4/20", "[120/500] loss 0.70"]
    assert _steps(_log(tmp_path, lines)) == [1120, 1240, 1620]
    # and where the epoch's length is printed, with a counter that has no total
    lines = [
        "iterations per epoch: 300",
        "Starting epoch 3",
        "iter 100 loss 0.9",
        "Starting epoch 4",
        "iter 100 loss 0.8",
    ]
    assert _steps(_log(tmp_path, lines)) == [700, 1000]


def test_the_epoch_length_a_line_prints(tmp_path):
    # the records stop short of the epoch's end: its length is the one printed, not the last counter seen
    lines = ["steps per epoch: 300"]
    for k in (1, 2):
        lines += [f"--- Beginning epoch {k} ---", "iter 100 loss 0.90", "iter 200 loss 0.80"]
    assert _steps(_log(tmp_path, lines)) == [100, 200, 400, 500]


def test_a_footer_gives_the_epochs_metrics_to_its_last_step(tmp_path):
    lines = [
        "Starting epoch 1",
        "step 100 loss 0.90",
        "step 200 loss 0.80",
        "Epoch 1 finished, loss 0.82",
        "step 100 loss 0.60",
        "step 200 loss 0.50",
        "Epoch 2 finished, loss 0.55",
    ]
    log = _log(tmp_path, lines)
    assert log.series("loss") == [(100, 0.9), (200, 0.8), (100, 0.6), (200, 0.5)]
    assert log.series("epoch_loss") == [(200, 0.82), (200, 0.55)]
    assert log.event_kinds() == []


def test_a_counter_of_the_whole_run_under_banners_stays_as_printed(tmp_path):
    with_total = ["Epoch 1/2", "[100/400] loss 0.9", "[200/400] loss 0.8", "Epoch 2/2", "[300/400] loss 0.6"]
    assert _steps(_log(tmp_path, with_total)) == [100, 200, 300]
    without = ["Epoch 1", "iter 100 loss 0.9", "iter 200 loss 0.8", "Epoch 2", "iter 300 loss 0.6"]
    assert _steps(_log(tmp_path, without)) == [100, 200, 300]


def test_footers_alone_start_the_next_epoch(tmp_path):
    # no banner and no total: the footer says where an epoch ended, the counter starts again after it
    lines = [
        "iter 100 loss 0.9",
        "iter 200 loss 0.8",
        "End of epoch 1",
        "iter 100 loss 0.7",
        "iter 200 loss 0.6",
    ]
    lines += ["End of epoch 2", "iter 100 loss 0.5"]
    log = _log(tmp_path, lines)
    assert _steps(log) == [100, 200, 100, 200, 100]
    assert log.event_kinds() == []


def test_a_banner_printed_by_one_rank_holds_for_every_rank(tmp_path):
    lines = ["[rank0]: iterations per epoch: 300", "[rank0]: ===== Epoch 1 =====", "[rank0]: iter 100 loss 0.9"]
    lines += ["[rank1]: iter 100 loss 0.95"]
    lines += ["[rank0]: ===== Epoch 2 =====", "[rank0]: iter 100 loss 0.7", "[rank1]: iter 100 loss 0.75"]
    assert sorted(_steps(_log(tmp_path, lines))) == [100, 100, 400, 400]
