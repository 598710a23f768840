"""A named counter that rises by one stride on every record (``env_step=50000,`` in a bar's postfix, a
separator glued on) is the step over the epoch beside it; a line numbered only by its epoch among such lines
(an evaluation after each epoch) is at the step of the line before it, not at step 1, 2, 3. Read from the
counters' behaviour, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _epochs(n: int = 4) -> list[str]:
    lines = []
    for e in range(1, n + 1):
        lines.append(
            f"Epoch #{e}: 20001it [00:21, 950.1it/s, env_step={e * 20000}, ep_len=180, loss={0.5 / e:.3f}, "
            f"loss/vf={0.1 / e:.3f}, rew={100 + e}.00]"
        )
        lines.append(f"Epoch #{e}: eval_return: {150 + e}.000000 ± 0.000000, best_return: {150 + e}.000000 in #{e}")
    return lines


def test_the_steady_named_counter_is_the_step(tmp_path):
    log = parse_log(write_log(tmp_path, _epochs()))
    assert [s for s, _ in log.series("loss")] == [20000, 40000, 60000, 80000]


def test_the_epoch_numbered_line_is_at_the_step_before_it(tmp_path):
    log = parse_log(write_log(tmp_path, _epochs()))
    steps = sorted(set(log.metrics.column("step").to_pylist()))
    assert steps == [20000, 40000, 60000, 80000]


def test_an_epoch_log_alone_still_counts_epochs(tmp_path):
    lines = [f"Epoch #{e}: eval_return: {150 + e}.000000, loss: 0.{e}" for e in range(1, 4)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3]
