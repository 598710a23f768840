"""Layout-independent checkpoints: full, unsharded parameters and AdamW moments by canonical name.

The driver joins the shards that the data-parallel rank 0 of every (stage, tensor rank) sends, and writes
one file per checkpoint step; any layout takes its slices from it (:func:`slice_for`). A checkpoint is
written to a temporary directory and renamed into place, so a reader sees a whole checkpoint or none.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import torch

from assay.domain.job_spec import JobSpec
from assay.domain.layout import Layout
from assay.training._gpt import canonical_shapes, shard, split_dim, stage_bounds
from assay.training._rank import ShardState

STATE_FILE = "state.pt"
META_FILE = "meta.json"
KEEP = 2  # checkpoints kept per job: the newest and the one before, in case the newest is unreadable


def merge(shards: list[ShardState], layout: Layout) -> dict[str, Any]:
    """The full state from the shards of one data-parallel replica (every stage and tensor rank)."""
    by_name: dict[str, dict[int, tuple[torch.Tensor, torch.Tensor, torch.Tensor]]] = {}
    steps = {s.step for s in shards}
    if len(steps) != 1:
        raise ValueError(f"shards from different steps: {sorted(steps)}")
    for s in shards:
        for name, p in s.params.items():
            by_name.setdefault(name, {})[s.tp_rank] = (p, s.exp_avg[name], s.exp_avg_sq[name])
    full: dict[str, dict[str, torch.Tensor]] = {"params": {}, "exp_avg": {}, "exp_avg_sq": {}}
    for name, parts in by_name.items():
        dim = split_dim(name)
        if dim is not None and layout.tp > 1:
            if sorted(parts) != list(range(layout.tp)):
                raise ValueError(f"{name}: tensor-parallel shards {sorted(parts)} of {layout.tp}")
            ordered = [parts[r] for r in range(layout.tp)]
            for i, key in enumerate(("params", "exp_avg", "exp_avg_sq")):
                full[key][name] = torch.cat([o[i] for o in ordered], dim=dim)
        else:
            p, m, v = parts[min(parts)]
            full["params"][name], full["exp_avg"][name], full["exp_avg_sq"][name] = p, m, v
    return {"step": steps.pop(), **full}


def check_complete(state: dict[str, Any], spec: JobSpec) -> None:
    shapes = canonical_shapes(spec.model)
    missing = [n for n in shapes if n not in state["params"]]
    if missing:
        raise ValueError(f"checkpoint lacks {len(missing)} parameters, e.g. {missing[0]}")
    for name, shape in shapes.items():
        if tuple(state["params"][name].shape) != shape:
            raise ValueError(f"{name}: shape {tuple(state['params'][name].shape)}, model needs {shape}")


def slice_for(state: dict[str, Any], spec: JobSpec, layout: Layout, pp_rank: int, tp_rank: int,
              bounds: list[int] | None = None) -> ShardState:
    """The shard that rank (pp_rank, tp_rank) of ``layout`` loads from a full state."""
    first, last = pp_rank == 0, pp_rank == layout.pp - 1
    lo, hi = stage_bounds(spec.model.layers, layout.pp, bounds)[pp_rank]

    def wanted(name: str) -> bool:
        if name.startswith("embed."):
            return first
        if name.startswith(("final_ln.", "head.")):
            return last
        return lo <= int(name.split(".")[1]) < hi

    def cut(d: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        return {n: shard(t, n, layout.tp, tp_rank).contiguous() for n, t in d.items() if wanted(n)}

    return ShardState(state["step"], cut(state["params"]), cut(state["exp_avg"]), cut(state["exp_avg_sq"]),
                      pp_rank=pp_rank, tp_rank=tp_rank)


def save(directory: Path, state: dict[str, Any], meta: dict[str, Any]) -> Path:
    """Write ``state`` as ``directory/step-NNNNNNNN`` atomically; keep the newest :data:`KEEP`."""
    directory.mkdir(parents=True, exist_ok=True)
    final = directory / f"step-{state['step']:08d}"
    tmp = directory / f".tmp-{state['step']:08d}-{os.getpid()}-{time.time_ns()}"
    tmp.mkdir()
    torch.save(state, tmp / STATE_FILE)
    (tmp / META_FILE).write_text(json.dumps({**meta, "step": state["step"]}, sort_keys=True, default=str))
    if final.exists():
        shutil.rmtree(final)
    os.replace(tmp, final)
    for old in sorted(directory.glob("step-*"))[:-KEEP]:
        shutil.rmtree(old, ignore_errors=True)
    return final


def latest(directory: Path) -> Path | None:
    """The newest complete checkpoint under ``directory`` (None if there is none)."""
    if not directory.exists():
        return None
    for path in sorted(directory.glob("step-*"), reverse=True):
        if (path / STATE_FILE).exists() and (path / META_FILE).exists():
            return path
    return None


def load(path: Path) -> dict[str, Any]:
    return torch.load(path / STATE_FILE, map_location="cpu", weights_only=True)


def latest_step(directory: Path) -> int:
    path = latest(directory)
    if path is None:
        return 0
    return int(json.loads((path / META_FILE).read_text())["step"])
