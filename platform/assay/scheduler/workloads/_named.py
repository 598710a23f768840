"""A workload named the way ``assay simulate --workload`` takes it: a CSV path, ``philly:N`` (a generated
Philly-shaped workload of N jobs) or ``adaptdl:N`` (one of the eight packaged AdaptDL workloads)."""

from __future__ import annotations

import re
from pathlib import Path

from assay.scheduler.workloads._csv import WorkloadError, adaptdl_workload, load_workload
from assay.scheduler.workloads._philly import philly_workload
from assay.scheduler.workloads._trace import Workload

GRAMMAR = "a CSV path, philly:N (e.g. philly:160) or adaptdl:N (1..8)"


def named_workload(name: str, *, profiles: Path | None = None, seed: int = 0) -> Workload:
    """The workload ``name`` stands for; ``seed`` seeds a generated one, ``profiles`` is the folder of
    per-application profiles a CSV's jobs use. ``WorkloadError`` says what is wrong with it."""
    generated = re.fullmatch(r"philly:(\d+)", name)
    if generated:
        return philly_workload(int(generated.group(1)), seed=seed)
    packaged = re.fullmatch(r"adaptdl:(\d+)", name)
    if packaged:
        return adaptdl_workload(int(packaged.group(1)))
    if re.fullmatch(r"[a-z]+:.*", name) and not Path(name).exists():
        raise WorkloadError(f"{name!r}: use {GRAMMAR}")
    path = Path(name)
    loaded = load_workload(path, profiles_dir=profiles)
    if loaded.kind == "adaptdl":  # named as the packaged ones are, so published figures find it
        loaded.name = f"adaptdl/{path.stem}"
    return loaded
