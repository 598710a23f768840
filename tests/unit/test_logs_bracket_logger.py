"""A logger that prints its own name in brackets beside a bracketed level (``[Boostly] [Info] ...``,
``[SIMKIT][INFO]: ...``) names the package that wrote the log (issue 25: a clear marker names the tool). The
name is read by its place in the record header, not from a list of tools; a device or rank in the same place
(``[GPU0] [INFO]``) names nothing. Each log is written here, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_bracketed_name_before_a_spaced_level_names_the_package(tmp_path):
    lines = [
        "[Boostly] [Info] Number of positive: 120, number of negative: 880",
        "[Boostly] [Info] Total Bins 2040",
        "[Boostly] [Warning] No further splits with positive gain, best gain: -inf",
        "[10]\tvalid_0's l2: 0.52",
        "[20]\tvalid_0's l2: 0.41",
    ]
    assert parse_log(write_log(tmp_path, lines)).run["framework"] == "boostly"


def test_a_bracketed_name_glued_to_its_level_names_the_package(tmp_path):
    lines = [f"[SIMKIT][INFO]: step {s} loss {2.5 - s / 1000:.3f}" for s in (100, 200, 300)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.run["framework"] == "simkit"
    assert [s for s, _ in log.series("loss")] == [100, 200, 300]


def test_a_time_a_rank_or_a_device_in_brackets_names_nothing(tmp_path):
    lines = [
        "[2024-01-02 10:00:00] [INFO] step 100 loss 2.1",
        "[Rank 0] [INFO] step 200 loss 1.9",
        "[GPU0] [INFO] step 300 loss 1.7",
        "[rank1][WARNING] step 300 loss 1.7",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.run["framework"] is None
    assert log.series("loss")[0] == (100, 2.1)
