"""Shapes of real logs (issue 25), in own-worded lines through ``parse_log``:

- a table whose header is underlined with a rule of dashes, one run per column (``---  ------  --------``):
  the rule marks each column's width, so numbers right-aligned under a name written at the column's left edge
  are that column's; a name with digits inside (``TOK2VEC``) and a count's column named ``#`` are a header's;
  a loss term named after the word (``LOSS NER``) makes the table a training log's;
- records that repeat their keys are records by their shape whether a number prints its decimals or not
  (``total: 52.1ms`` then ``total: 101ms``), from the first one on;
- a value under a split's name alone (``learn: 0.68  test: 0.69``, ``train: 0.52  val: 0.61``) is that split's
  loss where the record names no loss;
- a line of ``key: nan`` pairs is a record gone non-finite, never a table's header."""

from __future__ import annotations

from pathlib import Path

from log_files import write_log

from assay.operators.logs import parse_log

RULED = [
    "i Initial learn rate: 0.001",
    "E    #       LOSS TOK2VEC  LOSS NER  ENTS_F  SCORE ",
    "---  ------  ------------  --------  ------  ------",
    "  0       0          0.00     51.20    0.10    0.00",
    "  0     250         98.70   2011.40   44.10    0.44",
    "  1     500        117.30    902.80   60.90    0.61",
    "  2     750        131.00    610.50   67.20    0.67",
    "Saved pipeline to output directory",
]


def test_a_ruled_table_reads_each_column_within_its_rule(tmp_path: Path) -> None:
    log = parse_log(write_log(tmp_path, RULED))
    assert [s for s, _ in log.series("loss_ner")] == [0, 250, 500, 750]
    assert [v for _, v in log.series("loss_tok2vec")] == [0.0, 98.7, 117.3, 131.0]
    assert not log.series("loss")  # two loss terms, no total (L3)
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 750)]


def _boosting(i: int, total: str, remaining: str) -> str:
    return f"{i}:\tlearn: 0.68{i}1234\ttest: 0.69{i}0123\tbest: 0.69{i}0123 ({i})\ttotal: {total}\tremaining: {remaining}"


def test_records_by_shape_whatever_decimals_their_numbers_print(tmp_path: Path) -> None:
    lines = [_boosting(0, "52.1ms", "52s"), _boosting(1, "101ms", "50.4s"), _boosting(2, "150ms", "49.9s")]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [0, 1, 2]


def test_a_value_under_a_split_s_name_alone_is_that_split_s_loss(tmp_path: Path) -> None:
    # ``learn: 0.68  test: 0.69`` (a boosting library's), ``train: 0.52  val: 0.61``: each split's objective;
    # an evaluation's counter under the split's name (``Test: [ 10/196]``) counts batches, no loss
    lines = [_boosting(0, "52.1ms", "52s"), _boosting(1, "101ms", "50.4s"), _boosting(2, "150ms", "49.9s")]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (2, 0.6821234)
    assert log.series("val_loss")[-1] == (2, 0.6920123)
    plain = [f"epoch {e} train: 0.{52 - e}10 val: 0.{61 - e}00" for e in range(1, 4)]
    log = parse_log(write_log(tmp_path, plain, name="plain.log"))
    assert log.series("loss") == [(1, 0.511), (2, 0.501), (3, 0.491)]
    assert [v for _, v in log.series("val_loss")] == [0.6, 0.59, 0.58]
    counted = [f"Epoch: [{e}]  loss 2.{9 - e}1" for e in range(3)] + [f"Test: [{b}/30]  acc1 7{b}.5" for b in (10, 20)]
    assert [v for _, v in parse_log(write_log(tmp_path, counted, name="c.log")).series("loss")] == [2.91, 2.81, 2.71]


def test_a_line_of_nan_pairs_is_no_header(tmp_path: Path) -> None:
    lines = [f"grad_norm: {300 + i}.51  loss: {2.5 - i / 10:.4f}  loss_cls: 0.{i}1  loss_box: 0.{i}2" for i in range(3)]
    lines += ["grad_norm: nan  loss: nan  loss_cls: nan  loss_box: nan"] * 2
    log = parse_log(write_log(tmp_path, lines))
    assert [e["kind"] for e in log.events] == ["nan"]
    assert str(log.series("loss")[-1][1]) == "nan"
