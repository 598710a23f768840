"""A progress bar drawn again and again on one line whose carriage returns were lost (a terminal pasted into an
issue): each draw is a record of its own, from the description before its percentage (issue 25). Own-written
lines in Lightning's and plain tqdm's shapes, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _lightning_draw(i: int, step: int, loss: float) -> str:
    return (
        f"Epoch 0:   {i // 100}%|▎         | {i}/20000 [1:02:{i % 60:02d}<70:00:00, 12.0s/it, loss={loss + 0.2:.3f}, "
        f"v_num=3, reduced_train_loss={loss:.3f}, global_step={step}.0, consumed_samples=1.2e+5, "
    )


def test_lightning_draws_glued_on_one_line_are_records_at_their_global_steps(tmp_path):
    line = "".join(_lightning_draw(i, i - 2, 3.9 - (i - 400) / 100) for i in (402, 403, 404, 405))
    log = parse_log(write_log(tmp_path, [line]))
    assert [s for s, _ in log.series("loss")] == [400, 401, 402, 403]
    assert log.series("loss")[-1][1] == 3.85


def test_plain_bars_glued_on_one_line_are_records_at_their_counts(tmp_path):
    draws = [
        f"train:  {k}%|####      | {k}/100 [00:{k:02d}<01:00,  1.50it/s, loss={2.0 - k / 100:.2f}, lr=1e-04]"
        for k in (10, 20, 30)
    ]
    log = parse_log(write_log(tmp_path, ["".join(draws), "done"]))
    assert log.series("loss") == [(10, 1.9), (20, 1.8), (30, 1.7)]


def test_draws_whose_total_is_printed_as_a_float_are_apart(tmp_path):
    draws = [
        f"Epoch #3:   {k}%|##    | {k * 1000}/100000.0 [00:{k:02d}<05:00, 240.1it/s, env_step={200000 + k * 1000}, "
        f"loss={0.5 - k / 100:.3f}, rew=0.{k}]"
        for k in (1, 2, 3)
    ]
    log = parse_log(write_log(tmp_path, ["".join(draws)]))
    assert [s for s, _ in log.series("loss")] == [201000, 202000, 203000]
    assert not [n for n in set(log.metrics.column("name").to_pylist()) if "_at_" in n]
