"""Fitting the cost model's constants to measured step times.

Each run becomes an ``Observation`` (model, layout, cluster, measured step time). Runs are grouped by
hardware; each group's constants minimise the mean squared log error of predicted step times, plus a
small ridge pull towards the analytic defaults (so constants the runs cannot tell apart, e.g. the
inter-node bandwidth when no run crossed nodes, stay at their defaults). The error on runs a fit has not
seen is estimated by leave-one-out (up to 12 runs) or 5-fold cross-validation.

Speed: predicted step time is linear in ``Rates`` except for the max over stages and the overlap (see
``_analytic``), so each run's coefficients are extracted once and a parameter vector is evaluated for
all runs as a few matrix products.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from assay.clock import utc_now
from assay.ids import stable_id
from assay.scheduler.cluster import Cluster, find_cluster
from assay.scheduler.cost_model._analytic import Rates, stage_terms
from assay.scheduler.cost_model._model import MODEL_VERSION, CostModel
from assay.scheduler.cost_model._nelder_mead import minimize
from assay.scheduler.cost_model._params import CostParams
from assay.scheduler.layout import Layout
from assay.scheduler.model_spec import ModelSpec, find_model, model_from_config

#: The constants a fit adjusts, in the order of its parameter vector.
FITTED: tuple[str, ...] = (
    "flop_fraction", "mem_bw_fraction", "intra_bw_eff", "inter_bw_eff", "latency_scale", "overlap",
    "layer_overhead_s", "step_overhead_s",
)
#: Weight of the pull towards the defaults, divided by the number of runs: it fades as data accumulate.
PRIOR_WEIGHT = 0.02
MIN_RUNS_TO_FIT = 3
LOO_MAX_RUNS = 12


@dataclass(frozen=True)
class Observation:
    run_id: str
    model: ModelSpec
    layout: Layout
    cluster: Cluster
    step_time_s: float


@dataclass(frozen=True)
class GroupReport:
    hardware: str
    n_runs: int
    fitted: bool  # False: too few runs, the defaults were kept
    mape: float  # in-sample, percent
    holdout_mape: float  # on runs left out of the fit, percent
    params: CostParams


@dataclass(frozen=True)
class FitReport:
    fit_id: str
    fitted_at: datetime
    n_runs: int
    n_skipped: int
    skipped: dict[str, int]  # reason -> runs
    mape: float  # percent, over all runs used
    holdout_mape: float
    groups: tuple[GroupReport, ...]
    seconds: float
    errors: dict[str, float] = field(default_factory=dict)  # run_id -> signed in-sample error, percent

    def summary(self) -> str:
        parts = [f"fit {self.fit_id}: {self.n_runs} runs, MAPE {self.mape:.1f}%, holdout {self.holdout_mape:.1f}%"]
        for g in self.groups:
            state = "fitted" if g.fitted else "defaults"
            parts.append(f"  {g.hardware}: {g.n_runs} runs ({state}), MAPE {g.mape:.1f}%, "
                         f"holdout {g.holdout_mape:.1f}%")
        if self.skipped:
            parts.append("  skipped: " + ", ".join(f"{n} {why}" for why, n in sorted(self.skipped.items())))
        return "\n".join(parts)

    def row(self, model: CostModel) -> dict[str, Any]:
        """The ``cost_model_fits`` row of this fit."""
        extra = {
            "n_skipped": self.n_skipped, "skipped": self.skipped,
            "groups": {g.hardware: {"n_runs": g.n_runs, "fitted": g.fitted, "mape": _num(g.mape),
                                    "holdout_mape": _num(g.holdout_mape)} for g in self.groups},
        }
        return {"fit_id": self.fit_id, "fitted_at": self.fitted_at, "params": model.params_json(extra),
                "n_runs": self.n_runs, "mape": _num(self.mape), "holdout_mape": _num(self.holdout_mape)}


def _num(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else round(float(x), 4)


class LinearisedRuns:
    """Observations in the form the fit evaluates quickly: per run and stage, the coefficients of the
    micro-batch time, the backward time and the gradient all-reduce on ``Rates``."""

    _BASIS = Rates(*np.eye(7))

    def __init__(self, observations: Sequence[Observation]) -> None:
        self.observations = list(observations)
        n = len(self.observations)
        width = max((o.layout.pp for o in self.observations), default=1)
        self.per_mb = np.zeros((n, width, 7))
        self.bwd = np.zeros((n, width, 7))
        self.dp = np.zeros((n, width, 7))
        self.const = np.zeros((n, 7))
        self.micro_batches = np.zeros(n)
        self.measured = np.array([o.step_time_s for o in self.observations], dtype=float)
        for k, o in enumerate(self.observations):
            t = stage_terms(o.model, o.layout, o.cluster, self._BASIS)
            for i in range(o.layout.pp):
                self.per_mb[k, i] = _vec(t.fwd[i]) + _vec(t.bwd[i])
                self.bwd[k, i] = _vec(t.bwd[i])
                self.dp[k, i] = _vec(t.dp_allreduce[i])
            self.const[k] = _vec(t.optimizer) + _vec(t.step_overhead)
            self.micro_batches[k] = t.micro_batches

    def predict(self, params: CostParams, rows: np.ndarray | None = None) -> np.ndarray:
        r = np.array([1 / params.flop_fraction, 1 / params.mem_bw_fraction, 1 / params.intra_bw_eff,
                      1 / params.inter_bw_eff, params.latency_scale, params.layer_overhead_s,
                      params.step_overhead_s])
        sel = slice(None) if rows is None else rows
        per_mb = self.per_mb[sel] @ r
        pipeline = (self.micro_batches[sel] - 1) * per_mb.max(axis=1) + per_mb.sum(axis=1)
        exposed = np.clip(self.dp[sel] @ r - params.overlap * (self.bwd[sel] @ r), 0, None).max(axis=1)
        return pipeline + exposed + self.const[sel] @ r


def _vec(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=float) if np.ndim(x) else np.zeros(7)


def _fit_group(runs: LinearisedRuns, rows: np.ndarray, base: CostParams) -> CostParams:
    x0 = np.array(base.to_vector(FITTED))
    log_measured = np.log(runs.measured[rows])
    weight = PRIOR_WEIGHT / max(1, len(rows))

    def loss(x: np.ndarray) -> float:
        params = base.from_vector(FITTED, list(x))
        predicted = runs.predict(params, rows)
        return float(np.mean((np.log(predicted) - log_measured) ** 2) + weight * np.sum((x - x0) ** 2))

    best = minimize(loss, x0, step=0.5, max_evals=2500, xtol=1e-3, ftol=1e-8)
    # One restart from the optimum with a smaller simplex escapes most premature collapses.
    again = minimize(loss, best.x, step=0.15, max_evals=1500, xtol=1e-3, ftol=1e-8)
    best = again if again.value < best.value else best
    return base.from_vector(FITTED, list(best.x))


def _ape(predicted: np.ndarray, measured: np.ndarray) -> np.ndarray:
    return np.abs(predicted - measured) / measured * 100


def fit(observations: Iterable[Observation], *, base: CostModel | None = None,
        skipped: Mapping[str, int] | None = None) -> tuple[CostModel, FitReport]:
    """Fit constants per hardware to ``observations`` and estimate their held-out error."""
    started = time.perf_counter()
    observations = [o for o in observations if o.step_time_s > 0 and math.isfinite(o.step_time_s)]
    base = base or CostModel.default()
    skipped = dict(skipped or {})
    by_hw: dict[str, list[int]] = {}
    for k, o in enumerate(observations):
        by_hw.setdefault(o.cluster.name, []).append(k)
    runs = LinearisedRuns(observations)
    model = base
    groups: list[GroupReport] = []
    all_ape, all_holdout = np.zeros(len(observations)), np.zeros(len(observations))
    signed = np.zeros(len(observations))
    for hardware, idx in sorted(by_hw.items()):
        rows = np.array(idx)
        defaults = base.params_for(observations[idx[0]].cluster)
        if len(rows) >= MIN_RUNS_TO_FIT:
            params = _fit_group(runs, rows, defaults)
            holdout = np.empty(len(rows))
            for train, test in _folds(len(rows)):
                fold_params = _fit_group(runs, rows[train], defaults)
                holdout[test] = _ape(runs.predict(fold_params, rows[test]), runs.measured[rows[test]])
        else:
            params = defaults  # the defaults never saw these runs: their error is a held-out error
            holdout = _ape(runs.predict(params, rows), runs.measured[rows])
        predicted = runs.predict(params, rows)
        ape = _ape(predicted, runs.measured[rows])
        all_ape[rows], all_holdout[rows] = ape, holdout
        signed[rows] = (predicted - runs.measured[rows]) / runs.measured[rows] * 100
        model = model.with_params(hardware, params)
        groups.append(GroupReport(hardware, len(rows), len(rows) >= MIN_RUNS_TO_FIT, float(ape.mean()),
                                  float(holdout.mean()), params))
    fit_id = fit_id_of(observations, skipped)
    model = model.with_fit_id(fit_id)
    report = FitReport(
        fit_id=fit_id, fitted_at=utc_now(), n_runs=len(observations),
        n_skipped=sum(skipped.values()), skipped=skipped,
        mape=float(all_ape.mean()) if len(observations) else float("nan"),
        holdout_mape=float(all_holdout.mean()) if len(observations) else float("nan"),
        groups=tuple(groups), seconds=time.perf_counter() - started,
        errors={o.run_id: float(e) for o, e in zip(observations, signed, strict=True)},
    )
    return model, report


def fit_id_of(observations: Sequence[Observation], skipped: Mapping[str, int]) -> str:
    """The id a fit of these runs gets: the same runs and step times always give the same id."""
    fingerprint = sorted((o.run_id, round(o.step_time_s, 9)) for o in observations)
    return stable_id(MODEL_VERSION, fingerprint, sorted(dict(skipped).items()))


def _folds(n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Leave-one-out up to 12 runs, else 5 interleaved folds."""
    k = n if n <= LOO_MAX_RUNS else 5
    idx = np.arange(n)
    return [(idx[idx % k != f], idx[idx % k == f]) for f in range(k)]


