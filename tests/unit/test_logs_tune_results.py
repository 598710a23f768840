"""Ray Tune's result blocks of an RLlib trainer (issue 25): ``Result for PPO_...:`` over indented ``key: value``
lines name RLlib, each block is a record at its run-wide ``timesteps_total`` (D10), and the state Tune reports
after restoring a checkpoint for evaluation (``Current state after restoring: {'_iteration': 3, ...}``) is the
restored run's summary, no record and no counter going back. An own-written log in that shape, through
``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _tune_log() -> list[str]:
    lines = []
    for it, total_loss in zip((1, 2, 3), (4.1, 3.6, 2.2), strict=True):
        lines += [
            "Result for PPO_GridEnv_ab12c_00000:",
            f"  agent_timesteps_total: {4000 * it}",
            "  done: false",
            f"  episode_reward_mean: {-30 + 2 * it}.25",
            "  info:",
            "    learner:",
            "      default_policy:",
            "        learner_stats:",
            f"          total_loss: {total_loss}",
            "          vf_loss: 1.5",
            f"  timesteps_total: {4000 * it}",
            f"  training_iteration: {it}",
            "",
        ]
    lines += [
        "2024-04-25 09:38:44,094\tINFO trainable.py:385 -- Current state after restoring: {'_iteration': 3, "
        "'_timesteps_total': None, '_time_total': 120.5, '_episodes_total': 120}",
    ]
    return lines


def test_tune_result_blocks_are_rllib_records_at_their_timesteps(tmp_path):
    log = parse_log(write_log(tmp_path, _tune_log()))
    assert log.run["framework"] == "RLlib"
    assert [s for s, _ in log.series("loss")] == [4000, 8000, 12000]


def test_the_state_after_restoring_is_no_record(tmp_path):
    log = parse_log(write_log(tmp_path, _tune_log()))
    steps = {row["step"] for row in log.metrics.to_pylist() if row["step"] is not None}
    assert max(steps) == 12000 and 3 not in steps
    assert "restart" not in log.event_kinds()
