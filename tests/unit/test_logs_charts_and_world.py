"""A chart drawn in text at a run's end gives no records; the world size a process's coordinates or a rank tag
state. Logs written for the test."""

from __future__ import annotations

from assay.operators.logs import parse_log
from assay.operators.logs._charts import chart_line


def _records(epochs: int) -> list[str]:
    return [f"[I][train:88] epoch={e} train_loss={1 / e:.6f} test_loss={1.2 / e:.6f} test_acc={90 + e / 10:.2f}" for e in range(1, epochs + 1)]


def test_a_text_chart_after_the_records_adds_no_values(tmp_path):
    chart = [
        "                  test_loss                             test_loss/min",
        "     ┌─────────────────────────────────┐     ┌─────────────────────────────────┐",
        "1.200┤▌                                │1.200┤-                                │",
        "0.800┤▝▖                               │0.600┤ --                              │",
        "0.200┤   ▝▀▀▀▀▀▀▚▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄│0.150┤        -------------------------│",
        "     └┬───────┬───────┬───────┬───────┬┘     └┬───────┬───────┬───────┬───────┬┘",
        "     1.0     3.2     5.5     7.8   10.0      1.0     3.2     5.5     7.8   10.0",
        "test_loss           iter                test_loss/min       iter",
        "  0.12     0.36    0.60     0.84   1.08",
    ]
    path = tmp_path / "plots.log"
    path.write_text("\n".join(_records(10) + chart) + "\n")
    parsed = parse_log(path)
    assert parsed.series("val_loss")[-1] == (10, 0.12)
    assert all(step is not None for step, _ in parsed.series("val_loss"))


def test_a_row_of_measurements_is_no_chart():
    assert chart_line("     1.0     3.2     5.5     7.8   10.0")
    assert chart_line("  -0.2      3.0     6.2      9.3   12.5   -0.2      3.1     6.4      9.7   13.0")
    assert not chart_line("  12  0.8812  0.7431  0.6120  0.5902")  # a step and its values
    assert not chart_line("0.126 0.109 0.092 0.075")  # a row that falls is read as measurements
    assert not chart_line("step 100 loss 2.5")


def test_the_world_size_a_process_states_as_it_joins(tmp_path):
    lines = [
        "[I][dist:1382] Using torch.distributed.init_process_group with",
        "- master_port='29500'",
        "- world_size=12",
        "[I][dist:1014] Calling init_process_group: rank=0 world_size=12 backend=nccl",
        *_records(3),
    ]
    path = tmp_path / "join.log"
    path.write_text("\n".join(lines) + "\n")
    assert parse_log(path).run["world_size"] == 12


def test_a_rank_tag_out_of_the_world_states_the_world_size(tmp_path):
    lines = [
        f"2024-01-02 10:00:0{i},000 INFO [train.py:900] ({i % 3}/3) Epoch 2, batch {100 * (i + 1)}, loss[loss=0.{50 - i}], lr: 1.0e-04"
        for i in range(6)
    ]
    path = tmp_path / "k2.log"
    path.write_text("\n".join(lines) + "\n")
    assert parse_log(path).run["world_size"] == 3
