"""Shapes of tools outside the measuring sets (own-worded lines in the shapes seen in public issue threads),
each read through the whole public path (``parse_log``)."""

from __future__ import annotations

import json

from assay.operators.logs import parse_log


def _read(tmp_path, lines: list[str]):
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n")
    log = parse_log(str(path))
    series: dict[str, list[tuple[int | None, float]]] = {}
    for row in log.metrics.sort_by([("line_no", "ascending")]).select(["step", "name", "value"]).to_pylist():
        series.setdefault(row["name"], []).append((row["step"], row["value"]))
    return log, series


def test_an_oom_that_ends_the_run_fails_it_and_its_message_gives_no_series(tmp_path):
    lines = [f"step {s}: loss {2.0 - s / 100:.3f}" for s in range(10, 60, 10)]
    lines += [
        "Traceback (most recent call last):",
        '  File "loop.py", line 40, in <module>',
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 39.4 GiB",
    ]
    log, series = _read(tmp_path, lines)
    assert log.run["status"] == "failed"
    assert set(series) == {"loss"}  # neither 'allocate' nor 'capacity'
    assert {e["kind"] for e in log.events} == {"failure", "oom"}


def test_a_printed_dict_with_its_step_and_total_in_one_value_is_at_that_step(tmp_path):
    # ms-swift prints the trainer's dict with 'global_step/max_steps': 'N/M'
    lines = [
        f"{{'loss': {1.2 - s / 100:.4f}, 'grad_norm': 0.5, 'learning_rate': 1e-05, 'epoch': {s / 30:.2f}, "
        f"'global_step/max_steps': '{s}/90', 'percentage': '{s / 0.9:.1f}%'}}"
        for s in (10, 20, 30, 40)
    ]
    lines.append("Train: 100%|##########| 40/40 [02:00<00:00,  3.0s/it]")
    log, series = _read(tmp_path, lines)
    assert [s for s, _ in series["loss"]] == [10, 20, 30, 40]
    assert "global_step_max_steps" not in series


def test_an_epoch_whose_last_batches_were_not_printed_is_no_restart(tmp_path):
    # every 50th batch of 156: the counter goes back to 0 from 100 at the next epoch
    lines = [
        f"Train: {e} [ {b:4d}/156 ({b * 100 // 156:3d}%)]  Loss: {6.0 - e - b / 100:.3f} ({6.1 - e:.3f})  LR: 1.0e-04"
        for e in (0, 1)
        for b in (0, 50, 100)
    ]
    log, series = _read(tmp_path, lines)
    assert not [e for e in log.events if e["kind"] == "restart"]
    assert [s for s, _ in series["loss"]] == [0, 50, 100, 156, 206, 256]
    assert json.loads(log.run["config"])["summary"]["status"] != "failed"


def test_a_slashed_date_prefix_is_no_counter_and_an_evaluation_batch_counter_is_no_step(tmp_path):
    # PaddlePaddle's tools stamp '[2025/01/02 10:11:12]'; the eval line counts its own batches (Iter: 0/10)
    lines = []
    for epoch in (3, 4):
        lines += [
            f"[2025/01/02 10:11:{it:02d}] clsx INFO: [Train][Epoch {epoch}/50][Iter: {it}/60]lr: 0.0005, "
            f"CELoss: 0.{epoch}{it // 10 + 1}, loss: 0.{epoch}{it // 10 + 1}, batch_cost: 0.51s"
            for it in (0, 20, 40)
        ]
        lines.append(f"[2025/01/02 10:12:05] clsx INFO: [Eval][Epoch {epoch}][Iter: 0/10]CELoss: 0.9{epoch}, loss: 0.9{epoch}")
    log, series = _read(tmp_path, lines)
    assert [s for s, _ in series["loss"]] == [120, 140, 160, 180, 200, 220]
    assert series["val_loss"] == [(160, 0.93), (220, 0.94)]
    assert not log.events


