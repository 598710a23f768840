"""Per-GPU-type profiles fitted from the runs in the store, for a heterogeneous replay without a folder of
measured profiles (``assay simulate --cluster ...`` with no ``--profiles``).

Each run the store holds says what it trained (``model``), on what (``hardware``), with how many
data-parallel workers and which batch, and how long a step took (the median ``step_time_ms``). For every
(application, GPU type) with runs, the step-time model of the goodput policy (``fit_perf_params``:
compute linear in the per-GPU batch, all-reduce by worker count inside or across nodes) is fitted to them.
A type an application has no run on is projected from a type it has by the *single-GPU ratio* of the two
types: the median, over the other applications measured on both, of their one-GPU step times' ratio; when
no application was measured on both, the ratio of the types' peak FLOP/s. The statistical side
(``gains``, ``grad_stats``, epochs, batch limits) stays the application's catalogue profile: runs of
other jobs say nothing about how many steps this one needs.

A run's hardware names a pool type directly (``aws``) or a cluster of ``assay.scheduler.cluster``
(``t4-16g``); the latter maps to the pool type with the same GPU (same peak FLOP/s and memory).
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from assay.scheduler.cluster import find_cluster
from assay.scheduler.policies import BatchLimits, PerfParams, fit_perf_params, predict_step_time
from assay.scheduler.pools import GPU_TYPES
from assay.scheduler.workloads._profiles import get_profile


def pool_type(hardware: str | None, types: Sequence[str]) -> str | None:
    """The type of ``types`` a run's ``hardware`` text names: the type itself, or the cluster of that name
    whose GPU (peak FLOP/s, memory) is the type's; None when none is."""
    text = (hardware or "").strip().lower()
    if not text:
        return None
    if text in types:
        return text
    cluster = find_cluster(text)
    if cluster is None:
        return None
    for t in types:
        g = GPU_TYPES.get(t)
        if g is not None and math.isclose(g.peak_flops, cluster.peak_flops, rel_tol=0.02) \
                and math.isclose(g.memory_gb, cluster.device_memory_gb, rel_tol=0.05):
            return t
    return None


def _int(v: Any) -> int | None:
    try:
        out = int(float(v))
    except (TypeError, ValueError):
        return None
    return out if out > 0 else None


def _config(v: Any) -> dict:
    if isinstance(v, dict):
        return v
    try:
        out = json.loads(v) if v else {}
    except (TypeError, ValueError):
        return {}
    return out if isinstance(out, dict) else {}


