"""The ground truth of one simulated job: where its progress stands and how fast it moves."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from assay.scheduler.policies import BatchLimits, GoodputModel, node_counts, split_batch
from assay.scheduler.workloads import Profile, TraceJob


def compact_counts(workers: int, per_node: int) -> tuple[int, ...]:
    """Workers per node when ``workers`` sit on as few nodes as possible."""
    full, rest = divmod(workers, per_node)
    return (per_node,) * full + ((rest,) if rest else ())


@dataclass
class SimJob:
    spec: TraceJob
    profile: Profile
    limits: BatchLimits
    targets: np.ndarray  # cumulative progress at the end of each epoch
    model: GoodputModel
    min_workers: int
    isolated_s: float  # run time alone at the requested size, start-up included
    progress: float = 0.0
    epoch: int = 0
    workers: int = 0
    placement: tuple[int, ...] = ()
    counts: tuple[int, ...] = ()
    batch: int = 0
    atomic: int = 0
    accum: int = 0
    restart_left: float = 0.0
    attained: float = 0.0
    restarts: int = -1  # the first start is not a restart
    start_time: float | None = None
    finish_time: float | None = None
    waiting: float = 0.0
    allocated_s: float = 0.0
    adaptive: bool = False
    #: On a cluster of several GPU types: the type it runs on, its model per type, its restart seconds,
    #: and GPU-seconds per type.
    gpu_type: str | None = None
    models: dict[str, GoodputModel] = field(default_factory=dict)
    restart_s: float | None = None
    type_seconds: dict[str, float] = field(default_factory=dict)
    _rate: tuple[float, float, float] | None = field(default=None, repr=False)  # (step, sync, total)

    @property
    def done(self) -> bool:
        return self.finish_time is not None

    # -- allocation ---------------------------------------------------------------------------------
    def allocate(self, workers: int, placement: tuple[int, ...], batch: int | None, restart_s: float,
                 adaptive: bool = False, gpu_type: str | None = None) -> bool:
        """Apply a decision; True if it restarted the job (a new set of workers). ``gpu_type``: the type
        of the placement's nodes on a heterogeneous cluster (the job then learns into that type's model)."""
        self.adaptive = adaptive
        moved = tuple(placement) != self.placement
        if self.restart_s is not None:
            restart_s = self.restart_s
        if workers > 0 and gpu_type is not None and self.models:
            moved = moved or gpu_type != self.gpu_type
            self.gpu_type = gpu_type
            self.model = self.models[gpu_type]
        if workers <= 0:
            self.workers, self.placement, self.counts = 0, (), ()
            self.restart_left = 0.0
            self._rate = None
            return False
        if moved:
            self.workers, self.placement = workers, tuple(placement)
            self.counts = node_counts(self.placement)
            self._rate = None
            self.restart_left = restart_s
            self.restarts += 1
        self._set_batch(batch)
        return moved

    def _set_batch(self, batch: int | None) -> None:
        lim = self.limits
        if self.spec.fixed_batch:
            batch = self.spec.fixed_batch
        elif batch is None:
            batch = self.batch if self.batch else (self.spec.batch_size or lim.default_batch(self.workers))
        batch = lim.clip(int(batch), self.workers)
        atomic, accum = split_batch(batch, self.workers, lim)
        atomic = max(atomic, lim.min_local)
        effective = self.workers * atomic * (accum + 1)
        if (effective, atomic, accum) != (self.batch, self.atomic, self.accum):
            self._rate = None
        self.batch, self.atomic, self.accum = effective, atomic, accum

    def rate_parts(self) -> tuple[float, float, float]:
        """(step, sync, seconds per optimizer step with accumulation) at the current allocation."""
        if self._rate is None:
            if self.gpu_type is not None and getattr(self.profile, "typed", False):
                step, sync = self.profile.step_time(self.counts, self.atomic, self.gpu_type)
            else:
                step, sync = self.profile.step_time(self.counts, self.atomic)
            self._rate = (step, sync, step + self.accum * (step - sync))
        return self._rate

    # -- the clock ----------------------------------------------------------------------------------
    def advance(self, t0: float, seconds: float) -> None:
        """Run from ``t0`` for ``seconds`` (or until done)."""
        if self.workers == 0:
            self.waiting += seconds
            return
        delay = min(self.restart_left, seconds)
        self.restart_left -= delay
        used = delay
        left = seconds - delay
        if left > 0:
            _, _, total = self.rate_parts()
            gains = self.profile.gains(self.batch)
            targets = self.targets
            n = len(targets)
            while left > 0:
                rate = gains[min(self.epoch, n - 1)] / total
                need = targets[self.epoch] - self.progress
                if rate * left < need:
                    self.progress += rate * left
                    used += left
                    left = 0.0
                    break
                dt = need / rate
                self.progress = targets[self.epoch]
                self.epoch += 1
                used += dt
                left -= dt
                if self.epoch >= n:
                    self.finish_time = float(t0 + used)
                    break
                if self.adaptive and self._retune():
                    _, _, total = self.rate_parts()
                    gains = self.profile.gains(self.batch)
        self.attained += used * self.workers
        self.allocated_s += used * self.workers
        if self.gpu_type is not None:
            self.type_seconds[self.gpu_type] = self.type_seconds.get(self.gpu_type, 0.0) + used * self.workers

    def _retune(self) -> bool:
        """Between epochs an adaptive job measures its gradient noise and picks its best batch with its
        own model; True if the batch changed."""
        sqr, var = self.profile.grad_stats(self.batch, self.epoch)
        self.model.observe_noise(sqr, var)
        if self.model.params is None:
            return False
        good, batch = self.model.best(self.workers, len(self.counts))
        if good <= 0:
            return False
        before = self.batch
        self._set_batch(batch)
        return self.batch != before

    def report(self) -> None:
        """What the running job tells the scheduler: its step and sync time, and its gradient noise."""
        if self.workers == 0 or self.done or self.restart_left > 0:
            return
        step, sync, _ = self.rate_parts()
        self.model.observe_step(len(self.counts), self.workers, self.atomic, step, sync)
        sqr, var = self.profile.grad_stats(self.batch, self.epoch)
        self.model.observe_noise(sqr, var)


def make_job(spec: TraceJob, profile: Profile, per_node: int, restart_s: float,
             types: dict[str, int] | None = None) -> SimJob:
    """A job with its progress targets: the profile's epochs, or scaled so that the job runs
    ``spec.duration`` seconds at its requested size. ``types`` (GPU type -> GPUs per node) gives the job
    one model per type of a heterogeneous cluster and ``restart_s`` as its own."""
    lim = profile.limits
    if spec.fixed_batch:
        lim = BatchLimits(lim.init_batch, max(lim.max_batch, spec.fixed_batch), lim.min_local,
                          max(lim.max_local, spec.fixed_batch), lim.accumulation, spec.fixed_batch)
    min_workers = max(spec.min_workers, getattr(profile, "min_workers", 1))
    workers = max(min(spec.num_gpus, lim.max_workers()), min_workers)
    probe = SimJob(spec, profile, lim, profile.epoch_targets, GoodputModel(lim, gpus_per_node=per_node),
                   min_workers, 0.0)
    probe.workers, probe.counts = workers, compact_counts(workers, per_node)
    probe._set_batch(spec.batch_size)
    _, _, total = probe.rate_parts()
    gains = profile.gains(probe.batch)
    steps = np.diff(np.concatenate(([0.0], profile.epoch_targets)))
    alone = float(np.sum(steps * total / gains))
    targets = profile.epoch_targets
    if spec.duration is not None:
        targets = targets * (spec.duration / alone)
        alone = spec.duration
    job = SimJob(spec, profile, lim, targets, GoodputModel(lim, gpus_per_node=per_node), min_workers,
                 isolated_s=restart_s + alone)
    if types:
        job.models = {t: GoodputModel(lim, gpus_per_node=n) for t, n in types.items()}
        job.model = next(iter(job.models.values()))
        job.restart_s = restart_s
    return job


def ceil_to(t: float, step: float) -> float:
    return math.ceil(t / step - 1e-9) * step