# -- from the knowledge graph ---------------------------------------------------------------------------

def observations_from_rows(rows: Iterable[Mapping[str, Any]], *, default_hardware: str | None = None
                           ) -> tuple[list[Observation], dict[str, int]]:
    """Observations from ``queries_costmodel.runs_for_fit`` rows, and the count of runs skipped per
    reason (no measured speed, unknown model dims, unknown hardware, incomplete or invalid layout)."""
    out: list[Observation] = []
    skipped: Counter[str] = Counter()
    for row in rows:
        obs, reason = _observation(row, default_hardware)
        if obs is None:
            skipped[reason] += 1
        else:
            out.append(obs)
    return out, dict(skipped)


def _observation(row: Mapping[str, Any], default_hardware: str | None) -> tuple[Observation | None, str]:
    config = _json(row.get("config"))
    job_spec = _json(row.get("job_spec"))
    name = _text(row.get("model")) or _text(job_spec.get("model"))
    # Dims may sit in the run's config, in the job spec it embeds (assay's own runs: config.spec.model),
    # or in the job's spec; a preset name is the last resort.
    sources = (config, config.get("spec"), job_spec, job_spec.get("config"))
    model = next((m for m in (model_from_config(src, name) for src in sources) if m is not None), None)
    model = model or find_model(name)
    if model is None:
        return None, "unknown model (no preset name and no layers/hidden/heads/seq_len/vocab in config)"
    hardware = (_text(row.get("hardware")) or _text(config.get("hardware")) or _text(config.get("device"))
                or _text(job_spec.get("hardware")))
    if not hardware and str(config.get("backend", "")).lower() == "gloo":
        hardware = "cpu"
    cluster = find_cluster(hardware or default_hardware)
    if cluster is None:
        return None, "unknown hardware"
    tp, pp = _int(row.get("tp")) or 1, _int(row.get("pp")) or 1
    world = _int(row.get("world_size"))
    dp = _int(row.get("dp")) or (world // (tp * pp) if world and world % (tp * pp) == 0 else None)
    gbs = _int(row.get("global_batch_size")) or _int(config.get("global_batch_size"))
    if not dp or not gbs:
        return None, "incomplete layout (dp or global batch unknown)"
    mbs = _int(row.get("micro_batch_size")) or _int(config.get("micro_batch_size")) or max(1, gbs // dp)
    layout = Layout(dp, tp, pp, mbs, gbs, recompute=_recomputes(config),
                    zero1=bool(config.get("zero1") or config.get("use_distributed_optimizer")))
    if layout.problems(model):
        return None, "invalid layout"
    step = _float(row.get("step_time_ms"))
    step_s = step / 1000 if step else None
    if step_s is None and _float(row.get("samples_per_s")):
        step_s = gbs / _float(row.get("samples_per_s"))
    if step_s is None and _float(row.get("tokens_per_s")):
        step_s = gbs * model.seq_len / _float(row.get("tokens_per_s"))
    if not step_s:
        return None, "no step_time_ms"
    cluster = cluster.for_workers(layout.world_size)
    return Observation(str(row.get("run_id")), model, layout, cluster, step_s), ""


def _recomputes(config: Mapping[str, Any]) -> bool:
    """Whether a run recomputed activations, by assay's key or Megatron-LM's argument names."""
    for key in ("recompute", "activation_recomputation", "checkpoint_activations", "recompute_activations"):
        if key in config and config[key] is not None:
            return str(config[key]).lower() not in ("false", "0", "none", "")
    return config.get("recompute_granularity") not in (None, "", "none")


def _json(value: Any) -> dict[str, Any]:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, str) and value.strip():
        try:
            parsed = json.loads(value)
        except ValueError:
            return {}
        return parsed if isinstance(parsed, dict) else {}
    return {}


def _text(value: Any) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    text = str(value).strip()
    return text or None


def _float(value: Any) -> float | None:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) and x > 0 else None


def _int(value: Any) -> int | None:
    x = _float(value)
    return int(x) if x is not None and x == int(x) else None
