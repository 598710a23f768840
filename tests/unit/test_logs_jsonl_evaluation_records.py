"""JSON-lines records of an evaluation beside the training's: a record that says its split (``"mode": "val"``)
counts the evaluation's own batches, and a record without the training's loss and learning rate whose counter is
behind the training's numbers something else (an epoch); both are at the training step before them, never a
restart. A meta record's ``"<tool>_version"`` field names the tool."""

from __future__ import annotations

import json

from assay.operators.logs import parse_log


def _write(tmp_path, rows, name="run.log.json"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return parse_log(path)


def test_a_split_record_takes_the_training_step_and_the_split_name(tmp_path):
    rows = [{"env_info": "host: box", "seed": 7, "widgetcls_version": "1.4.2"}]
    for epoch in (1, 2):
        for it in (10, 20, 30):
            rows.append({"mode": "train", "epoch": epoch, "iter": it, "lr": 0.01, "loss": 1.0 / (epoch * it)})
        rows.append({"mode": "val", "epoch": epoch, "iter": 12, "lr": 0.01, "top1": 80.0 + epoch})
    parsed = _write(tmp_path, rows)
    assert not [e for e in parsed.events if e["kind"] == "restart"]
    assert parsed.series("val_top1") == [(30, 81.0), (30, 82.0)]
    assert [s for s, _ in parsed.series("loss")] == [10, 20, 30, 10, 20, 30]
    names = set(parsed.metrics.column("name").to_pylist())
    assert "val_lr" not in names and "val_epoch" not in names
    assert parsed.run["framework"] == "widgetcls"


def test_an_evaluation_numbered_by_its_epoch_is_at_the_iteration_before_it(tmp_path):
    rows = []
    for it in range(1, 13):
        rows.append({"lr": 0.001, "loss": 2.0 - it / 10, "data_time": 0.1, "epoch": (it + 5) // 6, "iter": it, "step": it})
        if it % 6 == 0:
            rows.append({"kp/AP": 0.5 + it / 100, "data_time": 0.2, "step": it // 6})
    parsed = _write(tmp_path, rows, "scalars.json")
    assert not [e for e in parsed.events if e["kind"] == "restart"]
    assert [s for s, _ in parsed.series("loss")] == list(range(1, 13))
    ap = [n for n in set(parsed.metrics.column("name").to_pylist()) if "ap" in n.lower()]
    assert len(ap) == 1 and [s for s, _ in parsed.series(ap[0])] == [6, 12]


def test_a_record_going_back_with_its_loss_is_still_a_restart(tmp_path):
    rows = [{"step": s, "loss": 1.0, "lr": 0.1} for s in range(10, 110, 10)] + [
        {"step": s, "loss": 0.9, "lr": 0.1} for s in range(50, 110, 10)
    ]
    parsed = _write(tmp_path, rows, "history.jsonl")
    assert [e["kind"] for e in parsed.events] == ["restart"]
