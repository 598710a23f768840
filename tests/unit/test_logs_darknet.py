"""Darknet's iteration lines, whose numbers are named by the words after them, in pjreddie's shape and in
AlexeyAB's (``avg loss``, hours left, an mAP measured now and then)."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _write(tmp_path, name: str, lines: list[str]):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return parse_log(path)


def test_the_classic_iteration_line(tmp_path):
    lines = ["Learning Rate: 0.001, Momentum: 0.9, Decay: 0.0005", "Loaded: 0.000041 seconds"]
    for i in range(1, 9):
        lines.append(f"Region 82 Avg IOU: 0.{20 + i}1234, Class: 0.51, Obj: 0.49, No Obj: 0.50, .5R: 0.12, .75R: 0.0,  count: 7")
        lines.append(f"{i}: {900 / i:.6f}, {950 / i:.6f} avg, 0.000100 rate, 3.41 seconds, {64 * i} images")
    lines.append("Saving weights to backup/yolo-obj_last.weights")
    parsed = _write(tmp_path, "darknet.log", lines)
    assert parsed.run["framework"] == "Darknet"
    assert [s for s, _ in parsed.series("loss")] == list(range(1, 9))
    assert parsed.series("loss")[-1] == (8, 112.5)
    assert parsed.series("loss_running_avg")[-1] == (8, 118.75)
    assert parsed.series("step_time_ms")[0] == (1, 3410.0)
    assert [(e["kind"], e["step"]) for e in parsed.events] == [("checkpoint", 8)]


def test_the_forked_line_and_its_map(tmp_path):
    lines = []
    for i in range(993, 1001):
        lines.append(f" {i}: 2.{i % 10}00000, 2.{i % 10}50000 avg loss, 0.001000 rate, 4.12 seconds, {64 * i} images, 11.2 hours left")
    lines.append(" mean average precision (mAP@0.50) = 0.612345 ")
    lines.append(" Last accuracy mAP@0.5 = 61.23 %, best = 61.23 % ")
    parsed = _write(tmp_path, "alexeyab.log", lines)
    assert [s for s, _ in parsed.series("loss")] == list(range(993, 1001))
    assert parsed.series("val_map50") == [(1000, 0.612345), (1000, 0.6123)]
