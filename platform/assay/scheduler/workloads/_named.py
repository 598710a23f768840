"""A workload named the way ``assay simulate --workload`` takes it: a CSV path, or ``KIND:ARG`` where KIND is
a generator of the registry's ``workloads`` namespace: ``philly:N`` (a generated Philly-shaped workload of N
jobs) or ``adaptdl:N`` (one of the eight packaged AdaptDL workloads). Register your own generator with
``assay.registry.register("workloads", "mine", factory)``; ``factory(arg, seed=...)`` returns a Workload."""

from __future__ import annotations

import re
from pathlib import Path

from assay.registry import REGISTRY, suggest
from assay.scheduler.workloads._csv import WorkloadError, adaptdl_workload, load_workload
from assay.scheduler.workloads._philly import philly_workload
from assay.scheduler.workloads._trace import Workload

GRAMMAR = "a CSV path, philly:N (e.g. philly:160) or adaptdl:N (1..8)"
#: The workload generators' namespace of the one registry (``assay.registry``).
NAMESPACE = "workloads"


def _count(kind: str, arg: str) -> int:
    if not re.fullmatch(r"\d+", arg):
        raise WorkloadError(f"{kind}:{arg!r}: N must be a whole number; use {GRAMMAR}")
    return int(arg)


def philly(arg: str, *, seed: int = 0) -> Workload:
    return philly_workload(_count("philly", arg), seed=seed)


def adaptdl(arg: str, *, seed: int = 0) -> Workload:
    return adaptdl_workload(_count("adaptdl", arg))


REGISTRY.register(NAMESPACE, "philly", philly)
REGISTRY.register(NAMESPACE, "adaptdl", adaptdl)


def named_workload(name: str, *, profiles: Path | None = None, seed: int = 0) -> Workload:
    """The workload ``name`` stands for; ``seed`` seeds a generated one, ``profiles`` is the folder of
    per-application profiles a CSV's jobs use. ``WorkloadError`` says what is wrong with it."""
    kind = re.fullmatch(r"([a-z]+):(.*)", name)
    if kind and not Path(name).exists():
        known = REGISTRY.names(NAMESPACE)
        if kind.group(1) not in known:
            close = suggest(kind.group(1), known)
            hint = f" (did you mean {', '.join(f'{c}:' for c in close)}?)" if close else ""
            raise WorkloadError(f"{name!r}: use {GRAMMAR}{hint}")
        return REGISTRY.get(NAMESPACE, kind.group(1))(kind.group(2), seed=seed)
    path = Path(name)
    loaded = load_workload(path, profiles_dir=profiles)
    if loaded.kind == "adaptdl":  # named as the packaged ones are, so published figures find it
        loaded.name = f"adaptdl/{path.stem}"
    return loaded
