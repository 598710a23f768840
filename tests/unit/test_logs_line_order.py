"""A line's position in the file is never a step (issue 25): records that print no counter keep an unknown
step instead of being numbered 0, 1, 2 ... in the order they appear, in the general reader and in JSON lines.
Each log is written here in the shapes such tools print, through the whole ``parse_log`` path."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _write(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_records_without_a_counter_keep_an_unknown_step(tmp_path):
    # one line per epoch of a small graph model, but no epoch or step number printed on it
    lines = [
        f"Train: loss = {1.9 - i / 10:.5f}, acc = {0.3 + i / 50:.5f} | Val: loss = {2.0 - i / 20:.5f}, "
        f"acc = {0.25 + i / 40:.5f} | Speed: 12.5 (graph/s)"
        for i in range(8)
    ]
    log = parse_log(_write(tmp_path, "gnn.log", lines))
    losses, val = log.series("loss"), log.series("val_loss")
    assert round(losses[-1][1], 5) == 1.2 and round(val[-1][1], 5) == 1.65
    assert {s for s, _ in losses} == {None} == {s for s, _ in val}  # not 0..7: nothing counts steps
    assert "restart" not in log.event_kinds()


def test_repeated_progress_records_invent_no_steps(tmp_path):
    # a progress logger that prints the same record twice when nothing moved: 6 lines, not 6 steps
    lines = []
    for i in range(3):
        record = f'{{"progress": {40 + i * 0.4:.1f}, "loss": {0.81 - i * 0.01:.3f}, "lr": 0.02, "eta_s": 5}}'
        lines += [record, record]
    log = parse_log(_write(tmp_path, "progress.jsonl", lines))
    losses = log.series("loss")
    assert [round(v, 3) for _, v in losses][-1] == 0.79
    assert {s for s, _ in losses} == {None}


def test_a_json_record_keeps_its_printed_step_or_epoch(tmp_path):
    stepped = [f'{{"iter": {10 * (i + 1)}, "loss": {2.0 - i / 10:.2f}}}' for i in range(3)]
    by_epoch = [f'{{"epoch": {i + 1}, "loss": {2.0 - i / 10:.2f}}}' for i in range(3)]
    assert [s for s, _ in parse_log(_write(tmp_path, "a.jsonl", stepped)).series("loss")] == [10, 20, 30]
    assert [s for s, _ in parse_log(_write(tmp_path, "b.jsonl", by_epoch)).series("loss")] == [1, 2, 3]


def test_lines_numbered_by_their_epoch_keep_it(tmp_path):
    lines = [f"epoch {e} loss: {1.5 - e / 10:.3f}" for e in range(1, 5)]
    log = parse_log(_write(tmp_path, "per_epoch.log", lines))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3, 4]
