"""Job profiles: the simulator's ground truth of how fast a model trains on a placement and how much a
step at a given batch size is worth. Policies never read these; they learn from what jobs report.

- ``MeasuredProfile``: a directory in the AdaptDL layout (``placements.csv``, ``scalability.csv``,
  ``validation-<B>.csv``); the six applications of Pollux's evaluation ship with assay.
- ``AnalyticProfile``: a roofline-style model (compute from FLOPs, ring all-reduce of the gradients) for
  GPT sizes (``gpt-350m`` ... ``gpt-175b``, any ``gpt-<N>m|b``) and the default for unknown names.

Progress is counted in steps at the profile's initial (smallest) batch; ``epoch_targets`` holds the
cumulative progress at the end of each epoch and ``gains(batch)`` what one step at ``batch`` is worth in
each epoch.
"""

from __future__ import annotations

import csv
import functools
import math
import re
import warnings
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from assay.scheduler.policies import BatchLimits

DATA_DIR = Path(__file__).parent / "data"
ADAPTDL_TRACES = DATA_DIR / "adaptdl" / "traces"

#: Epochs to completion of the applications of Pollux's evaluation, and a per-GPU batch cap (yolov3).
ADAPTDL_APPS: dict[str, dict[str, int]] = {
    "bert": {"epochs": 2},
    "cifar10": {"epochs": 100},
    "deepspeech2": {"epochs": 80},
    "imagenet": {"epochs": 90},
    "ncf": {"epochs": 10},
    "yolov3": {"epochs": 50, "max_local": 8},
}


class Profile(Protocol):
    name: str
    limits: BatchLimits
    epoch_targets: np.ndarray

    def step_time(self, counts: tuple[int, ...], atomic_bsz: int) -> tuple[float, float]:
        """(step seconds, of which not overlapped all-reduce seconds) on ``counts`` workers per node."""
        ...

    def gains(self, batch: int) -> np.ndarray:
        """Initial-batch steps one step at ``batch`` is worth, per epoch."""
        ...

    def grad_stats(self, batch: int, epoch: int) -> tuple[float, float]:
        """(grad_sqr, grad_var) a job measures at ``batch`` during ``epoch``."""
        ...


def canonical(counts: Sequence[int]) -> tuple[int, ...]:
    """Workers per node without empty nodes, as the lexicographically smallest rotation (a ring of
    nodes looks the same from any starting node)."""
    c = tuple(x for x in counts if x)
    if not c:
        return c
    return min(c[i:] + c[:i] for i in range(len(c)))


def _read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


