"""An evaluation announced by a heading of words (``Eval begin...``) whose lines count the evaluation's own
loop (``step 10/157`` after the training's ``step 938/938``) in the training's own shape: those lines are the
evaluation's values at the training step before them, their counter no step and no restart."""

from __future__ import annotations

from assay.operators.logs import parse_log


def test_an_evaluation_loop_under_its_heading_is_the_evaluation(tmp_path):
    lines = []
    for epoch in (1, 2):
        lines.append(f"Epoch {epoch}/2")
        for k, loss in ((10, 1.0 / epoch), (20, 0.8 / epoch), (600, 0.3 / epoch)):
            lines.append(f"step {k:3d}/600 - loss: {loss:.4f} - acc: 0.9000 - 18ms/step")
        lines.append("Eval begin...")
        lines.append(f"step  10/120 - loss: {0.5 / epoch:.4f} - acc: 0.9100 - 9ms/step")
        lines.append(f"step 120/120 - loss: {0.4 / epoch:.4f} - acc: 0.9200 - 8ms/step")
        lines.append("Eval samples: 7680")
    path = tmp_path / "hapi.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    assert [e for e in parsed.events if e["kind"] == "restart"] == []
    assert [s for s, _ in parsed.series("loss")] == [10, 20, 600, 610, 620, 1200]
    assert parsed.series("val_loss") == [(600, 0.5), (600, 0.4), (1200, 0.25), (1200, 0.2)]
