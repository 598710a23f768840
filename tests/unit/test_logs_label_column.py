"""A value in a column of its own after the words that label it and a bar (``Step 100: eval  Accuracy |  0.54``):
the words name it, and lines that differ only in their label are different series."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _parsed(tmp_path, lines):
    return parse_log(write_log(tmp_path, lines))


def test_labelled_columns_name_their_values(tmp_path):
    lines = []
    for step in (10, 20, 30):
        lines += [
            f"Step {step:>6}: Ran 10 train steps in 1.20 secs",
            f"Step {step:>6}: train NLLLoss |  {3.0 / step:.8f}",
            f"Step {step:>6}: eval  NLLLoss |  {4.0 / step:.8f}",
            f"Step {step:>6}: eval  Accuracy |  {step / 100:.8f}",
            "",
        ]
    parsed = _parsed(tmp_path, lines)
    assert [s for s, _ in parsed.series("loss")] == [10, 20, 30]
    assert [round(v, 6) for _, v in parsed.series("loss")] == [0.3, 0.15, 0.1]
    assert [round(v, 6) for _, v in parsed.series("val_loss")] == [0.4, 0.2, 0.133333]
    assert [round(v, 2) for _, v in parsed.series("eval_accuracy")] == [0.1, 0.2, 0.3]


def test_fields_joined_by_bars_keep_their_own_keys(tmp_path):
    lines = [f"step {s} | loss {1.0 / s:.3f} | lr 0.001" for s in (1, 2, 3)]
    parsed = _parsed(tmp_path, lines)
    assert [v for _, v in parsed.series("loss")] == [1.0, 0.5, 0.333]
    assert [v for _, v in parsed.series("lr")] == [0.001, 0.001, 0.001]
