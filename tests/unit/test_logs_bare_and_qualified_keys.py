"""A bare key beside a qualified key of the same word on one line (issue 25): in ``reward -21.0, avg reward
-20.5`` the bare ``reward`` keeps its name and the qualified one is ``avg_reward`` (no ``reward_at_3``). Own-written
RL episode lines, read through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_the_bare_key_keeps_the_name_and_the_qualified_its_phrase(tmp_path):
    lines = [
        f"INFO:agent:episode {k}, reward {-21 + k:.6f}, avg reward {-21 + k / 2:.6f}, total steps {k * 900}, "
        f"episode step 900"
        for k in range(1, 6)
    ]
    log = parse_log(write_log(tmp_path, lines))
    names = {row["name"] for row in log.metrics.to_pylist()}
    assert {"reward", "avg_reward"} <= names and not any("_at_" in n for n in names)
    assert log.series("reward")[-1] == (4500, -16.0) and log.series("avg_reward")[-1] == (4500, -18.5)
