"""Goodput-driven elastic scheduling, after Pollux (Qiao et al., OSDI'21).

Every round each job's worker count and batch size are chosen so the cluster's useful progress is best:

- a job's *speedup* at k workers is its predicted goodput (throughput x statistical efficiency, at the
  best batch size for k) over its goodput on one worker, from the model learned from what it reported;
- the cluster value is a weighted sum of ``U_p(speedup)``, a Box-Cox power ``((s + eps)^p - 1) / p``
  (``fairness`` = p: 1 = total speedup, 0 = log, < 0 leans towards the worst-off job, as Pollux's power
  mean does); each job's weight falls with the service it has attained (least attained service first,
  ``las`` sets how steeply) and rises with its priority;
- a change of allocation costs ``restart_s`` of no progress. Pollux prices it by discounting the speedup
  of a changed allocation by ``(age - restarts x restart_s) / (age + restart_s)``; that lets large, old
  jobs be resized every round for tiny gains, so the discount is also capped at
  ``1 - restart_s / horizon_s`` (a change must pay for itself within about ``horizon_s``) and running
  jobs are only resized by at least ``min_resize`` (or stopped);
- a job may grow to at most ``growth`` x the most workers it has been seen on, so the model is never
  trusted far beyond what was measured;
- workers are handed out greedily along each job's upper concave hull of value against workers (exact
  for concave values, one sort over all segments), then placed on as few nodes as possible.

On a cluster of several GPU types each job gets a (type, workers) choice instead, with the cost of a move
in the decision: see ``_goodput_typed``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assay.scheduler.policies._base import ClusterView, Decision, JobView, register_policy
from assay.scheduler.policies._goodput_model import GoodputModel
from assay.scheduler.policies._goodput_typed import decide_typed
from assay.scheduler.policies._placement import PLACERS, FreePool, free_after, node_counts
from assay.scheduler.policies._utility import hull as _hull
from assay.scheduler.policies._utility import utility


@dataclass
class _Plan:
    job: JobView
    ks: list[int]  # candidate worker counts, starting with 0
    values: list[float]  # weighted utility at each candidate
    speedup: list[float]
    batch: list[int]
    weight: float
    current: int


class Goodput:
    """Knobs (defaults chosen on the AdaptDL workloads and checked on Philly-shaped ones, see
    docs/scheduler-policies.md):

    - ``fairness``: p of the Box-Cox utility (0 = proportional fairness, -1 = Pollux's harmonic mean);
    - ``las``, ``las_scale``: weight ``(1 + attained / las_scale) ** -las`` (worker-seconds);
    - ``restart_s``, ``horizon_s``: a changed allocation is worth at most ``1 - restart_s / horizon_s`` of
      its speedup (and Pollux's age-based discount for young jobs), so a change must pay for itself
      within about ``horizon_s``;
    - ``min_resize``: a running job is only resized by at least this fraction (or stopped);
    - ``growth``: at most ``growth`` x the most workers a job has been measured on;
    - ``placement``: ``pack`` (fewest nodes) or ``spread``; ``whole_nodes``: jobs larger than a node get
      whole nodes; ``adapt_batch``: choose batch sizes (and let jobs re-tune them between epochs).
    """

    name = "goodput"

    def __init__(self, fairness: float = 0.0, las: float = 0.5, las_scale: float = 3600.0,
                 restart_s: float = 30.0, horizon_s: float = 90.0, min_resize: float = 0.5,
                 growth: float = 4.0, placement: str = "pack", whole_nodes: bool = False,
                 adapt_batch: bool = True):
        if placement not in PLACERS:
            raise ValueError(f"placement must be one of {sorted(PLACERS)}, got {placement!r}")
        if growth < 1:
            raise ValueError("growth must be at least 1 (1 = never more workers than measured)")
        if restart_s < 0 or horizon_s <= restart_s:
            raise ValueError("restart_s must be non-negative and below horizon_s")
        if las < 0 or las_scale <= 0 or min_resize < 0:
            raise ValueError("las and min_resize must be non-negative, las_scale positive")
        self.fairness = float(fairness)
        self.las = float(las)
        self.las_scale = float(las_scale)
        self.restart_s = float(restart_s)
        self.horizon_s = float(horizon_s)
        self.min_resize = float(min_resize)
        self.growth = float(growth)
        self.whole_nodes = whole_nodes
        self.adapt_batch = adapt_batch
        self.placement = placement

    # -- per job ------------------------------------------------------------------------------------
    def _range(self, job: JobView, total: int) -> tuple[int, int]:
        """The fewest and most workers the job may get this round."""
        lo = max(job.min_workers, 1)
        hi = min(job.upper_workers, total)
        model = job.model
        if model is not None and model.observed:
            seen = max(model.max_observed_workers, job.workers, 1)
            return lo, min(hi, max(lo, math.ceil(self.growth * seen)))
        return lo, min(hi, lo)  # nothing measured yet: start small and learn

    def _plan(self, job: JobView, lo: int, hi: int, now: float, per_node: int) -> _Plan | None:
        if hi < lo:
            return None
        model = job.model
        known = model is not None and model.observed
        if known:
            good, batch = model.table(hi)
        else:
            good = np.zeros(hi + 1)
            good[lo] = float(lo)
            batch = np.zeros(hi + 1, dtype=np.int64)
        ks = np.concatenate(([0], np.arange(lo, hi + 1)))
        good, batch = good[ks], batch[ks]
        feasible = good > 0
        feasible[0] = True
        if self.whole_nodes and per_node > 1:
            feasible &= (ks <= per_node) | (ks % per_node == 0)
        if job.running and self.min_resize > 0:
            k0 = job.workers
            grow, shrink = k0 * (1 + self.min_resize), k0 / (1 + self.min_resize)
            feasible &= (ks == k0) | (ks == 0) | (ks >= grow) | (ks <= shrink)
        ks, good, batch = ks[feasible], good[feasible], batch[feasible]
        if len(ks) < 2:
            return None
        speedup = good / (good[1] / ks[1])
        effective = speedup
        if job.running:
            age = max(now - job.submit_time, 0.0)
            discount = min(max(age - job.restarts * self.restart_s, 0.0) / (age + self.restart_s),
                           1.0 - self.restart_s / self.horizon_s)
            effective = np.where(ks == job.workers, speedup, speedup * discount)
        weight = 2.0 ** job.priority * (1.0 + job.attained_service / self.las_scale) ** (-self.las)
        values = weight * utility(effective, self.fairness)
        return _Plan(job, ks.tolist(), values.tolist(), speedup.tolist(), batch.tolist(), weight, job.workers)

    # -- the round ----------------------------------------------------------------------------------
    def decide(self, jobs: Sequence[JobView], cluster: ClusterView, now: float) -> dict[str, Decision]:
        if len(cluster.types) > 1:  # several GPU types: a (type, workers) choice per job

            return decide_typed(self, jobs, cluster, now)
        total = cluster.total
        plans: list[_Plan] = []
        out: dict[str, Decision] = {}
        ranges = [self._range(job, total) for job in jobs]
        GoodputModel.prepare([(job.model, hi) for job, (lo, hi) in zip(jobs, ranges, strict=True)
                              if job.model is not None and job.model.observed and hi >= lo])
        for job, (lo, hi) in zip(jobs, ranges, strict=True):
            plan = self._plan(job, lo, hi, now, cluster.gpus_per_node)
            if plan is None:
                out[job.job_id] = Decision(0, f"goodput: cannot run, needs {job.min_workers} workers")
            else:
                plans.append(plan)
        counts = self._allocate(plans, total)
        self._finish(plans, counts, cluster, out)
        return out

    def _allocate(self, plans: list[_Plan], capacity: int) -> list[int]:
        """Indices into each plan's ``ks``: take hull segments by value per worker, best first."""
        segments: list[tuple[float, float, int, int, int]] = []
        for p_idx, plan in enumerate(plans):
            for start, end, slope in _hull(plan.ks, plan.values):
                segments.append((-slope, plan.job.submit_time, p_idx, start, end))
        segments.sort()
        at = [0] * len(plans)
        blocked = [False] * len(plans)
        left = capacity
        for _, _, p_idx, start, end in segments:
            if blocked[p_idx] or at[p_idx] != start:
                continue
            plan = plans[p_idx]
            need = plan.ks[end] - plan.ks[start]
            if need <= left:
                at[p_idx] = end
                left -= need
            else:
                blocked[p_idx] = True
        # Workers the hull could not hand out whole: best single improvements that still fit.
        while left > 0:
            best = None
            for p_idx, plan in enumerate(plans):
                k0, v0 = plan.ks[at[p_idx]], plan.values[at[p_idx]]
                for idx in range(at[p_idx] + 1, len(plan.ks)):
                    need = plan.ks[idx] - k0
                    if need > left:
                        break
                    gain = (plan.values[idx] - v0) / need
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, p_idx, idx, need)
            if best is None:
                break
            _, p_idx, idx, need = best
            at[p_idx] = idx
            left -= need
        return at

    def _finish(self, plans: list[_Plan], at: list[int], cluster: ClusterView, out: dict[str, Decision]) -> None:
        keep = [plan for plan, i in zip(plans, at, strict=True) if plan.ks[i] == plan.current and plan.current > 0]
        pool = FreePool(free_after(cluster.capacity, (plan.job.placement for plan in keep)))
        order = sorted(range(len(plans)), key=lambda n: -plans[n].ks[at[n]])
        for n in order:
            plan, idx = plans[n], at[n]
            job, k = plan.job, plan.ks[idx]
            if k == 0:
                verb = "preempted" if job.running else "waits"
                out[job.job_id] = Decision(0, f"goodput: {verb}, weight {plan.weight:.2f}")
                continue
            if k == plan.current and job.placement:
                placement = job.placement
            else:
                placement = pool.spread(k) if self.placement == "spread" else pool.pack(k)
                if placement is None:  # cannot happen while the counts fit the cluster
                    out[job.job_id] = Decision(0, "goodput: no room left on the nodes")
                    continue
            batch = self._batch(job, k, len(node_counts(placement)), plan.batch[idx])
            change = "keeps" if k == plan.current else f"{plan.current} ->"
            out[job.job_id] = Decision(
                k, f"goodput: {change} {k} workers, batch {batch}, speedup {plan.speedup[idx]:.2f}, "
                   f"weight {plan.weight:.2f}", batch, placement, adaptive_batch=self.adapt_batch)

    def _batch(self, job: JobView, workers: int, nodes: int, planned: int) -> int | None:
        if job.limits is None:
            return job.requested_batch
        if not self.adapt_batch:
            return job.limits.clip(job.requested_batch or job.limits.default_batch(workers), workers)
        if job.model is not None and job.model.params is not None:
            good, batch = job.model.best(workers, nodes)
            if good > 0:
                return batch
        return int(planned) if planned else job.limits.default_batch(workers)


register_policy("goodput", Goodput)
