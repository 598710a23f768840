"""Shapes of real logs (issue 25), in own-worded lines through ``parse_log``:

- a loop's counter standing alone as a field between dashes, no name, before named fields (``INFO - 03/02/21
  10:00:01 - 0:02:10 -     420 -  61.20 sent/s - ... xent:  5.91``): it rises on every record, so it is the step;
- a position with its total opening the line unbracketed (``51000 / 1000000 eps 0.899 | Loss 9.2e-03``) is the
  step where the total stays and the position rises;
- a Python logger's header written with em dashes (``— trainer.ppo — INFO — ``) is peeled like the hyphen's;
- an RL objective's policy term (``Mean surrogate loss``) is a part of the objective, like its value term: a
  record of only such parts has no single loss;
- a duration written in parts (``10m 05s``) is one token as ``41s`` is, so a line keeps its template (and its
  step) when the run's time passes a minute; the terminal's ``^C`` on a line of its own cancels the run."""

from __future__ import annotations

import json
from pathlib import Path

from log_files import write_log

from assay.operators.logs import parse_log


def _dashed(i: int) -> str:
    return (
        f"INFO - 03/02/21 10:00:0{i} - 0:02:1{i} -     {420 + 5 * i} -  61.2{i} sent/s -  2200.5{i} words/s - "
        f"xent:  {5.91 - 0.1 * i:.4f} -  - model LR: 1.25{i}e-05"
    )


def test_a_lone_number_between_dashes_is_the_step(tmp_path: Path) -> None:
    log = parse_log(write_log(tmp_path, [_dashed(i) for i in range(4)]))
    assert [s for s, _ in log.series("lr")] == [420, 425, 430, 435]
    assert "the counter 'an unnamed field'" in " ".join(json.loads(log.run["config"])["summary"]["decisions"])


def test_a_position_with_its_total_opening_the_line_is_the_step(tmp_path: Path) -> None:
    lines = [f"{51000 + 500 * i} / 1000000 eps 0.{899 - i} |  avgR -0.997 | Loss {9.2 - i:.1f}e-03 | Grad 5.5e-03 "
             for i in range(5)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [51000, 51500, 52000, 52500, 53000]
    assert log.series("loss")[-1][1] == 0.0052


def test_an_em_dash_logger_header_is_peeled(tmp_path: Path) -> None:
    lines = [f"2021-03-02 10:00:0{i},256 — trainer.ppo — INFO — step {10 * i} loss {2.5 - 0.1 * i:.2f}" for i in range(4)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(0, 2.5), (10, 2.4), (20, 2.3), (30, 2.2)]
    assert "logger_dash" in (log.records[0]["line_prefix"] or "").split("+")


def test_policy_and_value_terms_alone_give_no_loss(tmp_path: Path) -> None:
    lines = []
    for i in range(3):
        lines += [
            f"              Learning iteration {5 + i}/300",
            f"                 Mean value loss: 0.4{i}",
            f"             Mean surrogate loss: -0.01{i}",
            f"                     Mean reward: {3 + i}.5",
        ]
    log = parse_log(write_log(tmp_path, lines))
    assert not log.series("loss")
    assert log.series("mean_surrogate_loss") or log.series("surrogate_loss")


def test_a_duration_in_parts_keeps_the_lines_one_template(tmp_path: Path) -> None:
    # ``time 41s`` on the first line, ``time 10m 05s`` after: one template, so the first line keeps its step
    times = ["41s", "10m 05s", "20m 11s", "1h 00m 09s"]
    lines = [f"tick {i}     kimg {6.1 * i:.1f}    minibatch 32   time {t}    sec/tick 601.2   gpumem 5.1"
             for i, t in enumerate(times)]
    log = parse_log(write_log(tmp_path, [*lines, "^C"]))
    assert [s for s, _ in log.series("kimg")] == [0, 1, 2, 3]
    assert [(e["kind"], e["step"]) for e in log.events] == [("cancelled", 3)]
    assert log.run["status"] == "cancelled"
