"""What a policy may know about a job's speed: a goodput model learned from what the job has reported.

Goodput = throughput x statistical efficiency (Pollux, OSDI'21). It is counted in *steps at the job's
initial batch size per second*: a step at a larger batch is worth more than one initial step, with
diminishing returns set by the gradient noise (``grad_var / grad_sqr``).

The step-time model follows Pollux's shape: the per-GPU compute time grows linearly with the per-GPU
(atomic) batch, the all-reduce time is a constant plus a term linear in the replicas, separately for
replicas inside one node and across nodes, and the two overlap to a degree ``gamma``::

    T_step = accum * c(b) + (c(b)^gamma + net(nodes, workers)^gamma)^(1/gamma),   c(b) = alpha_c + beta_c b

It is fitted with numpy only (closed-form least squares for each gamma of a small grid). Before a job has
reported anything the model knows nothing but its batch limits; the policy then starts it on one worker.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

_EPS = 1e-8
_GAMMAS = np.array([1.0, 1.25, 1.5, 2.0, 3.0, 5.0, 10.0])


@dataclass(frozen=True)
class BatchLimits:
    """A job's batch-size rules. ``init_batch`` is the smallest total batch and the unit progress is
    counted in; ``min_local``/``max_local`` bound the per-GPU batch of one step; a larger per-GPU batch
    is reached with gradient accumulation when ``accumulation`` is on. ``fixed_batch`` pins the total."""

    init_batch: int
    max_batch: int
    min_local: int = 1
    max_local: int = 1 << 30
    accumulation: bool = True
    fixed_batch: int | None = None

    def __post_init__(self) -> None:
        if self.init_batch < 1 or self.max_batch < self.init_batch:
            raise ValueError(f"batch limits need 1 <= init_batch <= max_batch, got {self.init_batch}, "
                             f"{self.max_batch}")
        if self.min_local < 1 or self.max_local < self.min_local:
            raise ValueError(f"per-GPU batch limits need 1 <= min_local <= max_local, got {self.min_local}, "
                             f"{self.max_local}")

    @property
    def lowest(self) -> int:
        return self.fixed_batch or self.init_batch

    @property
    def highest(self) -> int:
        return self.fixed_batch or self.max_batch

    def max_workers(self) -> int:
        """The most workers the batch range allows (each needs at least ``min_local`` samples)."""
        return max(1, self.highest // self.min_local)

    def default_batch(self, workers: int) -> int:
        """The batch a job runs with when nobody chose one: the smallest one the workers can hold."""
        return self.clip(max(self.lowest, self.min_local * workers), workers)

    def clip(self, batch: int, workers: int) -> int:
        lo = max(self.lowest, self.min_local * workers)
        hi = self.highest if self.accumulation else min(self.highest, self.max_local * workers)
        return int(min(max(batch, lo), max(hi, lo)))


def split_batch(batch: int, workers: int, limits: BatchLimits) -> tuple[int, int]:
    """(atomic per-GPU batch, extra accumulation steps) that run ``batch`` on ``workers`` GPUs.

    As in AdaptDL, one GPU running more than the initial batch takes at least two accumulation steps, so
    the gradient noise can still be measured between micro-batches.
    """
    local = math.ceil(batch / workers - _EPS)
    accum = max(0, math.ceil(local / limits.max_local - _EPS) - 1) if limits.accumulation else 0
    if limits.accumulation and workers == 1 and batch > limits.init_batch:
        accum = max(1, accum)
    atomic = math.ceil(local / (accum + 1) - _EPS)
    atomic = min(atomic, limits.max_local, max(1, int(limits.highest / (workers * (accum + 1)))))
    return max(atomic, 1), accum


class PerfParams(NamedTuple):
    alpha_c: float  # compute time of a step: alpha_c + beta_c * atomic batch
    beta_c: float
    alpha_n: float  # all-reduce across nodes: alpha_n + beta_n * max(workers - 2, 0)
    beta_n: float
    alpha_r: float  # all-reduce inside one node
    beta_r: float
    gamma: float  # overlap of compute and all-reduce: 1 = none, large = full


def predict_step_time(p: PerfParams, nodes: np.ndarray, workers: np.ndarray, atomic: np.ndarray,
                      accum: np.ndarray) -> np.ndarray:
    """Seconds per optimizer step (vectorised over equally shaped arrays)."""
    compute = p.alpha_c + p.beta_c * atomic
    extra = np.maximum(workers - 2, 0)
    net = np.where(nodes > 1, p.alpha_n + p.beta_n * extra, p.alpha_r + p.beta_r * extra)
    net = np.where(workers > 1, net, 0.0)
    g = p.gamma
    overlapped = (compute ** g + net ** g) ** (1.0 / g)
    return accum * compute + overlapped


def fit_perf_params(nodes, workers, atomic, step_time, sync_time) -> PerfParams:
    """Fit the step-time model to observed steps (arrays of equal length, at least one)."""
    return fit_many([(nodes, workers, atomic, step_time, sync_time)])[0]


def fit_many(observations: list[tuple]) -> list[PerfParams]:
    """Fit one step-time model per job from its observed steps ``(nodes, workers, atomic, step_time,
    sync_time)``, all jobs at once. Closed-form non-negative least squares for each overlap ``gamma`` of
    a grid; the fit with the smallest log error wins. With one batch size seen, the compute time is split
    evenly between a fixed and a per-sample part (optimistic about larger batches, as Pollux does); never
    seen across nodes, the network is assumed 10 % slower than inside one (Pollux's prior)."""
    width = max(len(o[0]) for o in observations)

    def pad(i: int, fill: float) -> np.ndarray:
        return np.array([list(o[i]) + [fill] * (width - len(o[i])) for o in observations], dtype=float)

    valid = np.arange(width)[None, :] < np.array([len(o[0]) for o in observations])[:, None]
    nodes, workers, atomic = pad(0, 1.0), pad(1, 1.0), pad(2, 1.0)
    step = np.maximum(pad(3, 1.0), _EPS)
    compute = np.maximum(step - pad(4, 0.0), _EPS)
    # compute time = alpha_c + beta_c * atomic
    a_c, b_c = _fit_lines(atomic, compute, valid)
    single = _ptp(atomic, valid) == 0
    mean_c = _masked_mean(compute, valid)
    first = atomic[:, 0]
    a_c = np.where(single, mean_c / 2, np.where(b_c <= _EPS, mean_c, a_c))
    b_c = np.where(single, mean_c / 2 / first, b_c)
    pred_c = a_c[:, None] + b_c[:, None] * atomic
    # network time per gamma: (jobs, gammas, points)
    g = _GAMMAS[None, :, None]
    net = np.maximum(step[:, None, :] ** g - pred_c[:, None, :] ** g, _EPS) ** (1.0 / g)
    extra = np.maximum(workers - 2, 0)
    inter = valid & (nodes > 1) & (workers > 1)
    intra = valid & (nodes <= 1) & (workers > 1)
    ex = np.broadcast_to(extra[:, None, :], net.shape)
    a_r, b_r = _fit_lines(ex, net, np.broadcast_to(intra[:, None, :], net.shape))
    a_n, b_n = _fit_lines(ex, net, np.broadcast_to(inter[:, None, :], net.shape))
    unseen = ~inter.any(axis=1)[:, None]
    a_n, b_n = np.where(unseen, 1.1 * a_r, a_n), np.where(unseen, 1.1 * b_r, b_n)
    link = np.where(nodes[:, None, :] > 1, a_n[..., None] + b_n[..., None] * ex, a_r[..., None] + b_r[..., None] * ex)
    link = np.where(workers[:, None, :] > 1, link, 0.0)
    pred = (pred_c[:, None, :] ** g + link ** g) ** (1.0 / g)
    sq = np.where(valid[:, None, :], (np.log(pred) - np.log(step)[:, None, :]) ** 2, 0.0)
    err = np.sqrt(sq.sum(axis=2) / valid.sum(axis=1)[:, None]) + 1e-3 * (_GAMMAS[None, :] - 1) ** 2
    best = np.argmin(err, axis=1)
    rows = np.arange(len(observations))
    return [PerfParams(float(a_c[i]), float(b_c[i]), float(a_n[i, j]), float(b_n[i, j]), float(a_r[i, j]),
                       float(b_r[i, j]), float(_GAMMAS[j])) for i, j in zip(rows, best, strict=True)]


def _masked_mean(y: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return (y * mask).sum(axis=-1) / np.maximum(mask.sum(axis=-1), 1)


def _ptp(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.where(mask, x, -np.inf).max(axis=-1) - np.where(mask, x, np.inf).min(axis=-1)


def _fit_lines(x: np.ndarray, y: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Non-negative least-squares lines ``y = a + b x`` along the last axis over the points in ``mask``:
    a constant where x does not vary, through the origin if the intercept would be negative, flat if the
    slope would be; (eps, eps) without points."""
    count = mask.sum(axis=-1)
    mean_x, mean_y = _masked_mean(x, mask), _masked_mean(y, mask)
    dx = np.where(mask, x - mean_x[..., None], 0.0)
    sxx = (dx * dx).sum(axis=-1)
    b = (dx * np.where(mask, y - mean_y[..., None], 0.0)).sum(axis=-1) / np.maximum(sxx, 1e-300)
    a = mean_y - b * mean_x
    xx = (np.where(mask, x, 0.0) ** 2).sum(axis=-1)
    through_origin = np.maximum((np.where(mask, x * y, 0.0)).sum(axis=-1) / np.maximum(xx, _EPS), _EPS)
    constant = sxx <= 0
    flat = constant | (b < _EPS)
    neg = ~constant & (a < _EPS)
    a_out = np.where(neg, _EPS, np.where(flat, np.maximum(mean_y, _EPS), a))
    b_out = np.where(neg, through_origin, np.where(flat, _EPS, b))
    none = count == 0
    return np.where(none, _EPS, a_out), np.where(none, _EPS, b_out)


class GoodputModel:
    """A job's learned goodput: ``observe_step`` / ``observe_noise`` feed it what the job measured;
    ``table`` answers, for 1..K workers, the best goodput and the batch size that reaches it.

    ``prior`` (step-time parameters from the knowledge graph or a profile) is used until the job has
    reported its own steps. ``version`` changes whenever a prediction may have changed, so callers can
    cache on it. ``prepare`` computes the tables of many models in one vectorised pass.
    """

    def __init__(self, limits: BatchLimits, *, prior: PerfParams | None = None, gpus_per_node: int = 4):
        self.limits = limits
        self.gpus_per_node = gpus_per_node
        self.prior = prior
        self._obs: dict[tuple[int, int, int], tuple[float, float]] = {}
        self._params: PerfParams | None = prior
        self._stale = False
        self.noise: float | None = None  # grad_var / grad_sqr, measured
        self.version = 0
        self.max_observed_workers = 0
        self._table: tuple[np.ndarray, np.ndarray] | None = None
        self._best: dict[tuple[int, int], tuple[float, int]] = {}
        grid = [float(limits.fixed_batch)] if limits.fixed_batch else \
            sorted({float(round(b)) for b in np.geomspace(limits.init_batch, limits.max_batch, _GRID)})
        self._grid = grid + [grid[-1]] * (_GRID - len(grid))  # fixed width: models stack into arrays
        self._limits_row = (float(limits.init_batch), float(limits.highest), float(limits.min_local),
                            float(limits.max_local), float(limits.accumulation))

    # -- what the job reports ------------------------------------------------------------------------
    def observe_step(self, nodes: int, workers: int, atomic_bsz: int, step_time: float, sync_time: float) -> None:
        key = (int(nodes), int(workers), int(atomic_bsz))
        self.max_observed_workers = max(self.max_observed_workers, key[1])
        if key in self._obs:
            return
        self._obs[key] = (float(step_time), float(sync_time))
        self._stale = True
        self._bump()

    def observe_noise(self, grad_sqr: float, grad_var: float) -> None:
        noise = float(grad_var) / float(grad_sqr) if grad_sqr > 0 else 0.0
        if self.noise is not None and abs(noise - self.noise) <= 0.02 * max(self.noise, 1e-12):
            return  # under 2 % change: predictions would not move, keep the cached tables
        self.noise = noise
        self._bump()

    @property
    def observed(self) -> bool:
        return bool(self._obs) or self.prior is not None

    @property
    def params(self) -> PerfParams | None:
        if self._stale:
            self._params = fit_many([self._observations()])[0]
            self._stale = False
        return self._params

    def _observations(self) -> tuple[list, ...]:
        keys, vals = list(self._obs), list(self._obs.values())
        return ([k[0] for k in keys], [k[1] for k in keys], [k[2] for k in keys], [v[0] for v in vals],
                [v[1] for v in vals])

    def _bump(self) -> None:
        self.version += 1
        self._table = None
        self._best.clear()

    # -- predictions ---------------------------------------------------------------------------------
    def efficiency_gain(self, batch: np.ndarray | float) -> np.ndarray:
        """Initial-batch steps one step at ``batch`` is worth: 1 at the initial batch, growing towards
        ``batch / init_batch`` as the gradient noise grows."""
        scale = np.asarray(batch, dtype=float) / self.limits.init_batch
        phi = self.noise or 0.0
        return (phi + 1.0) / (phi / scale + 1.0)

    def goodput(self, workers: int, batch: int | None = None, nodes: int | None = None) -> float:
        """Predicted goodput at ``workers`` on ``nodes`` (default: as few as hold them), at ``batch``
        (default: the best one). 0 if unknown (nothing observed and no prior)."""
        if workers <= 0 or self.params is None:
            return 0.0
        nodes = nodes or -(-workers // self.gpus_per_node)
        if batch is None:
            return self.best(workers, nodes)[0]
        batch = self.limits.clip(batch, workers)
        atomic, accum = split_batch(batch, workers, self.limits)
        t = predict_step_time(self.params, np.array(nodes), np.array(workers), np.array(atomic), np.array(accum))
        return float(self.efficiency_gain(workers * atomic * (accum + 1)) / t)

    def best(self, workers: int, nodes: int) -> tuple[float, int]:
        """(goodput, batch) of the best batch size at ``workers`` spread over ``nodes`` nodes."""
        if self.params is None:
            return (1.0 if workers == 1 else 0.0), self.limits.default_batch(max(workers, 1))
        hit = self._best.get((workers, nodes))
        if hit is None:
            table = self._table
            if table is not None and workers < len(table[0]) and nodes == -(-workers // self.gpus_per_node):
                hit = float(table[0][workers]), int(table[1][workers])
            else:
                good, batch = _evaluate([self], np.array([[float(workers)]]), np.array([[float(nodes)]]))
                hit = float(good[0, 0]), int(batch[0, 0])
            self._best[(workers, nodes)] = hit
        return hit

    def table(self, max_workers: int) -> tuple[np.ndarray, np.ndarray]:
        """(goodput, batch) for 0..max_workers workers on as few nodes as hold them; entries the batch
        limits rule out are 0. Without observations or prior only one worker is rated (goodput 1)."""
        max_workers = max(0, int(max_workers))
        if self._table is None or len(self._table[0]) <= max_workers:
            GoodputModel.prepare([(self, max_workers)])
        assert self._table is not None
        good, batch = self._table
        return good[: max_workers + 1], batch[: max_workers + 1]

    @staticmethod
    def prepare(requests: list[tuple[GoodputModel, int]]) -> None:
        """Compute the tables of many (model, max workers) at once, in a few vectorised passes."""
        todo = [(m, max(0, int(k))) for m, k in requests if m._table is None or len(m._table[0]) <= k]
        stale = [m for m, _ in todo if m._stale]
        if stale:
            for m, params in zip(stale, fit_many([m._observations() for m in stale]), strict=True):
                m._params, m._stale = params, False
        unknown = [(m, k) for m, k in todo if m.params is None]
        for m, k in unknown:
            good, batch = np.zeros(k + 1), np.zeros(k + 1, dtype=np.int64)
            if k >= 1:
                good[1], batch[1] = 1.0, m.limits.default_batch(1)
            m._table = (good, batch)
        known = sorted(((m, k) for m, k in todo if m.params is not None), key=lambda mk: mk[1])
        start = 0
        while start < len(known):
            end = start + 1
            while end < len(known) and (end + 1 - start) * max(known[end][1], 1) * _GRID <= _CHUNK:
                end += 1
            chunk = known[start:end]
            width = max(chunk[-1][1], 1)
            models = [m for m, _ in chunk]
            k = np.broadcast_to(np.arange(1, width + 1, dtype=float), (len(models), width))
            per_node = np.array([[m.gpus_per_node] for m in models], dtype=float)
            good, batch = _evaluate(models, k, np.ceil(k / per_node))
            for row, (m, kk) in enumerate(chunk):
                m._table = (np.concatenate(([0.0], good[row, :kk])),
                            np.concatenate(([0], batch[row, :kk])).astype(np.int64))
            start += len(chunk)


_GRID = 24  # batch sizes tried between the initial and the largest one (geometric)
_CHUNK = 400_000  # elements per vectorised pass


def _evaluate(models: list[GoodputModel], k: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Best goodput and its batch for each model (row) at the worker counts ``k`` on ``nodes`` (both
    shaped (models, n))."""
    rows = np.array([m._limits_row + tuple(m.params) + (m.noise or 0.0,) for m in models])[:, :, None, None]
    init, highest, min_local, max_local, accum_ok = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3], rows[:, 4] > 0
    alpha_c, beta_c, alpha_n, beta_n, alpha_r, beta_r, gamma, phi = (rows[:, 5 + i] for i in range(8))
    grid = np.array([m._grid for m in models])[:, None, :]
    k3, nodes3 = k[:, :, None], nodes[:, :, None]
    batch = np.maximum(grid, k3 * min_local)
    hi = np.where(accum_ok, highest, np.minimum(highest, k3 * max_local))
    valid = batch <= hi + _EPS
    local = np.ceil(batch / k3 - _EPS)
    accum = np.where(accum_ok, np.maximum(np.ceil(local / max_local - _EPS) - 1, 0), 0.0)
    accum = np.where(accum_ok & (k3 == 1) & (batch > init), np.maximum(accum, 1), accum)
    atomic = np.ceil(local / (accum + 1) - _EPS)
    atomic = np.minimum(atomic, np.maximum(np.floor(highest / (k3 * (accum + 1))), 1))
    compute = alpha_c + beta_c * atomic
    extra = np.maximum(k3 - 2, 0)
    net = np.where(nodes3 > 1, alpha_n + beta_n * extra, alpha_r + beta_r * extra)
    net = np.where(k3 > 1, net, 0.0)
    step = accum * compute + (compute ** gamma + net ** gamma) ** (1.0 / gamma)
    scale = k3 * atomic * (accum + 1) / init
    good = (phi + 1.0) / (phi / scale + 1.0) / step
    good = np.where(valid & (atomic >= min_local), good, 0.0)
    best = np.argmax(good, axis=2)
    out = np.take_along_axis(good, best[:, :, None], axis=2)[:, :, 0]
    chosen = np.take_along_axis(batch, best[:, :, None], axis=2)[:, :, 0]
    return out, np.where(out > 0, chosen, 0).astype(np.int64)
