"""The log scorer reads the step fields as the gold counts them: training records in file order, a counter
that starts again counting its steps again, ranks printing a step out of order counting it once."""

from __future__ import annotations

import reallogs_score


def _rows(steps, name="loss"):
    return [(s, name, 1.0) for s in steps]


def test_a_counter_starting_again_each_epoch_counts_every_record_in_file_order():
    rows = _rows([100, 200, 300, 100, 200, 300, 100])
    assert reallogs_score.record_steps(rows) == [100, 200, 300, 100, 200, 300, 100]


def test_a_record_over_several_rows_and_ranks_out_of_order_count_once():
    rows = _rows([10, 10, 11, 12, 11, 12, 13]) + [(13, "lr", 0.1)]
    assert reallogs_score.record_steps(rows) == [10, 11, 12, 13]


def test_evaluation_rows_and_epoch_aggregates_are_no_records():
    rows = _rows([5, 6]) + [(7, "val_loss", 1.0), (7, "train_loss_epoch", 1.0)]
    assert reallogs_score.record_steps(rows) == [5, 6]


def test_records_with_no_step_count_a_line_each_where_no_record_has_a_step():
    rows = [(None, "loss", 1.0), (None, "lr", 0.1), (None, "loss", 0.9), (None, "val_loss", 1.2)]
    read = reallogs_score.reduce({}, rows, [], lines=[4, 4, 5, 6])
    assert read.steps == [] and read.stepless == 2  # lines 4 and 5; the evaluation's line 6 is no record
    stepped = reallogs_score.reduce({}, [(3, "loss", 1.0), (None, "loss", 0.9)], [], lines=[1, 2])
    assert len(stepped.steps) == 1  # where records have steps, those are what n_steps counts
