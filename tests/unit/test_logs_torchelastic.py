"""TorchElastic agent logs: a worker killed, one restart, then success."""

from __future__ import annotations

from pathlib import Path

from assay.operators.logs import parse_log

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


def test_restart_then_success():
    parsed = parse_log(SAMPLES / "torchelastic_restart.log")
    kinds = [(e["kind"], e["step"]) for e in parsed.events]
    # three reports of one restart are one event, at the step the run goes on from (its checkpoint's, 200)
    assert kinds == [("failure", 250), ("restart", 200)]
    assert parsed.run["status"] == "completed"  # the failure was before the restart
    assert parsed.run["world_size"] == 16
    steps = [s for s, _ in parsed.series("loss")]
    assert steps[:6] == [0, 50, 100, 150, 200, 250] and steps[6] == 200  # resumed from step 200
