"""A step key whose values go up and down (the length of each episode, ``episode steps: 164``, ``142``...)
counts no steps: the template's number that rises on every record is the step. Read from behaviour across
the template's records, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log

_LENGTHS = (150, 120, 95, 180, 131)


def _episodes() -> list[str]:
    lines, done = [], 20000
    for k, length in enumerate(_LENGTHS):
        done += length
        lines.append(
            f" {done}/90000: episode: {40 + k}, duration: {length / 30:.3f}s, episode steps: {length}, "
            f"steps per second: 30, episode reward: -{300 + k}.5, loss: {12.5 + k:.6f}, mean_q: 1.{k}"
        )
    return lines


def test_the_rising_counter_is_the_step_not_the_wandering_step_key(tmp_path):
    log = parse_log(write_log(tmp_path, _episodes()))
    steps = [s for s, _ in log.series("loss")]
    assert steps == [20150, 20270, 20365, 20545, 20676]


def test_a_counter_that_starts_again_each_epoch_still_counts(tmp_path):
    # goes down once (a new epoch), not wandering: the step key stays the step
    lines = [f"epoch {e} step {n} loss {1 - n / 1000:.3f} tokens {n * 7 % 13}" for e in (1, 2) for n in (100, 200, 300)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")][:3] == [100, 200, 300]
