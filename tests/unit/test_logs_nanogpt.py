"""nanoGPT logs: the -100% MFU placeholder, evaluation lines, configuration overrides, Ctrl-C."""

from __future__ import annotations

from pathlib import Path

from assay.operators.logs import parse_log

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


def test_shakespeare_run():
    parsed = parse_log(SAMPLES / "nanogpt_shakespeare_char.log")
    loss = parsed.series("loss")
    assert (loss[0][0], loss[-1][0], len(loss)) == (0, 750, 76)
    mfu = parsed.series("mfu")
    assert len(mfu) == 71 and mfu[0][0] == 50 and all(v > 0 for _, v in mfu)  # iters 0-40 print -100.00%
    assert parsed.series("step_time_ms")[0][1] == 27000.0  # the first iteration compiles
    assert [s for s, _ in parsed.series("val_loss")] == [0, 250, 500, 750]
    assert parsed.run["status"] == "cancelled"  # KeyboardInterrupt
    assert parsed.event_kinds().count("checkpoint") == 3
    assert (parsed.run["micro_batch_size"], parsed.run["model"]) == (64, "GPT 11M")
