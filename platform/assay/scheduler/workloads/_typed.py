"""Per-GPU-type profiles: how fast one application trains on each type of a heterogeneous cluster.

A folder in Sia's layout holds, per application, ``placements-<gpu>.csv`` and ``scalability-<gpu>.csv``
(step and sync seconds per placement and per-GPU batch, for each type) beside the shared
``validation-<B>.csv`` (statistical efficiency does not depend on the hardware). ``TypedProfile`` gives the
simulator a step time per (type, placement, batch); a type without measurements is projected from a
measured one by the ratio of the types' peak FLOP/s (``assay.scheduler.pools.GPU_TYPES``).

``Calibration`` is how a replay matches the published simulator's setting: the seconds a move
(checkpoint-restore) costs each application and a slowdown of its measured step times.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from assay.scheduler.policies import BatchLimits
from assay.scheduler.pools import GPU_TYPES
from assay.scheduler.workloads._profiles import MeasuredProfile


@dataclass(frozen=True)
class Calibration:
    """Per-application restart seconds and step-time slowdowns (others: ``default_*``)."""

    restart_s: dict[str, float] = field(default_factory=dict)
    slowdown: dict[str, float] = field(default_factory=dict)
    default_slowdown: float = 1.0

    def restart(self, model: str, default: float) -> float:
        return float(self.restart_s.get(model, default))

    def slow(self, model: str) -> float:
        return float(self.slowdown.get(model, self.default_slowdown))


#: The calibration of Sia's simulator, as its artifact's README states it: checkpoint-restore seconds per
#: application and step times slowed by 1.8 (cifar10), 1.5 (ncf) or 1.2 (the others).
SIA_CALIBRATION = Calibration(
    restart_s={"cifar10": 50.0, "imagenet": 250.0, "bert": 120.0, "deepspeech2": 25.0, "yolov3": 80.0},
    slowdown={"cifar10": 1.8, "ncf": 1.5}, default_slowdown=1.2)
NO_CALIBRATION = Calibration()
CALIBRATIONS = {"sia": SIA_CALIBRATION, "none": NO_CALIBRATION}


class TypedProfile:
    """One application on several GPU types: ``step_time(counts, atomic, gpu_type)``; the rest
    (``gains``, ``grad_stats``, ``epoch_targets``) from the type-free ``base``."""

    typed = True

    def __init__(self, base: MeasuredProfile, by_type: dict[str, MeasuredProfile],
                 projected: dict[str, tuple[str, float]] | None = None):
        if not by_type:
            raise ValueError(f"{base.name}: no per-type measurements")
        self.name = base.name
        self.base = base
        self.by_type = by_type
        #: type -> (measured type it is projected from, speed ratio)
        self.projected = dict(projected or {})
        self.reference = next(iter(by_type))
        self.epoch_targets = base.epoch_targets
        top = max(p.limits.max_local for p in by_type.values())
        low = min(p.limits.min_local for p in by_type.values())
        lim = base.limits
        self.limits = BatchLimits(lim.init_batch, lim.max_batch, low, top, lim.accumulation, lim.fixed_batch)
        self.types = tuple(by_type) + tuple(self.projected)

    def step_time(self, counts: tuple[int, ...], atomic_bsz: int, gpu_type: str | None = None
                  ) -> tuple[float, float]:
        ratio = 1.0
        if gpu_type in self.projected:
            gpu_type, ratio = self.projected[gpu_type]
        prof = self.by_type.get(gpu_type or self.reference) or self.by_type[self.reference]
        cap = prof.limits.max_local
        if atomic_bsz > cap:  # more than the type's memory holds: accumulate micro-batches, one all-reduce
            reps = math.ceil(atomic_bsz / cap)
            step, sync = prof.step_time(counts, math.ceil(atomic_bsz / reps))
            step, sync = reps * (step - sync) + sync, sync
        else:
            step, sync = prof.step_time(counts, atomic_bsz)
        return step / ratio, sync / ratio

    def speed(self, gpu_type: str) -> float:
        """Samples per second on one GPU of ``gpu_type`` at the smallest per-GPU batch every type holds:
        what a job measures when it is profiled on each type on arrival."""
        b = max(self.limits.min_local, min(self.base.limits.init_batch, min(
            p.limits.max_local for p in self.by_type.values())))
        step, _ = self.step_time((1,), b, gpu_type)
        return b / step

    def gains(self, batch: int) -> np.ndarray:
        return self.base.gains(batch)

    def grad_stats(self, batch: int, epoch: int) -> tuple[float, float]:
        return self.base.grad_stats(batch, epoch)


def typed_profile(app_dir: str | Path, types: tuple[str, ...], calibration: Calibration = NO_CALIBRATION
                  ) -> TypedProfile | None:
    """The application in ``app_dir`` on ``types``: measured where ``placements-<type>.csv`` exists,
    projected by peak FLOP/s from the first measured type otherwise; None when no type is measured."""
    return _typed(str(Path(app_dir).resolve()), tuple(types), calibration.slow(Path(app_dir).name))


@functools.lru_cache(maxsize=64)
def _typed(app_dir: str, types: tuple[str, ...], slow: float) -> TypedProfile | None:
    path = Path(app_dir)
    name = path.name
    by_type = {t: MeasuredProfile(path, name=name, gpu=t, slowdown=slow) for t in types
               if (path / f"placements-{t}.csv").exists()}
    if not by_type:
        return None
    base = (MeasuredProfile(path, name=name, slowdown=slow) if (path / "placements.csv").exists()
            else next(iter(by_type.values())))
    ref = next(iter(by_type))
    projected = {}
    for t in types:
        if t not in by_type:
            have, want = GPU_TYPES.get(ref), GPU_TYPES.get(t)
            projected[t] = (ref, (want.peak_flops / have.peak_flops) if have and want else 1.0)
    return TypedProfile(base, by_type, projected)
