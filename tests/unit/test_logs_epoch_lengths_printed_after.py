"""A counter within the epoch whose epoch's length is printed after the epoch's records (issue 25), as the
time-series forecasting loops print it: ``\\titers: 100, epoch: 2 | loss: ...`` every hundred iterations, then
``Epoch: 2, Steps: 150 | Train Loss: ... Vali Loss: ...`` once the epoch is over. The records are made global with
that length, the lines read before it was printed too; the summary sums the epoch up at its last step. Also the
epoch length printed where an epoch begins (``Beginning of Epoch 1/5, Total Micro Batches 6``) for a tqdm
description that counts within the epoch, and an ETA that is no step time. Own-written logs, through
``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _forecaster(epochs: range, length: int = 150) -> list[str]:
    lines = ["Validation loss decreased (inf --> 0.912000).  Saving model ..."]
    for k in epochs:
        lines.append(f"Updating learning rate to {1e-3 / k}")
        for i in (50, 100):
            lines += [
                f"\titers: {i}, epoch: {k} | loss: {1 / (k * i):.7f}",
                f"\tspeed: 0.05{k}s/iter; left time: {900 - 10 * k:.4f}s",
            ]
        lines += [
            f"Epoch: {k} cost time: 7.5",
            f"Epoch: {k}, Steps: {length} | Train Loss: {0.9 / k:.7f} Vali Loss: {0.8 / k:.7f} Test Loss: {0.7 / k:.7f}",
            f"Validation loss decreased ({0.8 / (k - 1) if k > 1 else 1.0:.6f} --> {0.8 / k:.6f}).  Saving model ...",
        ]
    return lines


def test_counters_within_the_epoch_go_on_by_the_length_printed_after_them(tmp_path):
    log = parse_log(write_log(tmp_path, _forecaster(range(2, 5))))
    # epoch 2 is the excerpt's first, its records read before any length was printed: (k - 1) * 150 + i
    assert [s for s, _ in log.series("loss")] == [200, 250, 350, 400, 500, 550]
    assert "restart" not in log.event_kinds()


def test_the_summary_is_the_epochs_at_its_last_step_and_no_record(tmp_path):
    log = parse_log(write_log(tmp_path, _forecaster(range(2, 5))))
    assert log.series("val_loss") == [(300, 0.4), (450, round(0.8 / 3, 7)), (600, 0.2)]
    assert [s for s, _ in log.series("epoch_loss")] == [300, 450, 600]  # the epoch's average, no step's loss
    # the early stopper's save after the summary is at the epoch's end
    assert [e["step"] for e in log.events if e["kind"] == "checkpoint"][1:] == [300, 450, 600]


def test_a_run_from_its_first_epoch_keeps_its_first_epochs_steps(tmp_path):
    log = parse_log(write_log(tmp_path, _forecaster(range(1, 4), length=120)))
    assert [s for s, _ in log.series("loss")] == [50, 100, 170, 220, 290, 340]


def test_a_counter_of_the_whole_run_is_not_shifted_by_the_summarys_length(tmp_path):
    lines = []
    for k, (a, b) in zip((2, 3), ((160, 200), (310, 350)), strict=True):
        lines += [f"\titers: {a}, epoch: {k} | loss: 0.5", f"\titers: {b}, epoch: {k} | loss: 0.4"]
        lines.append(f"Epoch: {k}, Steps: 150 | Train Loss: 0.45 Vali Loss: 0.5 Test Loss: 0.6")
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [160, 200, 310, 350]


def test_the_time_left_is_no_step_time(tmp_path):
    log = parse_log(write_log(tmp_path, _forecaster(range(2, 4))))
    names = {row["name"] for row in log.metrics.to_pylist()}
    assert "step_time_ms" not in names and "left_time" not in names
    eta = ["step 1 loss 2.0 time left: 30s", "step 2 loss 1.9 time left: 20s", "step 3 loss 1.8 remaining time: 9s"]
    log = parse_log(write_log(tmp_path, eta, name="eta.log"))
    assert {row["name"] for row in log.metrics.to_pylist()} == {"loss"}


def _micro_batches(epochs: int, per_epoch: int) -> list[str]:
    total = epochs * per_epoch
    lines = ["***** Running training *****", f"  0%|          | 0/{total} [00:00<?, ?it/s]Beginning of Epoch 1/{epochs}, "
             f"Total Micro Batches {per_epoch}"]
    drawn = 1
    for k in range(1, epochs + 1):
        for i in range(per_epoch):
            drawn += 1
            line = f"Epoch {k}, Step {i}, Loss: {2 - drawn / 100:.4f}:  {100 * drawn // total:2d}%|▏   | {drawn}/{total} [00:0{k}<01:00,  1.2s/it]"
            if i == per_epoch - 1 and k < epochs:
                line += f"Beginning of Epoch {k + 1}/{epochs}, Total Micro Batches {per_epoch}"
            lines.append(line)
    return lines


def test_a_description_counting_within_the_epoch_goes_on_by_the_micro_batches_printed(tmp_path):
    log = parse_log(write_log(tmp_path, _micro_batches(3, 4)))
    assert [s for s, _ in log.series("loss")] == list(range(12))
    assert "restart" not in log.event_kinds()
