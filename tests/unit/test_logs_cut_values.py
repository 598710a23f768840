"""A log cut inside its last record keeps that record's last value where the cut cannot have changed its
size (issue 25): a decimal cut after four or more significant digits is the same number, shortened. Before,
any last value shorter than the field ever was got blanked, and a record whose only value was the cut one
lost its step. Own-worded logs through the whole ``parse_log`` path."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log
from assay.operators.logs._cut import EXAMPLES, cut_value_kept

_BAR = "\u2588" * 6


def _record(batch: int, cost: float) -> str:
    return (f"Fit round 2/4, batch {batch}/40 done (loss: {cost!r}):  {batch * 2}%|{_BAR}   | "
            f"{batch // 5}/8 [00:{batch:02d}<00:40, 5.01s/it]")


def test_a_cut_loss_with_its_leading_digits_is_read(tmp_path):
    costs = [0.71828182845904, 0.6931471805599453, 0.5772156649015329, 0.4142135623730951, 0.3183098861837907]
    lines = [_record(b, c) for b, c in zip(range(21, 26), costs, strict=True)]
    lines.append("Fit round 2/4, batch 26/40 done (loss: 0.270270135")  # the excerpt ends inside the record
    log = parse_log(write_log(tmp_path, lines, "fit.log"))
    assert log.series("loss")[-1] == (26, 0.270270135)
    assert len(log.series("loss")) == 6


def test_a_cut_value_with_too_few_digits_is_still_left_out(tmp_path):
    lines = [f"it {i}/900 | loss {2 - i / 100:.5f} | rate 0.00019999 | took {30 + i % 3}.5s;" for i in range(1, 7)]
    lines.append("it 7/900 | loss 1.93000 | rate 0.00")
    log = parse_log(write_log(tmp_path, lines, "rate.log"))
    assert log.series("loss")[-1] == (7, 1.93)
    assert all(v > 0.0001 for _, v in log.series("lr"))


def test_a_loss_cut_to_three_digits_is_no_last_loss(tmp_path):
    # ``26.2`` of a field printed as ``26.454792``: the cut may have moved it by 1 %, so the last loss is the
    # record's before
    lines = [f"[trainer] epoch: [1/90], global_step: {s}, lr: {s / 4e6:.6f}, loss: {27 - s / 1000:.6f}, "
             f"avg_cost: 0.0{s % 7 + 1}01 s, ips: {1200 + s % 13}.5 samples/s" for s in range(100, 701, 100)]
    lines.append("[trainer] epoch: [1/90], global_step: 720, lr: 0.000180, loss: 26.2")
    log = parse_log(write_log(tmp_path, lines, "cut3.log"))
    assert log.series("loss")[-1] == (700, 26.3)


@pytest.mark.parametrize(("case", "kept"), list(EXAMPLES.items()))
def test_the_examples_of_the_rule(case, kept):
    value, siblings = case
    assert cut_value_kept(value, siblings) is kept
