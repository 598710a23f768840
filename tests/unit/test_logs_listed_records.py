"""A VITS-style trainer's log (issue 25), own-written: a tab-separated logger prefix, ``Train Epoch: N [0%]``, then
the record as a bare Python list of its numbers (its losses unnamed, one whole number that is the global step, the
learning rate), saves into Windows paths named by the step, and a resume that loads a checkpoint by its file's name
and says ``(iteration N)`` with the epoch's number. Through ``parse_log``:

- the list's whole number is the step and its other numbers are kept under their places (``column_<k>``);
- a Windows path is one name (``logs\\44k\\G_800.pth``), not a key ``logs`` and a value;
- ``Train Epoch: 9`` is the epoch, no series of its own;
- the resume is a restart at the step the run goes on from, not at the epoch its line names.
"""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log

_PREFIX = "2024-05-06 11:{:02d}:00,100\t44k\tINFO\t"


def _record(minute: int, epoch: int, step: int, losses: tuple[float, float, float]) -> list[str]:
    d, g, mel = losses
    return [
        _PREFIX.format(minute) + f"Train Epoch: {epoch} [0%]",
        _PREFIX.format(minute) + f"[{d}, {g}, {mel}, {step}, 9.99{epoch}e-05]",
        _PREFIX.format(minute) + f"====> Epoch: {epoch}",
    ]


def _save(minute: int, epoch: int, step: int) -> list[str]:
    return [
        _PREFIX.format(minute) + f"Saving model and optimizer state at iteration {epoch} to .\\logs\\44k\\G_{step}.pth",
        _PREFIX.format(minute) + f"Saving model and optimizer state at iteration {epoch} to .\\logs\\44k\\D_{step}.pth",
    ]


def _log() -> list[str]:
    lines = _record(1, 7, 600, (2.61, 2.2, 21.5)) + _record(2, 8, 700, (2.55, 2.31, 20.9))
    lines += _record(3, 9, 800, (2.47, 2.42, 19.8)) + _save(3, 9, 800)
    lines += _record(4, 10, 900, (2.5, 2.18, 19.1))
    # the process is started again: its settings, then the checkpoint of step 800 (epoch 9) is loaded
    lines += [
        _PREFIX.format(9) + "{'train': {'log_interval': 100, 'eval_interval': 200, 'seed': 1234, 'batch_size': 6}}",
        _PREFIX.format(9) + "Loaded checkpoint '.\\logs\\44k\\G_800.pth' (iteration 9)",
        _PREFIX.format(9) + "Loaded checkpoint '.\\logs\\44k\\D_800.pth' (iteration 9)",
    ]
    lines += _record(10, 9, 800, (2.46, 2.4, 19.7)) + _record(11, 10, 900, (2.49, 2.2, 19.2))
    return lines


def test_the_lists_whole_number_is_the_step_and_its_numbers_are_kept(tmp_path):
    log = parse_log(write_log(tmp_path, _log()))
    assert [s for s, _ in log.series("column_3")] == [600, 700, 800, 900, 800, 900]
    assert [v for _, v in log.series("column_1")] == [2.61, 2.55, 2.47, 2.5, 2.46, 2.49]
    names = set(log.metrics.column("name").to_pylist())
    assert "column_4" not in names  # the step is no series
    assert not {"logs", "train_epoch", "info"} & names


def test_saves_and_the_resume_are_at_the_records_steps(tmp_path):
    log = parse_log(write_log(tmp_path, _log()))
    saves = {e["step"] for e in log.events if e["kind"] == "checkpoint"}
    restarts = [e["step"] for e in log.events if e["kind"] == "restart"]
    assert saves == {800}
    assert restarts == [800]


def test_a_resume_that_names_a_step_of_the_records_counter_keeps_it(tmp_path):
    lines = [f"step {s} | loss {3.0 - s / 1000:.3f}" for s in (100, 200, 300, 400, 500)]
    lines += ["Resuming training from checkpoint ckpt/step_300.pt at step 300"]
    lines += [f"step {s} | loss {2.7 - s / 1000:.3f}" for s in (400, 500, 600)]
    log = parse_log(write_log(tmp_path, lines))
    assert [e["step"] for e in log.events if e["kind"] == "restart"] == [300]


def test_settings_printed_again_at_each_start_are_no_records(tmp_path):
    config = _PREFIX.format(0) + (
        "{'train': {'log_interval': 100, 'eval_interval': 200, 'seed': 1234, 'epochs': 10000, "
        "'learning_rate': 0.0002, 'batch_size': 6, 'segment_size': 8192}}"
    )
    lines = [config, *_record(1, 7, 600, (2.61, 2.2, 21.5)), *_record(2, 8, 700, (2.55, 2.31, 20.9))]
    lines += [config, *_record(3, 8, 700, (2.5, 2.3, 20.8)), *_record(4, 9, 800, (2.47, 2.42, 19.8))]
    log = parse_log(write_log(tmp_path, lines))
    assert not {"seed", "log_interval", "batch_size", "eval_interval"} & set(log.metrics.column("name").to_pylist())
    assert [s for s, _ in log.series("column_1")] == [600, 700, 700, 800]
