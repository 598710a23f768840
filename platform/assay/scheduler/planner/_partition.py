"""Splitting a model's layers into pipeline stages: the slowest stage as fast as possible, every stage
within the device's memory.

Pipeline time is ``(m - 1) * slowest stage + sum of stages`` and the sum does not depend on the split,
so the best split minimises the slowest stage. ``partition_dp`` solves it exactly as a shortest path
over layer boundaries (a min-max dynamic programme, one stage per row); ``partition_uniform`` is the
closed form for identical layers the planner uses on its hot path. Stage ``j``'s memory: its layers'
model state, ``in_flight[j]`` micro-batches of their activations (1F1B keeps ``p - j``), the working set
of recomputing its largest layer, plus the embedding on the first stage and the output layer on the last.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PartitionProblem:
    layer_time: tuple[float, ...]  # one micro-batch, forward + backward, per layer
    layer_state: tuple[float, ...]  # model-state bytes per layer
    layer_act: tuple[float, ...]  # activation bytes per layer per micro-batch in flight
    layer_work: tuple[float, ...]  # working set while recomputing the layer (0 without recomputation)
    in_flight: tuple[int, ...]  # micro-batches each stage holds; its length is the number of stages
    limit: float  # bytes available per device
    first_time: float = 0.0
    last_time: float = 0.0
    first_bytes: float = 0.0
    last_bytes: float = 0.0

    @property
    def stages(self) -> int:
        return len(self.in_flight)

    @property
    def layers(self) -> int:
        return len(self.layer_time)

    @property
    def uniform(self) -> bool:
        return all(len(set(v)) <= 1 for v in (self.layer_time, self.layer_state, self.layer_act,
                                               self.layer_work))

    def extra_time(self, j: int) -> float:
        return (self.first_time if j == 0 else 0.0) + (self.last_time if j == self.stages - 1 else 0.0)

    def extra_bytes(self, j: int) -> float:
        return (self.first_bytes if j == 0 else 0.0) + (self.last_bytes if j == self.stages - 1 else 0.0)

    def stage_time(self, sizes: tuple[int, ...]) -> list[float]:
        out, start = [], 0
        for j, n in enumerate(sizes):
            out.append(sum(self.layer_time[start:start + n]) + self.extra_time(j))
            start += n
        return out

    def stage_memory(self, sizes: tuple[int, ...]) -> list[float]:
        out, start = [], 0
        for j, n in enumerate(sizes):
            sl = slice(start, start + n)
            out.append(sum(self.layer_state[sl]) + self.in_flight[j] * sum(self.layer_act[sl])
                       + max(self.layer_work[sl]) + self.extra_bytes(j))
            start += n
        return out


def balanced_partition(problem: PartitionProblem) -> tuple[int, ...] | None:
    """Layers per stage minimising the slowest stage under the memory limit; None when nothing fits."""
    if problem.stages > problem.layers:
        return None
    return partition_uniform(problem) if problem.uniform else partition_dp(problem)


def partition_dp(problem: PartitionProblem) -> tuple[int, ...] | None:
    """Exact min-max partition: ``best[j][k]`` is the smallest slowest-stage time of layers ``[0, k)`` on
    stages ``0..j``; stage ``j`` covering ``[i, k)`` is an edge from boundary ``i`` to ``k``."""
    n, p = problem.layers, problem.stages
    if p > n:
        return None
    t = np.concatenate([[0.0], np.cumsum(problem.layer_time)])
    s = np.concatenate([[0.0], np.cumsum(problem.layer_state)])
    a = np.concatenate([[0.0], np.cumsum(problem.layer_act)])
    span_time = t[None, :] - t[:, None]  # [i, k]: layers i..k-1
    span_state = s[None, :] - s[:, None]
    span_act = a[None, :] - a[:, None]
    work = np.zeros((n + 1, n + 1))
    if any(problem.layer_work):
        w = np.asarray(problem.layer_work, dtype=float)
        for i in range(n):
            work[i, i + 1:] = np.maximum.accumulate(w[i:])
    i_idx, k_idx = np.indices((n + 1, n + 1))
    valid = k_idx > i_idx
    best = np.full(n + 1, np.inf)
    best[0] = 0.0
    choice = np.zeros((p, n + 1), dtype=int)
    for j in range(p):
        memory = span_state + problem.in_flight[j] * span_act + work + problem.extra_bytes(j)
        feasible = valid & (memory <= problem.limit)
        cost = np.maximum(best[:, None], span_time + problem.extra_time(j))
        cost = np.where(feasible, cost, np.inf)
        choice[j] = np.argmin(cost, axis=0)
        best = cost[choice[j], np.arange(n + 1)]
    if not np.isfinite(best[n]):
        return None
    sizes, k = [], n
    for j in range(p - 1, -1, -1):
        i = int(choice[j, k])
        sizes.append(k - i)
        k = i
    return tuple(reversed(sizes))


def partition_uniform(problem: PartitionProblem) -> tuple[int, ...] | None:
    """The same optimum for identical layers in O(p log n): stage ``j`` takes at most
    ``cap[j]`` layers (memory) and at most ``(T - extra_j) / c`` (time ``T``); the smallest ``T`` whose
    counts reach ``n`` layers is the optimum, found by bisection over the ``n c + extra`` values."""
    n, p = problem.layers, problem.stages
    if p > n:
        return None
    c, state, act, work = (problem.layer_time[0], problem.layer_state[0], problem.layer_act[0],
                           problem.layer_work[0])
    caps = []
    for j in range(p):
        room = problem.limit - work - problem.extra_bytes(j)
        per_layer = state + problem.in_flight[j] * act
        if room < 0:
            return None
        cap = n if per_layer <= 0 else min(n, math.floor(room / per_layer))
        if cap < 1:
            return None
        caps.append(cap)
    if sum(caps) < n:
        return None
    extras = [problem.extra_time(j) for j in range(p)]
    if c <= 0:
        return _trim(problem, [min(cap, n) for cap in caps], n, c, extras)

    def counts(limit: float) -> list[int]:
        return [min(caps[j], math.floor((limit - extras[j]) / c + 1e-9)) for j in range(p)]

    def feasible(limit: float) -> bool:
        got = counts(limit)
        return min(got) >= 1 and sum(got) >= n

    candidates = sorted({k * c + e for e in set(extras) for k in range(1, n + 1)})
    lo, hi = 0, len(candidates) - 1
    if not feasible(candidates[hi]):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if feasible(candidates[mid]):
            hi = mid
        else:
            lo = mid + 1
    return _trim(problem, counts(candidates[lo]), n, c, extras)


def _trim(problem: PartitionProblem, sizes: list[int], n: int, c: float, extras: list[float]) -> tuple[int, ...]:
    """Remove the layers beyond ``n``, each from the currently slowest stage (the earliest on a tie),
    which keeps the bottleneck and evens out the rest."""
    excess = sum(sizes) - n
    while excess > 0:
        j = max((j for j in range(len(sizes)) if sizes[j] > 1), key=lambda j: (sizes[j] * c + extras[j], -j))
        sizes[j] -= 1
        excess -= 1
    return tuple(sizes)
