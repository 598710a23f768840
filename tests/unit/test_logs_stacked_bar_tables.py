"""A table drawn with bars whose column names are stacked over two lines (issue 25), as MATLAB's training
progress and many scripts' own reports print them: the lower line leaves the columns of one-line names empty
(``|         | (hh:mm:ss) |   Loss   |``), so its empty cells keep their columns and each column's name is its
words from top to bottom; a name whose last words the synonym table knows is read by them (``Base Learning Rate``
is the learning rate). Own-written logs in the shape, read through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log

_RULE = "|" + "=" * 70 + "|"
_LINES = [
    "Training on single GPU.",
    _RULE,
    "|  Epoch  |  Iteration  |  Time Elapsed  |  Mini-batch  |  Mini-batch  |  Base Learning  |",
    "|         |             |   (hh:mm:ss)   |   Accuracy   |     Loss     |      Rate       |",
    _RULE,
    "|       1 |           1 |       00:00:01 |       10.16% |       2.3036 |          0.0100 |",
    "|       1 |          50 |       00:00:04 |       71.88% |       0.8472 |          0.0100 |",
    "|       2 |         100 |       00:00:07 |       85.94% |       0.4410 |          0.0050 |",
    _RULE,
]


def test_names_stacked_over_two_lines_of_bars_keep_their_columns(tmp_path):
    log = parse_log(write_log(tmp_path, _LINES))
    assert log.series("loss") == [(1, 2.3036), (50, 0.8472), (100, 0.441)]
    assert log.series("lr")[-1] == (100, 0.005)
    assert [v for _, v in log.series("mini_batch_accuracy")] == [10.16, 71.88, 85.94]


def test_a_corner_left_empty_keeps_the_label_column(tmp_path):
    lines = [
        "|        |  loss  |  acc  |",
        "| train  |  0.52  |  0.81 |",
        "| val    |  0.61  |  0.77 |",
    ]
    log = parse_log(write_log(tmp_path, ["Epoch 3", *lines]))
    assert [v for _, v in log.series("loss")] == [0.52]
    assert [v for _, v in log.series("val_loss")] == [0.61]
