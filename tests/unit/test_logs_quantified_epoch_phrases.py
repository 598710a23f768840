"""A step word inside a phrase about a quantity (``Edges sampled during this epoch: 5120``, ``batches per epoch:
390``) names that quantity, not the epoch's number: the count is no step, so the lines after it stay at the
record's epoch and no restart is invented. Which run of a repeated experiment a record belongs to (``Run 02 |``)
is no value of the run, and the next run of it (``Run 01 |`` after ``Run 00 |``) starts its counters again: no
restart."""

from __future__ import annotations

from assay.operators.logs import parse_log


def test_a_count_during_this_epoch_is_no_step(tmp_path):
    lines = []
    for epoch in range(40, 46):
        lines += [
            f"Trial 03 | Epoch {epoch:05d} | Loss {1.0 / epoch:.4f} | Train 0.9000 | Val 0.8000",
            f"Edges sampled during this epoch:  {5000 + 37 * epoch}",
            f"sampling time/epoch {0.01 + epoch / 10000:.5f}",
        ]
    path = tmp_path / "sampled.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    assert [e for e in parsed.events if e["kind"] == "restart"] == []
    assert [s for s, _ in parsed.series("loss")] == list(range(40, 46))
    names = set(parsed.metrics.column("name").to_pylist())
    assert "trial" not in names and "epoch" not in names
    steps = set(parsed.metrics.column("step").to_pylist())
    assert steps <= set(range(40, 46)), steps


def test_the_next_run_of_a_repeated_experiment_is_no_restart(tmp_path):
    lines = [f"Run 00 | Epoch {e:05d} | Loss {1.0 / (e + 1):.4f} | Train 0.9" for e in range(196, 200)]
    lines += [f"Run 01 | Epoch {e:05d} | Loss {2.0 - e / 10:.4f} | Train 0.4" for e in range(0, 4)]
    path = tmp_path / "runs.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    assert [e for e in parsed.events if e["kind"] == "restart"] == []
    assert [s for s, _ in parsed.series("loss")] == [196, 197, 198, 199, 0, 1, 2, 3]
