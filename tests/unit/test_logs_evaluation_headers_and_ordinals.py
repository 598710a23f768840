"""An evaluation line that first names the training step it runs at (``Iteration 400, Testing net (#0)``) puts
the evaluation's value lines after it at that step, with no step going back and no restart; a number after
``#`` is an ordinal that labels a line (``Train net output #0``), not a value; a quantity with its unit glued
on (``61.2ms``) or a duration in parts (``1m 4s``) keeps a record's shape; a value after a verb of change
(``scale reduced to 512``) is no series. Own-written logs in those shapes, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _solver_log() -> list[str]:
    lines = []
    for it in (0, 200, 400):
        if it:
            lines += [
                f"I0705 09:12:{it // 100:02d}.100000  7781 net_solver.cc:301] Iteration {it}, Testing net (#0)",
                f"I0705 09:12:{it // 100:02d}.200000  7781 net_solver.cc:377]     Test net output #0: top1 = 0.{it}",
                f"I0705 09:12:{it // 100:02d}.300000  7781 net_solver.cc:377]     Test net output #1: loss = 1.{it}",
            ]
        lines += [
            f"I0705 09:13:{it // 100:02d}.100000  7781 net_solver.cc:219] Iteration {it} (3.1 iter/s, 64.5s/200 iters), loss = 2.{it + 5}",
            f"I0705 09:13:{it // 100:02d}.200000  7781 net_solver.cc:238]     Train net output #0: loss = 2.{it + 5} (* 1 = 2.{it + 5} loss)",
        ]
    return lines


def test_the_evaluation_values_sit_at_the_step_its_header_names(tmp_path):
    log = parse_log(write_log(tmp_path, _solver_log()))
    assert [s for s, _ in log.series("val_loss")] == [200, 400]
    assert not [e for e in log.events if e["kind"] == "restart"]


def test_an_ordinal_after_a_hash_is_no_series(tmp_path):
    log = parse_log(write_log(tmp_path, _solver_log()))
    names = set(log.metrics.column("name").to_pylist())
    assert not {"output", "val_output", "val_net"} & names
    assert sorted({s for s, _ in log.series("loss")}) == [0, 200, 400]


def test_an_epoch_numbered_after_a_hash_still_counts(tmp_path):
    lines = [f"Epoch #{e}: reward: {10 + e}.5, loss: 0.{9 - e}" for e in range(1, 5)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3, 4]


def test_a_first_round_with_other_units_is_still_a_record(tmp_path):
    # the first round's clock prints milliseconds and a remaining time in parts; the later rounds seconds
    lines = ["0:\tfit: 0.9412345\tholdout: 0.9512345\ttotal: 48.3ms\tremaining: 1m 4s"]
    lines += [
        f"{r}:\tfit: 0.{80 - r // 10}12345\tholdout: 0.{85 - r // 10}12345\ttotal: {r / 50:.1f}s\tremaining: {30 - r / 10:.1f}s"
        for r in (50, 100, 150, 200)
    ]
    log = parse_log(write_log(tmp_path, lines))
    steps = sorted({s for s in log.metrics.column("step").to_pylist() if s is not None})
    assert steps == [0, 50, 100, 150, 200]


def test_a_value_after_a_verb_of_change_is_no_series(tmp_path):
    lines = []
    for step in range(10, 60, 10):
        lines.append(f"2025-02-01 10:00:{step:02d} | INFO | step={step} loss={3 - step / 100:.3f} lr=1.0e-04")
        if step == 30:
            lines.append("2025-02-01 10:00:31 | WARNING | overflow: loss scale reduced to 512.0, skipping step 31")
    log = parse_log(write_log(tmp_path, lines))
    steps = sorted({s for s in log.metrics.column("step").to_pylist() if s is not None})
    assert steps == [10, 20, 30, 40, 50]
    assert "reduced" not in set(log.metrics.column("name").to_pylist())
    assert [e["step"] for e in log.events if e["kind"] == "skipped_step"] == [31]
