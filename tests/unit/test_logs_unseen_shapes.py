"""Shapes of tools outside the measuring sets (own-worded lines in the shapes seen in public issue threads),
each read through the whole public path (``parse_log``)."""

from __future__ import annotations

import json

from assay.operators.logs import parse_log


def _read(tmp_path, lines: list[str]):
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n")
    log = parse_log(str(path))
    series: dict[str, list[tuple[int | None, float]]] = {}
    for row in log.metrics.sort_by([("line_no", "ascending")]).select(["step", "name", "value"]).to_pylist():
        series.setdefault(row["name"], []).append((row["step"], row["value"]))
    return log, series


def test_an_oom_that_ends_the_run_fails_it_and_its_message_gives_no_series(tmp_path):
    lines = [f"step {s}: loss {2.0 - s / 100:.3f}" for s in range(10, 60, 10)]
    lines += [
        "Traceback (most recent call last):",
        '  File "loop.py", line 40, in <module>',
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 39.4 GiB",
    ]
    log, series = _read(tmp_path, lines)
    assert log.run["status"] == "failed"
    assert set(series) == {"loss"}  # neither 'allocate' nor 'capacity'
    assert {e["kind"] for e in log.events} == {"failure", "oom"}


def test_a_printed_dict_with_its_step_and_total_in_one_value_is_at_that_step(tmp_path):
    # ms-swift prints the trainer's dict with 'global_step/max_steps': 'N/M'
    lines = [
        f"{{'loss': {1.2 - s / 100:.4f}, 'grad_norm': 0.5, 'learning_rate': 1e-05, 'epoch': {s / 30:.2f}, "
        f"'global_step/max_steps': '{s}/90', 'percentage': '{s / 0.9:.1f}%'}}"
        for s in (10, 20, 30, 40)
    ]
    lines.append("Train: 100%|##########| 40/40 [02:00<00:00,  3.0s/it]")
    log, series = _read(tmp_path, lines)
    assert [s for s, _ in series["loss"]] == [10, 20, 30, 40]
    assert "global_step_max_steps" not in series


def test_an_epoch_whose_last_batches_were_not_printed_is_no_restart(tmp_path):
    # every 50th batch of 156: the counter goes back to 0 from 100 at the next epoch
    lines = [
        f"Train: {e} [ {b:4d}/156 ({b * 100 // 156:3d}%)]  Loss: {6.0 - e - b / 100:.3f} ({6.1 - e:.3f})  LR: 1.0e-04"
        for e in (0, 1)
        for b in (0, 50, 100)
    ]
    log, series = _read(tmp_path, lines)
    assert not [e for e in log.events if e["kind"] == "restart"]
    assert [s for s, _ in series["loss"]] == [0, 50, 100, 156, 206, 256]
    assert json.loads(log.run["config"])["summary"]["status"] != "failed"