def test_a_counter_that_goes_on_when_the_epoch_goes_up_counts_the_whole_run(tmp_path):
    # 'iter: 80/300' beside 'epoch: 2' did not start again at the new epoch: it is no in-epoch counter
    lines = [f"[TRAIN] epoch: {1 + it // 61}, iter: {it}/300, loss: {2.1 - it / 100:.4f}, lr: 0.009" for it in
             range(20, 141, 20)]
    _, series = _read(tmp_path, lines)
    assert [s for s, _ in series["loss"]] == [20, 40, 60, 80, 100, 120, 140]


def test_a_counter_behind_its_split_word_is_the_step(tmp_path):
    lines = [f"INFO:util:[Pass 0, train batch {b}]  loss {21 - b / 5:.5f}, acc1 0.01, lr 0.1" for b in range(0, 40, 10)]
    _, series = _read(tmp_path, lines)
    assert [s for s, _ in series["loss"]] == [0, 10, 20, 30]


def test_a_banner_of_settings_gives_no_step_and_a_header_of_words_names_its_columns(tmp_path):
    # 'Gradient Accumulation steps = 4' and 'Total steps = 60' are settings; 'Training Loss' is one column
    lines = [
        "==  FastTune | Num GPUs = 1",
        "   Num examples = 900 | Num Epochs = 1",
        "   Batch size per device = 2 | Gradient Accumulation steps = 4",
        "   Total batch size = 8 | Total steps = 60",
        "Step\tTraining Loss",
        *(f"{s}\t{1.9 - s / 20:.6f}" for s in range(1, 7)),
    ]
    log, series = _read(tmp_path, lines)
    assert set(series) == {"loss"}
    assert [s for s, _ in series["loss"]] == [1, 2, 3, 4, 5, 6]
    assert not [e for e in log.events if e["kind"] == "restart"]


def test_an_event_line_that_names_its_step_is_at_that_step(tmp_path):
    lines = [f"step {s} | loss {2.0 - s / 1000:.3f}" for s in range(100, 600, 100)]
    lines.append("WARNING: loss is nan at step 540, skipping batch")
    lines.append("slurmstepd: error: *** STEP 5559.0 ON node3 CANCELLED AT 2024-01-02T03:04:05 DUE TO TIME LIMIT ***")
    log, _ = _read(tmp_path, lines)
    steps = {e["kind"]: e["step"] for e in log.events}
    assert steps["skipped_step"] == 540
    assert steps["preempted"] == 500  # the job step's id is no training step: the last one counted
    assert log.run["status"] == "cancelled"


def test_a_planned_stop_completes_the_run(tmp_path):
    for i, ending in enumerate(("Early stopping triggered at epoch 5: no improvement", "Reached max steps 500, stopping.")):
        lines = [f"epoch {e} | train loss {2.0 - e / 10:.3f} | val loss {2.1 - e / 10:.3f}" for e in range(1, 6)]
        (tmp_path / str(i)).mkdir()
        log, _ = _read(tmp_path / str(i), [*lines, ending])
        assert log.run["status"] == "completed", ending


def test_a_step_word_with_an_index_suffix_is_the_step(tmp_path):
    # Pax prints 'step_i: 1000'; nanoGPT-like loops 'iter_num'
    lines = [f"I0304 05:06:{s:02d}.123456 140000 programs.py:123] step_i: {s * 100}, training loss: {3.3 - s / 100:.4f}"
             for s in range(10, 60, 10)]
    _, series = _read(tmp_path, lines)
    assert [s for s, _ in series["loss"]] == [1000, 2000, 3000, 4000, 5000]
    assert "step_i" not in series


def test_a_bracketed_round_every_ten_lines_is_no_viewer_line_number(tmp_path):
    # '[10]<TAB>...' counts boosting rounds by tens: a log viewer would number every line by one
    lines = [f"[{i * 10}]\ttrain logloss: {0.5 - i / 100:.6f}\tvalid loss: {0.55 - i / 100:.6f}" for i in range(1, 6)]
    _, series = _read(tmp_path, lines)
    assert [s for s, _ in series["loss"]] == [10, 20, 30, 40, 50]
