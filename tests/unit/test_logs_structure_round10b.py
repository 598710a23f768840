"""Shapes read from structure (issue 25, session-10 round on a second development set), each on a log written here
in that shape, through the whole ``parse_log`` path: a booster's evaluation list with its splits in the
possessive, a round counter followed by a colon, a key glued to the decimal before it, a start-up banner's
fields apart by ``|``, a save verb that is only a folder of a path, and a run that loads a checkpoint to go on."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_boosters_splits_in_the_possessive_are_its_loss_and_validation_loss(tmp_path):
    # the Python package's form: a tab after the round, ``training's`` and ``valid_1's`` before each metric
    lines = [f"[{r}]\ttraining's l2: 0.{90 - r}\tvalid_1's l2: 0.{95 - r}" for r in (10, 20, 30)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(10, 0.8), (20, 0.7), (30, 0.6)]
    assert log.series("val_loss")[-1] == (30, 0.65)


def test_a_round_counter_followed_by_a_colon_is_the_step(tmp_path):
    # another binding's form: ``[5]:`` then the evaluation list, a round on every line
    lines = [f"[{r}]:    train's l2:0.0{960 - r}    valid's l2:0.1{50 - r}" for r in range(5, 10)]
    log = parse_log(write_log(tmp_path, lines, name="r.log"))
    assert [s for s, _ in log.series("loss")] == [5, 6, 7, 8, 9]
    assert log.series("val_loss")[-1] == (9, 0.141)


def test_a_key_glued_to_the_decimal_before_it_is_a_key_not_a_unit(tmp_path):
    # a fixed-width column that overflowed: the value runs into the next field's key
    lines = [f"step {i} loss 0.{62 - i}31415926took: 17.{i} sec" for i in range(1, 5)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (4, 0.5831415926)
    # a unit glued to its number stays the value's (no colon follows it)
    log = parse_log(write_log(tmp_path, [f"step {i} loss 0.5 mem 3.{i}GB" for i in range(1, 4)], name="units.log"))
    assert log.series("memory_mb") == [(1, 3.1 * 1024), (2, 3.2 * 1024), (3, 3.3 * 1024)]


def test_a_banners_fields_apart_by_bars_give_the_layout(tmp_path):
    lines = [
        "== FastTune == | Num GPUs = 2",
        "   Batch size per device = 4 | Gradient Accumulation steps = 8",
        "   Total batch size = 64 | Total steps = 500",
        *(f"step {s}, loss {2.0 - s / 100:.2f}" for s in (10, 20, 30)),
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert (log.run["world_size"], log.run["micro_batch_size"], log.run["global_batch_size"]) == (2, 4, 64)
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]


def test_a_save_verb_that_is_a_folder_of_a_path_is_no_save(tmp_path):
    lines = ["fetch tokenizer: using existing file in /runs/exp1/save/tokenizer.ckpt",
             "step 1 loss 0.9", "step 2 loss 0.8", "saving weights to /runs/exp1/save/step2.ckpt"]
    events = parse_log(write_log(tmp_path, lines)).events
    assert [(e["kind"], e["step"]) for e in events] == [("checkpoint", 2)]


def test_loading_a_checkpoint_to_go_on_is_a_restart(tmp_path):
    lines = ["INFO - Loading a checkpoint from /runs/exp1/save/CKPT+2024-01-02", "INFO - Going into epoch 25",
             "INFO - epoch: 25, lr: 1e-4 - train loss: 0.72", "INFO - epoch: 26, lr: 1e-4 - train loss: 0.70"]
    assert "restart" in {e["kind"] for e in parse_log(write_log(tmp_path, lines)).events}


def test_the_seconds_of_a_bars_clock_count_no_steps(tmp_path):
    # a bar pasted at its end each epoch: the counter stands still at its total, and the elapsed time's seconds
    # (15, 16, 18) rise as a counter would; they are a clock's, never the step
    lines = [f"100%|##########| 2774/2774 [14:{s}<00:00,  3.24it/s, train_loss=5.{86 - k}]"
             for k, s in enumerate((15, 16, 18))]
    steps = {s for s, _ in parse_log(write_log(tmp_path, lines)).series("loss")}
    assert not steps & {15, 16, 18}


def test_bars_pasted_at_their_total_each_epoch_are_the_epochs_records(tmp_path):
    # a loop that announces "Going into epoch N" only after its first epoch: the first bar, at its total like
    # the others, is the epoch before the first banner; the epoch's summary line after each bar is at that epoch
    lines = []
    for k, epoch in enumerate((4, 5, 6)):
        if k:
            lines.append(f"toolkit.loop.epochs - Going into epoch {epoch}")
        lines.append(f"100%|##########| 900/900 [05:{10 + k}<00:00,  2.9it/s, train_loss=3.{9 - k}]")
        lines.append(f"toolkit.loop.logger - Epoch: {epoch}, lr: 1e-04 - train loss: 3.{9 - k} - valid loss: 4.{5 - k}")
    log = parse_log(write_log(tmp_path, lines))
    assert sorted({s for s, _ in log.series("loss")}) == [4, 5, 6]
    assert log.series("val_loss")[-1] == (6, 4.3)


def test_a_last_line_cut_inside_a_value_and_before_the_fields_after_it_is_no_record(tmp_path):
    # %g-style values (trailing zeros dropped, so widths vary by a digit); the last line stops inside its first
    # value, the fields after it gone: that value is a prefix of another number, not a reading
    values = ["0.0950898", "0.094514", "0.0939542", "0.0934401", "0.092749"]
    lines = [f"[{r}]:   train's l2:{v}    valid's l2:0.10{r}" for r, v in enumerate(values, start=5)]
    lines.append("[10]:   train's l2:0.09")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (9, 0.092749)
    # printed whole, the same short value is read
    lines[-1] = "[10]:   train's l2:0.0921003    valid's l2:0.1010"
    assert parse_log(write_log(tmp_path, lines, name="whole.log")).series("loss")[-1] == (10, 0.0921003)


def test_every_worded_setting_the_options_read_is_also_a_line_the_reader_selects(tmp_path):
    # the line selection is built from the same pieces as the patterns that read the settings
    lines = ["   Number of GPUs = 2", "   Train batch size per worker = 4", "step 10, loss 1.90", "step 20, loss 1.80"]
    log = parse_log(write_log(tmp_path, lines))
    assert (log.run["world_size"], log.run["micro_batch_size"]) == (2, 4)