class MeasuredProfile:
    """Measured step times and gradient statistics of one application (AdaptDL's trace layout)."""

    def __init__(self, trace_dir: str | Path, *, name: str | None = None, epochs: int | None = None,
                 max_local: int | None = None, gpu: str | None = None, slowdown: float = 1.0):
        """``gpu`` reads ``placements-<gpu>.csv`` and ``scalability-<gpu>.csv`` (Sia's per-type layout)
        instead of the unsuffixed files; ``slowdown`` multiplies every step and sync time."""
        trace_dir = Path(trace_dir)
        suffix = f"-{gpu}" if gpu else ""
        self.gpu = gpu
        self.name = name or trace_dir.name
        known = ADAPTDL_APPS.get(self.name, {})
        validation: dict[int, dict[str, np.ndarray]] = {}
        for path in trace_dir.glob("validation-*.csv"):
            try:
                batch = int(path.stem.split("-")[-1])
            except ValueError:
                continue
            rows = _read_rows(path)
            validation[batch] = {k: np.array([float(r[k]) for r in rows]) for k in ("progress", "grad_sqr", "grad_var")}
        if not validation:
            raise FileNotFoundError(f"{trace_dir}: no validation-<batch>.csv files")
        self.batches = np.array(sorted(validation), dtype=float)
        n_epochs = epochs or known.get("epochs") or min(len(v["progress"]) for v in validation.values())
        n_epochs = min(n_epochs, min(len(v["progress"]) for v in validation.values()))
        self.epochs = int(n_epochs)
        ordered = [validation[int(b)] for b in self.batches]
        self._sqr = np.stack([v["grad_sqr"][: self.epochs] for v in ordered])  # (batches, epochs)
        self._var = np.stack([v["grad_var"][: self.epochs] for v in ordered])
        self.epoch_targets = np.min(np.stack([v["progress"][: self.epochs] for v in ordered]), axis=0)

        by_placement: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
        grouped: dict[tuple[int, int], dict[float, list[tuple[float, float]]]] = defaultdict(lambda: defaultdict(list))
        local_sizes: list[float] = []
        for r in _read_rows(trace_dir / f"placements{suffix}.csv"):
            pid = r["placement"].strip()
            b, step, sync = float(r["local_bsz"]), slowdown * float(r["step_time"]), slowdown * float(r["sync_time"])
            by_placement[pid].append((b, step, sync))
            grouped[(len(pid), sum(int(c) for c in pid))][b].append((step, sync))
            local_sizes.append(b)
        scal = trace_dir / f"scalability{suffix}.csv"
        if scal.exists():
            for r in _read_rows(scal):
                key = (int(float(r["num_nodes"])), int(float(r["num_replicas"])))
                grouped[key][float(r["local_bsz"])].append((slowdown * float(r["step_time"]),
                                                            slowdown * float(r["sync_time"])))
        self._placements = {pid: _curve(rows) for pid, rows in by_placement.items()}
        self._grid: dict[int, dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]] = defaultdict(dict)
        for (nodes, replicas), per_b in grouped.items():
            rows = [(b, float(np.mean([s for s, _ in v])), float(np.mean([y for _, y in v]))) for b, v in per_b.items()]
            self._grid[nodes][replicas] = _curve(rows)
        self._nodes = sorted(self._grid)
        self.limits = BatchLimits(
            init_batch=int(self.batches[0]), max_batch=int(self.batches[-1]),
            min_local=int(min(local_sizes)), max_local=int(max_local or known.get("max_local") or max(local_sizes)),
        )
        self._step_cache: dict[tuple[tuple[int, ...], int], tuple[float, float]] = {}
        self._gain_cache: dict[int, np.ndarray] = {}

    # -- throughput ---------------------------------------------------------------------------------
    def step_time(self, counts: tuple[int, ...], atomic_bsz: int) -> tuple[float, float]:
        key = (tuple(counts), int(atomic_bsz))
        hit = self._step_cache.get(key)
        if hit is None:
            hit = self._step_time(canonical(counts), float(atomic_bsz))
            self._step_cache[key] = hit
        return hit

    def _step_time(self, counts: tuple[int, ...], b: float) -> tuple[float, float]:
        pid = "".join(map(str, counts))
        if pid in self._placements:
            return _at(self._placements[pid], b)
        # Not measured: interpolate over (nodes, workers per node, per-GPU batch) in the grid of the
        # placement means and scalability.csv, keeping the workers per node of the placement.
        nodes, workers = len(counts), sum(counts)
        nodes_c = min(max(nodes, self._nodes[0]), self._nodes[-1])
        density = workers / nodes
        hi = next(n for n in self._nodes if n >= nodes_c)
        lo = max(n for n in self._nodes if n <= nodes_c)
        v_lo = self._at_nodes(lo, density * lo, b)
        if hi == lo:
            return v_lo
        v_hi = self._at_nodes(hi, density * hi, b)
        w = (nodes_c - lo) / (hi - lo)
        return (v_lo[0] + w * (v_hi[0] - v_lo[0]), v_lo[1] + w * (v_hi[1] - v_lo[1]))

    def _at_nodes(self, nodes: int, workers: float, b: float) -> tuple[float, float]:
        curves = self._grid[nodes]
        reps = sorted(curves)
        workers = min(max(workers, reps[0]), reps[-1])
        hi = next(r for r in reps if r >= workers)
        lo = max(r for r in reps if r <= workers)
        v_lo = _at(curves[lo], b)
        if hi == lo:
            return v_lo
        v_hi = _at(curves[hi], b)
        w = (workers - lo) / (hi - lo)
        return (v_lo[0] + w * (v_hi[0] - v_lo[0]), v_lo[1] + w * (v_hi[1] - v_lo[1]))

    # -- statistical efficiency ---------------------------------------------------------------------
    def _interp(self, batch: float) -> tuple[np.ndarray, np.ndarray]:
        bs = self.batches
        batch = min(max(batch, bs[0]), bs[-1])
        j = int(np.searchsorted(bs, batch))
        if bs[j] == batch:
            return self._sqr[j], self._var[j]
        w = (batch - bs[j - 1]) / (bs[j] - bs[j - 1])
        return (self._sqr[j - 1] + w * (self._sqr[j] - self._sqr[j - 1]),
                self._var[j - 1] + w * (self._var[j] - self._var[j - 1]))

    def gains(self, batch: int) -> np.ndarray:
        hit = self._gain_cache.get(int(batch))
        if hit is None:
            sqr, var = self._interp(float(batch))
            scale = batch / self.limits.init_batch
            hit = (var + sqr) / (var / scale + sqr)
            self._gain_cache[int(batch)] = hit
        return hit

    def grad_stats(self, batch: int, epoch: int) -> tuple[float, float]:
        sqr, var = self._interp(float(batch))
        e = min(max(epoch, 0), self.epochs - 1)
        return float(sqr[e]), float(var[e])


