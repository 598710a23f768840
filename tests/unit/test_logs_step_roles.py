"""Which counter is the step, decided by the role its values play across the file's records (issue 25): a
counter that advances by one per record over one that advances by a batch's worth of samples, an unnamed
``(N/M)`` position that every line of a record repeats, an epoch's bar that a console wrapped. Each log is
written here in its shape and read through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _two_line_record(step: int, loss: float, seen: int, val: str = "") -> list[str]:
    return [
        f"Fit Step: {step}  | summed loss: {loss:.5f} | took: 0.201s",
        f"| SGD | round: 002 | loss: {loss:.5f} - prec: 0.5{step:02d}{val} -- iter: {seen:05d}/48000",
    ]


def test_a_record_printed_again_keeps_the_per_record_counter_as_the_step(tmp_path):
    # a two-line record (step line, then a line counting samples in lockstep, 32 per step), some printed
    # twice; the sample counter must still not become the step
    # (steps 4 and 6 twice: the report repeated, then the run going on from step 4 again)
    lines = []
    for step in (3, 4, 4, 5, 6, 4, 5, 6):
        lines += _two_line_record(step, 2.0 - step / 10, step * 32, " | val_loss: 1.10000" if step == 5 else "")
    log = parse_log(write_log(tmp_path, lines))
    # each second line is at its first line's step, not at its count of samples
    assert [s for s, _ in log.series("loss")] == [3, 4, 4, 5, 6, 4, 5, 6]
    assert log.series("loss")[-1] == (6, 1.4)
    assert log.series("val_loss")[-1][0] == 5


def test_a_position_with_its_total_that_every_metric_line_repeats_is_the_step(tmp_path):
    # one line per metric, each opening with the same unnamed (N/M) position, then a timing line
    lines = ["Loaded 52000 pairs."]
    for at in (500, 1000, 1500):
        lines += [
            f"[node 0][Fit]({at}/20000) mean pos_score: {0.9 - at / 5000:.4f}",
            f"[node 0][Fit]({at}/20000) mean loss: {1.2 - at / 4000:.4f}",
            f"[node 0][Fit] 500 steps took {9 + at / 1000:.2f} seconds",
        ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [500, 1000, 1500]
    assert log.series("loss")[-1] == (1500, 0.825)


def test_a_bracketed_part_out_of_parts_that_does_not_rise_is_no_step(tmp_path):
    lines = [f"[shard](2/4) loss: {1.5 - i / 10:.2f}" for i in range(4)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [None] * 4


def _epoch_bars(indent: str = "    ") -> list[str]:
    # an excerpt pasted as an indented block: epoch 1's bar with an unknown total, then per epoch a save and
    # the epoch's closing bar; epoch 1's closing bar is wrapped after a separator
    lines = [
        "420/Unknown - 61s 140ms/step - loss: 312.5000 - box_loss: 40.2500 - cls_loss: 272.2500",
        "Epoch 00001: saving model to ckpt/detector_1.tf",
        "420/420 [==============================] - 150s 350ms/step - loss: 312.5000 - box_loss: 40.2500 - ",
        "cls_loss: 272.2500 - val_loss: 90.1250 - val_box_loss: 9.5000 - lr: 1.0000e-03",
    ]
    for epoch, loss in ((2, 75.5), (3, 41.25)):
        lines += [
            f"Epoch {epoch}/30",
            f"420/420 [==============================] - ETA: 0s - loss: {loss:.4f} - box_loss: 6.0000",
            f"Epoch {epoch:05d}: saving model to ckpt/detector_{epoch}.tf",
            f"420/420 [==============================] - 140s 333ms/step - loss: {loss:.4f} - box_loss: 6.0000"
            f" - val_loss: {loss / 2:.4f} - lr: 1.0000e-03",
        ]
    return [indent + line for line in lines]


def test_an_epoch_bar_wrapped_after_its_separator_is_one_record_at_the_epoch(tmp_path):
    log = parse_log(write_log(tmp_path, _epoch_bars()))
    assert sorted({s for s, _ in log.series("loss") if s is not None}) == [1, 2, 3]
    assert log.series("val_loss")[0] == (1, 90.125)  # the wrapped piece is at epoch 1, not at the batch count
    assert "restart" not in log.event_kinds()


def test_a_save_naming_its_epoch_before_any_stepped_record_is_at_that_epoch(tmp_path):
    log = parse_log(write_log(tmp_path, _epoch_bars(indent="")))
    saves = sorted(e["step"] for e in log.events if e["kind"] == "checkpoint")
    assert saves == [1, 2, 3]


def test_an_ordinal_that_opens_every_record_and_rises_is_the_step(tmp_path):
    # one line per epoch numbered by an ordinal (``41th`` as such scripts spell it), then an evaluation line
    # with an ordinal of its own, which counts evaluations, not the run
    lines = [
        f"{e}th fit Loss: total loss {-0.5 - e / 100:.3f} / trans loss {1.2 - e / 100:.3f} / rot loss 0.021"
        for e in range(41, 46)
    ]
    lines.append("0th eval Loss: total loss -0.912 / trans loss 0.805 / rot loss 0.019")
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [41, 42, 43, 44, 45]
    assert log.series("val_loss") == [(45, -0.912)]


def test_a_save_count_in_brackets_on_lines_of_their_own_is_no_step(tmp_path):
    # batches counted in brackets, then a save's report whose lines each repeat its count ``Snapshot [2]``
    lines = [f"[INFO:nmt.fit] Round[1] Step [{b}]   rate: 0.71 steps/sec   ppl={40 - b / 1000:.4f}" for b in (1900, 1950, 2000)]
    lines += [
        "[INFO:nmt.fit] Snapshot [2]  Train-ppl=38.0000",
        "[INFO:nmt.fit] Snapshot [2]  Heldout-ppl=21.5000",
    ]
    log = parse_log(write_log(tmp_path, lines))
    rows = log.metrics.to_pylist()
    assert {r["step"] for r in rows} == {1900, 1950, 2000}  # the save's lines are at the last step, not at 2
    assert "restart" not in log.event_kinds()


def test_logger_records_pasted_without_line_breaks_are_read_one_by_one(tmp_path):
    # each record opens with its date and time, glued right after the unit ending the record before it
    records = [
        f"2023-03-02 10:{m:02d}:07,120 - INFO - round: 1, step_no: {s}, recall:0.{600 + m}, speed: 15.1 rows/s"
        for m, s in ((1, 510), (2, 520), (3, 530), (4, 540))
    ]
    log = parse_log(write_log(tmp_path, ["tail of an earlier one, speed: 14.9 rows/s" + "".join(records)]))
    assert [s for s, _ in log.series("recall")] == [510, 520, 530, 540]


def test_a_counter_word_with_an_index_suffix_is_a_counter(tmp_path):
    # ``batch_idx`` counts as ``batch`` does, line by line too, beside a round that stays 0 (one record broken
    # inside a key in the middle)
    def record(b: int, end: str = "") -> str:
        return f"INFO - round: 0, batch_idx: {b}, recall:0.{700 + b // 10}, wait: 0.00{b // 10}{end}"

    lines = [record(b) for b in (100, 110, 120)]
    lines += ["INFO - round: 0, batch_idx: 130, recall:0.713, wa", "it: 0.0013", record(140)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("recall")[0] == (100, 0.71)
    assert log.series("recall")[-1] == (140, 0.714)
