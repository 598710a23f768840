"""The reader's own mistakes found on a seventh set of real logs (issue 25), each on lines written here in
the shapes seen, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_metric_abbreviation_inside_a_pointer_makes_no_record(tmp_path):
    # ``f1`` inside ``0xbf12000``: a communicator's status line, no training values
    lines = [
        "node-7:2211:2290 [3] NCCL INFO comm 0xbf12000 rank 5 nranks 8 cudaDev 3 busId 1c000 - Abort COMPLETE",
        "host-7:2211:2290 [3] NCCL INFO comm 0x7ff1a20 rank 6 nranks 8 cudaDev 2 busId 2a000 - Init COMPLETE",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.metrics.num_rows == 0


def test_a_metric_word_inside_a_compound_and_an_abbreviation_after_a_separator_are_still_read(tmp_path):
    lines = [f"[{s}]\tvalid-logloss:{1 - s / 1000:.3f}\ttrain-logloss:{0.5 - s / 2000:.3f}" for s in (100, 200, 300)]
    lines += [f"round {s} valAcc {s / 1000:.2f}" for s in (400, 500)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("valacc") or log.series("val_acc")
    assert [s for s, _ in log.series("val_loss")][:3] == [100, 200, 300]


def test_a_counter_that_says_global_is_the_step_as_printed(tmp_path):
    lines = [
        f"epoch   3/  8 | global iteration   {s:>6}/    5000 | learning rate 2e-05 | lm loss {1 - s / 1e4:.4f} |"
        for s in (1200, 1210, 1220)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [1200, 1210, 1220]  # not shifted by two epochs of 5000


def test_a_counter_without_global_beside_an_epoch_still_counts_on_over_epochs(tmp_path):
    lines = [f"epoch 2/ 8 | iteration {s:>4}/ 500 | loss {1 - s / 1e4:.4f}" for s in (100, 200)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [600, 700]


def test_a_record_with_a_traceback_glued_on_its_line_keeps_its_values_and_the_failure(tmp_path):
    lines = [f"iter {s} || Loss: {5 - s / 100:.2f} || timer: 0.1 sec." for s in (140, 150)]
    lines += [
        "iter 160 || Loss: 3.40 || Traceback (most recent call last):",
        '  File "train.py", line 88, in <module>',
        "    images, targets = next(batches)",
        "StopIteration",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (160, 3.4)
    assert any(e["kind"] == "failure" for e in log.events)


def test_a_loss_named_with_its_total_after_the_loss_word_is_the_loss(tmp_path):
    lines = [f"Steps : {s}, Gen Loss Total : {60 - s / 10:.2f}, Mel Error : 1.2, s/b : 1.1" for s in (100, 105, 110)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(100, 50.0), (105, 49.5), (110, 49.0)]
    assert not log.series("total")


def test_an_auxiliary_loss_named_in_words_stays_a_term(tmp_path):
    lines = [f"Steps : {s}, KL Loss : 0.3, Recon Loss Total : {2 - s / 1000:.2f}" for s in (100, 200)]
    log = parse_log(write_log(tmp_path, lines))
    assert [v for _, v in log.series("loss")] == [1.9, 1.8]  # the reconstruction total, not the KL term


def test_a_vali_loss_is_the_validation_loss_and_a_test_loss_beside_it_is_not(tmp_path):
    lines = [
        f"Epoch: {e}, Steps: 300 | Train Loss: {0.5 - e / 100:.2f} Vali Loss: {0.6 - e / 100:.2f} "
        f"Test Loss: {0.7 - e / 100:.2f}"
        for e in (1, 2)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [v for _, v in log.series("val_loss")] == [0.59, 0.58]
    assert [v for _, v in log.series("test_loss")] == [0.69, 0.68]


def test_a_test_loss_alone_is_still_the_held_out_loss(tmp_path):
    lines = [f"epoch {e} | train loss {1 - e / 10:.2f} | test loss {1.2 - e / 10:.2f}" for e in (1, 2)]
    log = parse_log(write_log(tmp_path, lines))
    assert [v for _, v in log.series("val_loss")] == [1.1, 1.0]