def _curve(rows: list[tuple[float, float, float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = sorted(rows)
    return (np.array([r[0] for r in rows]), np.array([r[1] for r in rows]), np.array([r[2] for r in rows]))


def _at(curve: tuple[np.ndarray, np.ndarray, np.ndarray], b: float) -> tuple[float, float]:
    xs, steps, syncs = curve
    return float(np.interp(b, xs, steps)), float(np.interp(b, xs, syncs))


# -- analytic profiles -------------------------------------------------------------------------------

#: Hardware the analytic profiles assume: an A100-class GPU, NVLink inside a node, 100 Gb/s per GPU across.
PEAK_FLOPS = 312e12
MFU = 0.40
GPU_MEMORY = 80e9
INTRA_BW = 150e9
INTER_BW = 12.5e9
LATENCY = 20e-6


class AnalyticProfile:
    """A data-parallel job whose step time follows from its size: compute = FLOPs / (peak x MFU),
    all-reduce = ring over the gradients (NVLink inside a node, the network across), overlapping with
    compute to a degree 2 (a 2-norm of the two). Gradient noise grows over training, as measured for
    language models (McCandlish et al., 2018): late steps profit more from large batches."""

    def __init__(self, name: str, params: float, flops_per_sample: float, *, init_batch: int, max_batch: int,
                 min_local: int = 1, max_local: int = 16, epochs: int = 10, noise_start: float = 1.0,
                 noise_end: float = 32.0, steps_per_epoch: float = 1000.0):
        self.name = name
        self.params = float(params)
        self.flops_per_sample = float(flops_per_sample)
        self.epochs = int(epochs)
        #: workers needed to hold the weights and Adam state (16 bytes per parameter), sharded
        self.min_workers = max(1, math.ceil(16 * self.params / (0.7 * GPU_MEMORY)))
        self.limits = BatchLimits(init_batch=init_batch, max_batch=max_batch, min_local=min_local,
                                  max_local=max_local)
        self.epoch_targets = steps_per_epoch * np.arange(1, self.epochs + 1, dtype=float)
        frac = np.arange(self.epochs) / max(self.epochs - 1, 1)
        #: gradient noise scale in units of the initial batch, per epoch
        self._phi = noise_start * (noise_end / noise_start) ** frac
        self._gain_cache: dict[int, np.ndarray] = {}
        self._step_cache: dict[tuple[tuple[int, ...], int], tuple[float, float]] = {}

    def step_time(self, counts: tuple[int, ...], atomic_bsz: int) -> tuple[float, float]:
        key = (tuple(counts), int(atomic_bsz))
        hit = self._step_cache.get(key)
        if hit is None:
            counts = canonical(counts)
            nodes, workers = len(counts), sum(counts)
            compute = 0.005 + atomic_bsz * self.flops_per_sample / (PEAK_FLOPS * MFU)
            grad_bytes = 2.0 * self.params * (1.5 if self.min_workers > 1 else 1.0)
            if workers <= 1:
                net = 0.0
            else:
                ring = 2.0 * (workers - 1) / workers * grad_bytes
                bw = INTRA_BW if nodes == 1 else INTER_BW
                net = ring / bw + LATENCY * workers
            step = math.hypot(compute, net)
            hit = (step, step - compute)
            self._step_cache[key] = hit
        return hit

    def gains(self, batch: int) -> np.ndarray:
        hit = self._gain_cache.get(int(batch))
        if hit is None:
            scale = batch / self.limits.init_batch
            hit = (self._phi + 1.0) / (self._phi / scale + 1.0)
            self._gain_cache[int(batch)] = hit
        return hit

    def grad_stats(self, batch: int, epoch: int) -> tuple[float, float]:
        e = min(max(epoch, 0), self.epochs - 1)
        return 1.0, float(self._phi[e])


#: GPT-3 sizes (Brown et al., 2020), parameters.
GPT_SIZES = {"gpt-125m": 125e6, "gpt-350m": 350e6, "gpt-760m": 760e6, "gpt-1.3b": 1.3e9, "gpt-2.7b": 2.7e9,
             "gpt-6.7b": 6.7e9, "gpt-13b": 13e9, "gpt-175b": 175e9}
_GPT = re.compile(r"^gpt-?(\d+(?:\.\d+)?)([mb])$")
SEQ_LEN = 2048


def gpt_profile(name: str) -> AnalyticProfile | None:
    m = _GPT.match(name.lower())
    if not m:
        return None
    params = float(m.group(1)) * (1e6 if m.group(2) == "m" else 1e9)
    # Smaller models fit more sequences per GPU; the noise scale grows with model quality.
    max_local = int(max(1, min(16, 2 ** round(math.log2(max(1.0, 8 * 1.3e9 / params))))))
    return AnalyticProfile(name.lower(), params, 6.0 * params * SEQ_LEN, init_batch=32, max_batch=2048,
                           min_local=1, max_local=max_local, noise_start=1.0, noise_end=48.0)


def default_profile(name: str = "default") -> AnalyticProfile:
    """A ResNet-50-sized image model: what an unknown name is simulated as."""
    return AnalyticProfile(name, 25.6e6, 12.3e9, init_batch=128, max_batch=4096, min_local=16, max_local=256,
                           epochs=10, noise_start=2.0, noise_end=64.0)


@functools.lru_cache(maxsize=64)
def _measured(path: str, name: str) -> MeasuredProfile:
    return MeasuredProfile(path, name=name)


def get_profile(name: str, profiles_dir: str | Path | None = None) -> tuple[Profile, bool]:
    """The profile for model ``name`` and whether it is known. Looks in ``profiles_dir`` (a folder of
    AdaptDL-layout application folders), then the packaged AdaptDL applications, then GPT sizes; an
    unknown name gets the default profile and a warning."""
    key = name.strip()
    if profiles_dir is not None:
        candidate = Path(profiles_dir) / key
        if (candidate / "placements.csv").exists():
            return _measured(str(candidate.resolve()), key), True
    if key in ADAPTDL_APPS and (ADAPTDL_TRACES / key).is_dir():
        return _measured(str(ADAPTDL_TRACES / key), key), True
    if key.lower() in GPT_SIZES:
        return _gpt_cached(key.lower()), True
    gpt = _gpt_cached(key.lower()) if _GPT.match(key.lower()) else None
    if gpt is not None:
        return gpt, True
    warnings.warn(f"unknown model {name!r}: simulated with the default profile (a ResNet-50-sized job)",
                  stacklevel=2)
    return _default_cached(), False


@functools.lru_cache(maxsize=64)
def _gpt_cached(name: str) -> AnalyticProfile:
    profile = gpt_profile(name)
    assert profile is not None
    return profile


@functools.lru_cache(maxsize=1)
def _default_cached() -> AnalyticProfile:
    return default_profile()


def catalogue() -> list[str]:
    """Names every assay install knows."""
    return sorted(ADAPTDL_APPS) + sorted(GPT_SIZES, key=GPT_SIZES.get)