def run_points(rows: Iterable[Mapping[str, Any]], types: Sequence[str]
               ) -> dict[tuple[str, str], list[tuple[int, int, int, int, float]]]:
    """(application, type) -> [(nodes, workers, per-GPU batch, accumulation steps, step seconds)] of the
    data-parallel runs with a measured step time on one of ``types``."""
    out: dict[tuple[str, str], list[tuple[int, int, int, int, float]]] = {}
    for row in rows:
        config = _config(row.get("config"))
        t = pool_type(row.get("hardware") or config.get("hardware"), types)
        model = str(row.get("model") or "").strip()
        step_ms = row.get("step_time_ms")
        try:
            step = float(step_ms) / 1000.0
        except (TypeError, ValueError):
            continue
        if t is None or not model or not step > 0 or not math.isfinite(step):
            continue
        if (_int(row.get("tp")) or 1) > 1 or (_int(row.get("pp")) or 1) > 1:
            continue  # model-parallel runs are not the data-parallel jobs these profiles replay
        workers = _int(row.get("dp")) or _int(row.get("world_size"))
        gbs = _int(row.get("global_batch_size")) or _int(config.get("global_batch_size"))
        if not workers or not gbs:
            continue
        micro = _int(row.get("micro_batch_size")) or _int(config.get("micro_batch_size")) or max(gbs // workers, 1)
        accum = max(math.ceil(gbs / (workers * micro)) - 1, 0)
        per_node = GPU_TYPES[t].gpus_per_node if t in GPU_TYPES else workers
        nodes = _int(config.get("nodes")) or _int(config.get("num_nodes")) or math.ceil(workers / per_node)
        out.setdefault((model, t), []).append((nodes, workers, micro, accum, step))
    return out


class StoredTypedProfile:
    """One application on several GPU types, its step times from fitted runs (``typed`` as the simulator
    expects of per-type profiles); the statistical side from ``base``."""

    typed = True

    def __init__(self, base: Any, fitted: dict[str, PerfParams], projected: dict[str, tuple[str, float]]):
        if not fitted:
            raise ValueError(f"{base.name}: no runs on any type")
        self.name = base.name
        self.base = base
        self.fitted = fitted
        #: type -> (fitted type it is projected from, speed ratio of the two)
        self.projected = projected
        self.epoch_targets = base.epoch_targets
        self.limits: BatchLimits = base.limits
        self.types = tuple(fitted) + tuple(projected)

    def step_time(self, counts: tuple[int, ...], atomic_bsz: int, gpu_type: str | None = None
                  ) -> tuple[float, float]:
        ratio = 1.0
        if gpu_type in self.projected:
            gpu_type, ratio = self.projected[gpu_type]
        p = self.fitted.get(gpu_type or "") or next(iter(self.fitted.values()))
        one = np.array([1.0])
        nodes, workers = len(counts), sum(counts)
        step = float(predict_step_time(p, one * nodes, one * workers, one * atomic_bsz, one * 0)[0])
        compute = p.alpha_c + p.beta_c * atomic_bsz
        return step / ratio, max(step - compute, 0.0) / ratio

    def speed(self, gpu_type: str) -> float:
        """Samples per second on one GPU of ``gpu_type`` at the application's smallest batch."""
        b = max(self.limits.min_local, 1)
        step, _ = self.step_time((1,), b, gpu_type)
        return b / step

    def gains(self, batch: int) -> np.ndarray:
        return self.base.gains(batch)

    def grad_stats(self, batch: int, epoch: int) -> tuple[float, float]:
        return self.base.grad_stats(batch, epoch)


def _sync(workers: np.ndarray, micro: np.ndarray, step: np.ndarray) -> np.ndarray:
    """Runs report a step time, not its all-reduce part: the compute of a step is what one GPU takes at
    the same per-GPU batch (a line through the one-GPU runs), the rest of a multi-GPU step is the sync.
    Without one-GPU runs nothing is split (the fit then reads everything as compute)."""
    one = workers <= 1
    if not one.any():
        return np.zeros(len(step))
    if np.ptp(micro[one]) > 0:
        slope, icpt = np.polyfit(micro[one], step[one], 1)
    else:
        slope, icpt = 0.0, float(step[one].mean())
    return np.where(one, 0.0, np.clip(step - (icpt + slope * micro), 0.0, None))


def _one_gpu(p: PerfParams, batch: float) -> float:
    return p.alpha_c + p.beta_c * batch


def fit_typed_profiles(rows: Iterable[Mapping[str, Any]], types: Sequence[str],
                       profiles_dir: Any = None) -> dict[str, StoredTypedProfile]:
    """Application -> its per-type profile, for every application with a run on one of ``types``."""
    points = run_points(rows, types)
    fitted: dict[str, dict[str, PerfParams]] = {}
    for (model, t), pts in sorted(points.items()):
        nodes, workers, micro, accum, step = (np.array(c, dtype=float) for c in zip(*pts, strict=True))
        step = step / (accum + 1)  # one micro-batch round per step (accumulation divided out)
        fitted.setdefault(model, {})[t] = fit_perf_params(nodes, workers, micro, step, _sync(workers, micro, step))
    out = {}
    for model, by_type in fitted.items():
        base = get_profile(model, profiles_dir)[0]
        batch = max(base.limits.min_local, 1)
        projected = {}
        for t in types:
            if t in by_type:
                continue
            src = max(by_type, key=lambda s: len(points[(model, s)]))
            projected[t] = (src, type_ratio(fitted, src, t, batch))
        out[model] = StoredTypedProfile(base, by_type, projected)
    return out


def type_ratio(fitted: Mapping[str, Mapping[str, PerfParams]], src: str, dst: str, batch: float) -> float:
    """How much faster one GPU of ``dst`` is than one of ``src``: the median ratio of one-GPU step times
    over the applications fitted on both; else the ratio of the types' peak FLOP/s; else 1."""
    ratios = [_one_gpu(m[src], batch) / _one_gpu(m[dst], batch) for m in fitted.values()
              if src in m and dst in m and _one_gpu(m[dst], batch) > 0]
    if ratios:
        return float(statistics.median(ratios))
    have, want = GPU_TYPES.get(src), GPU_TYPES.get(dst)
    return want.peak_flops / have.peak_flops if have and want else 1.0
