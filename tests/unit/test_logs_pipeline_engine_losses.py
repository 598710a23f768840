"""A Megatron-style run on DeepSpeed's pipeline engine prints, for each step, the engine's ``steps: N loss: X iter
time (s): ...`` line beside its own ``iteration N/ M | ... |`` line. Both name the same step: the iteration line's
loss is the step's, and the engine's line gives the loss of a step whose iteration line printed none (here the
last one, cut before its loss). Logs written for the test."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _engine(step: int, loss: float) -> str:
    return f"steps: {step} loss: {loss:.4f} iter time (s): 3.105 samples/sec: 41.220"


def _iteration(step: int, loss: float | None) -> str:
    line = (
        f" samples/sec: 41.2 | iteration {step:8d}/   50000 | elapsed time per iteration (ms): 3105.0 |"
        " learning rate: 6.000E-05 |"
    )
    if loss is None:
        return line  # cut where the excerpt ends
    return line + f" lm_loss: {loss:.6E} | number of skipped iterations:   0 | number of nan iterations:   0 |"


def test_the_engine_line_gives_the_loss_the_cut_iteration_line_lacks(tmp_path):
    lines = []
    for step, loss in ((10, 7.25), (11, 7.01), (12, 6.88)):
        lines += [_engine(step, loss), _iteration(step, loss + 0.0001)]
    lines += [_engine(13, 6.70), _iteration(13, None)]
    path = tmp_path / "neox.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    # One loss per step: the iteration line's where it printed one, the engine's for the cut last step.
    assert parsed.series("loss") == [(10, 7.2501), (11, 7.0101), (12, 6.8801), (13, 6.70)]


def test_engine_lines_alone_are_still_read_as_deepspeed_records(tmp_path):
    path = tmp_path / "pipe.log"
    path.write_text("\n".join(_engine(step, 5.0 - step / 10) for step in range(1, 6)) + "\n")
    parsed = parse_log(path)
    assert [step for step, _ in parsed.series("loss")] == [1, 2, 3, 4, 5]
