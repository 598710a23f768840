"""A reinforcement-learning run counted by its environment's frames (issue 25; docs/gold-conventions.md: the
run's step in RL is the environment's): a named count of frames that rises, in strides as uneven as the
collection, is the step where nothing else names one, and a process id in brackets on every line (``[04127]``)
is no step. Own-written lines in an asynchronous trainer's shape, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log

_FRAMES = [20480, 57344, 90112, 131072, 167936]


def _lines() -> list[str]:
    lines = []
    for k, frames in enumerate(_FRAMES):
        stamp = f"[2025-02-03 10:0{k}:00,100][04127]"
        lines += [
            f"{stamp} Fps is (10 sec: {3000 + 97 * k:.1f}, 60 sec: 3100.5). Total num frames: {frames}. "
            f"Samples: {frames + 512}. Policy #0 lag: (min: 0.0, avg: 2.1, max: 5.0)",
            f"{stamp} Avg episode reward: [(0, '{-3.5 + k / 10:.3f}')]",
        ]
    lines.append("[2025-02-03 10:05:00,100][04127] Saving ./train_dir/ckpt/checkpoint_000040_167936.pth...")
    # a report printed once at the end, its process tag in brackets after the time: no step of its own
    lines += ["[2025-02-03 10:05:01,200][04127] Batcher 0 profile tree view:", "batching: 0.0000, releasing_batches: 0.0006"]
    return lines


def test_the_frames_count_is_the_step_and_a_process_id_is_not(tmp_path):
    log = parse_log(write_log(tmp_path, _lines()))
    steps = sorted({s for s in log.metrics.column("step").to_pylist() if s is not None})
    assert steps == _FRAMES  # the profile's values at the last count, not at the process's 4127
    assert [e["step"] for e in log.events if e["kind"] == "checkpoint"] == [167936]
    assert "restart" not in log.event_kinds()
