"""A line that names its epoch and the update counter but no place within the epoch, printing the values the
step lines print beside the same counter, is the epoch's summary: its values are the epoch's, no step record;
and the ``best`` an evaluation line prints is the validation's. Logs written for the test."""

from __future__ import annotations

from assay.operators.logs import parse_log

_VALUES = "loss {loss} | nll {nll} | wps 9120 | bsz 64 | num_updates {n} | lr 0.0003 | gnorm 0.98"


def _step_line(epoch: int, at: int, n: int, loss: float) -> str:
    values = _VALUES.format(loss=loss, nll=loss - 1, n=n).replace(" | ", ", ").replace(" ", "=")
    values = values.replace(",=", ", ")
    return f"| epoch {epoch:03d}:   {at} / 1500 {values}"


def _summary(epoch: int, n: int, loss: float) -> str:
    return f"| epoch {epoch:03d} | " + _VALUES.format(loss=loss, nll=loss - 1, n=n)


def _validation(epoch: int, n: int, loss: float) -> str:
    return f"| epoch {epoch:03d} | valid on 'dev' subset | dev_loss {loss} | dev_nll {loss - 1} | num_updates {n} | best {loss}"


def test_an_epoch_summary_beside_placed_step_lines_is_no_step_record(tmp_path):
    lines = [
        _summary(3, 4500, 5.41),
        _validation(3, 4500, 5.62),
        _step_line(4, 500, 5000, 5.30),
        _step_line(4, 1000, 5500, 5.22),
        _summary(4, 6000, 5.25),
        _validation(4, 6000, 5.50),
        _step_line(5, 500, 6500, 5.11),
    ]
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    assert parsed.series("loss") == [(5000, 5.30), (5500, 5.22), (6500, 5.11)]
    assert parsed.series("epoch_loss") == [(4500, 5.41), (6000, 5.25)]
    assert parsed.series("val_loss") == [(4500, 5.62), (6000, 5.50)]
    # the best validation loss so far is the validation's, not a training value
    assert parsed.series("val_best") == [(4500, 5.62), (6000, 5.50)]
    assert parsed.series("best") == []


def test_an_epoch_line_alone_is_the_record(tmp_path):
    # no line counts its place within the epoch: the one line an epoch prints is the record
    lines = [_summary(e, 1500 * e, 6 - e / 10) for e in (1, 2, 3)]
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n")
    assert parse_log(path).series("loss") == [(1500, 5.9), (3000, 5.8), (4500, 5.7)]
