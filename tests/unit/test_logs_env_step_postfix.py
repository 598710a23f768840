"""Tianshou's ``env_step`` in a bar's postfix counts the run's environment steps: the step, over the bar's count
of the epoch's iterations. Through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_tianshou_s_env_step_in_a_bar_is_the_run_s_step(tmp_path):
    # a bar part-way through an epoch: its count is the epoch's, the postfix's env_step the run's
    lines = [
        f"Epoch #{e}: {pct}%|##   | {n}/10000 [00:20<01:20, 100.0it/s, env_step={(e - 1) * 10000 + n}, "
        f"len=112, loss={0.2 - e / 100:.3f}, n/ep=0, n/st=10, rew=1.69]"
        for e in (7, 8) for pct, n in ((20, 2000), (60, 6000))
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [62000, 66000, 72000, 76000]
