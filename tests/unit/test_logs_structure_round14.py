"""Logs round 14: class-level readings found on a newly opened set (distributed launchers and runtimes), each rule
on a log written here in its shape (own-worded tool output) and read through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_loss_behind_a_doubled_colon_in_a_bar_description_is_read(tmp_path):
    # ``Loss :: 0.0412:  7%|...``: the bar's description names its loss with ``::``; the value before the
    # description's own colon is that loss, not the hours of a clock time
    lines = [
        f"~~ [Lap 002] Global Step {n:06d} ~~ Rate :: 0.000150 - Loss :: {loss}:  7%|▋         | "
        f"{n + 1}/30000 [1:10:05<14:20:11,  1.91s/it]"
        for n, loss in ((1840, "0.0412"), (1850, "0.0398"), (1860, "0.0405"))
    ]
    log = parse_log(write_log(tmp_path, lines, "relay.log"))
    assert log.series("loss") == [(1840, 0.0412), (1850, 0.0398), (1860, 0.0405)]


def test_a_non_finite_loss_ending_a_sentence_is_the_records_loss(tmp_path):
    # ``Loss is NaN.``: the full stop ends the sentence, the word before it is the value
    lines = [
        f"07:12:{s:02d} NOTE Stepper - [Round 31][Update {u}] Pushed 1024 rows. Loss is {v}. Rate now 0.02."
        for s, u, v in ((1, 5210, "0.8125"), (3, 5211, "0.8090"), (5, 5212, "NaN"))
    ]
    log = parse_log(write_log(tmp_path, lines, "relay.log"))
    steps = [s for s, _ in log.series("loss")]
    assert steps == [5210, 5211, 5212]
    assert str(log.series("loss")[-1][1]) == "nan"


def test_an_exception_a_framework_wraps_around_the_workers_is_the_runs_failure(tmp_path):
    # "<Wrapper>Error(<Cause>Error): ..." as a task runner prints a remote worker's exception, no traceback header
    lines = [
        "step 10 loss 2.41",
        "step 20 loss 2.37",
        "2024-05-02 10:01:07,114\tERROR runner.py:88 -- Trial FooTrainer_0001: Error processing event.",
        "quux.errors.RemoteStepError(KeyError): quux::Trainer.fit() (pid=411, ip=10.0.0.7)",
    ]
    log = parse_log(write_log(tmp_path, lines, "relay.log"))
    assert log.event_kinds() == ["failure"]
    assert log.run["status"] == "failed"


def test_a_world_size_worded_in_a_start_up_line_is_the_runs(tmp_path):
    lines = [
        "[2024-03-01 09:00:02,114] [INFO] [elastic.py:90:_setup] Rank = 0, World size = 4, Accumulation steps = 2",
        "[2024-03-01 09:00:09,502] [INFO] [trainer.py:51:fit] step 100 loss 1.92",
        "[2024-03-01 09:00:16,877] [INFO] [trainer.py:51:fit] step 200 loss 1.85",
    ]
    log = parse_log(write_log(tmp_path, lines, "relay.log"))
    assert log.run["world_size"] == 4
