"""Keys printed together before values printed together (``epoch/iter: 3/1210``): each value takes its own
word, so the iteration is the step and the epoch no counter of a total; a rate (``tok/s: 900``) stays one
value. Through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_joined_keys_name_their_values_in_order(tmp_path):
    lines = [
        f"[05/01 09:1{k}:00 reid.events]:  eta: 0:5{k}:00  epoch/iter: {e}/{it}  total_loss: {3.0 - k / 10:.2f}  "
        f"loss_tri: 0.1{k}  lr: 1.00e-04"
        for k, (e, it) in enumerate(((3, 1210), (3, 1230), (4, 1250)))
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(1210, 3.0), (1230, 2.9), (1250, 2.8)]


def test_three_joined_keys(tmp_path):
    lines = [f"epoch/iter/lr = 2/{n}/0.{n}5 , loss = {1 - n / 100:.2f}" for n in (10, 20, 30)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]
    assert log.series("lr") == [(10, 0.105), (20, 0.205), (30, 0.305)]


def test_a_rate_key_keeps_its_one_value(tmp_path):
    lines = [f"step {n} | loss {1 - n / 100:.2f} | tok/s: {900 + n}" for n in (10, 20, 30)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]
    assert [v for _, v in log.series("tokens_per_s")] == [910, 920, 930]
