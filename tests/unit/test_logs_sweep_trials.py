"""A hyperparameter sweep's log: each trial trains with its own table of epochs (a callback's table, its rule of
dashes, a ``+`` marking the epochs that saved a checkpoint, cells in colour), stops early and prints the trial's
summary line. The marked rows are records like the others; a trial's number is no step; each trial's epochs
start again at 1 without a restart; the job's time limit at the end is a preemption. Through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log

_HEADER = ["  epoch    train_loss    valid_loss    cp     dur", "-------  ------------  ------------  ----  ------"]


def _trial(number: int, epochs: int, start: float) -> list[str]:
    lines = ["Loading the dataset...", *_HEADER]
    for k in range(1, epochs + 1):
        loss = start - k / 100
        saved = "   +" if k % 2 else "    "
        lines.append(f"{k:7d}        \x1b[35m{loss:.4f}\x1b[0m        {loss + 0.02:.4f}  {saved}  31.{k:04d}")
    lines.append("Stopping since valid_loss has not improved in the last 3 epochs.")
    lines.append(
        f"[I 2031-02-03 04:0{number}:05,100] Trial {number} finished with value: {start:.4f} and parameters: "
        f"{{'lr': 0.00{number}, 'dropout': 0.1}}. Best is trial 1 with value: 0.2."
    )
    return lines


def _sweep() -> list[str]:
    lines = _trial(1, 5, 0.5) + _trial(2, 4, 0.6) + _trial(3, 3, 0.7)
    return lines + ["slurmstepd: error: *** JOB 4242 ON node7 CANCELLED AT 2031-02-03T05:00:00 DUE TO TIME LIMIT ***"]


def test_rows_marked_as_saves_are_records_like_the_others(tmp_path):
    log = parse_log(write_log(tmp_path, _sweep()))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3, 4, 5, 1, 2, 3, 4, 1, 2, 3]
    assert log.series("loss")[0] == (1, 0.49)


def test_a_trials_number_is_no_step_and_a_new_trial_no_restart(tmp_path):
    log = parse_log(write_log(tmp_path, _sweep()))
    assert "restart" not in log.event_kinds()
    assert max(s for s, _ in log.series("loss")) == 5
    assert log.run["status"] == "cancelled"
