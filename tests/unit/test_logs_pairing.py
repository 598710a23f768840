"""Keys and values paired by the separators a line actually uses, and the step taken from the counter that
says it counts the whole run; each case goes through the whole public path (``parse_log``)."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _series(tmp_path, lines: list[str]) -> dict[str, list[tuple[int | None, float]]]:
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n")
    log = parse_log(str(path))
    out: dict[str, list[tuple[int | None, float]]] = {}
    for row in log.metrics.select(["step", "name", "value"]).to_pylist():
        out.setdefault(row["name"], []).append((row["step"], row["value"]))
    return out


def test_a_rate_unit_between_two_keyed_values_names_the_value_after_it(tmp_path):
    # key then value throughout: 'tok/s' is the key of 1234, not the unit of the loss before it
    got = _series(tmp_path, [f"step {i} loss 0.{90 - i} tok/s {1200 + i}" for i in range(1, 6)])
    assert got["loss"][-1] == (5, 0.85)
    assert got["tokens_per_s"][-1] == (5, 1205.0)


def test_a_rate_unit_after_an_unkeyed_value_still_names_it(tmp_path):
    # value then unit: '812 img/s' is a rate, and the loss keeps its own key
    got = _series(tmp_path, [f"iter {i}: {810 + i} img/s, loss {2 - i / 10:.2f}" for i in range(1, 6)])
    assert got["samples_per_s"][-1] == (5, 815.0)
    assert got["loss"][-1] == (5, 1.5)


def test_a_keyed_rate_with_a_colon_keeps_both_pairs(tmp_path):
    got = _series(tmp_path, [f"step {i} lr: 0.05  img/s: {800 + i}.5  loss: 1.{i}" for i in range(1, 6)])
    assert got["lr"][-1] == (5, 0.05)
    assert got["samples_per_s"][-1] == (5, 805.5)


def test_a_global_counter_beats_the_in_epoch_counter_printed_before_it(tmp_path):
    # 'it 3/50' starts again each epoch; 'global_step' counts the run: the step is the global one
    lines = [f"ep {e} it {i}/50 global_step {(e - 1) * 50 + i} | xent {3 - e / 10 - i / 100:.3f}"
             for e in (1, 2) for i in (10, 20, 30, 40, 50)]
    got = _series(tmp_path, lines)
    assert [s for s, _ in got["loss"]] == [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]


def test_an_in_epoch_counter_alone_is_still_made_global(tmp_path):
    lines = [f"ep {e} it {i}/50 | xent {3 - e / 10 - i / 100:.3f}" for e in (1, 2) for i in (25, 50)]
    got = _series(tmp_path, lines)
    assert [s for s, _ in got["loss"]] == [25, 50, 75, 100]
