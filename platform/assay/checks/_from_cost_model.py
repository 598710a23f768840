"""Evidence from the cost model: the fitted model predicts the claim's setting (the layout the claim names,
or the planner's best) and says whether the claim is within its error, beyond what the hardware or any
layout can reach (implausible), or off the prediction (contradicted)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from assay.checks._check import Check, untestable
from assay.checks._setting import CHECKABLE, ClaimSetting, layout_sides
from assay.scheduler.cluster import Cluster
from assay.scheduler.cost_model import CostModel, StepEstimate
from assay.scheduler.layout import Layout
from assay.scheduler.model_spec import ModelSpec
from assay.scheduler.planner import NoFeasibleLayout, plan_layout

#: The band around a prediction that counts as agreement when no fit says better: the analytic defaults
#: predict Megatron-LM's published weak-scaling table within 15 % (tests/unit/test_cost_model_megatron.py).
DEFAULT_TOLERANCE = 0.15
#: A fit's tolerance is twice its hold-out error, within these bounds.
MIN_TOLERANCE, MAX_TOLERANCE = 0.15, 0.5
_MICRO_BATCHES = range(1, 9)


@dataclass
class Predictor:
    """The cost model with its per-hardware error, and a cache of predictions shared by many claims."""

    model: CostModel
    holdout_mape: Mapping[str, float] = field(default_factory=dict)  # hardware -> percent
    _cache: dict[tuple, Any] = field(default_factory=dict)

    @classmethod
    def from_fit_row(cls, row: Mapping[str, Any] | None) -> Predictor:
        if row is None:
            return cls(CostModel.default())
        model = CostModel.from_params_json(row["params"], fit_id=row["fit_id"])
        try:
            groups = json.loads(row["params"]).get("groups") or {}
        except (TypeError, ValueError):
            groups = {}
        mape = {hw: g["holdout_mape"] for hw, g in groups.items()
                if isinstance(g, Mapping) and g.get("fitted") and isinstance(g.get("holdout_mape"), int | float)}
        return cls(model, mape)

    def tolerance(self, cluster: Cluster) -> float:
        mape = self.holdout_mape.get(cluster.name)
        if mape is None or not math.isfinite(mape):
            return DEFAULT_TOLERANCE
        return min(MAX_TOLERANCE, max(MIN_TOLERANCE, 2 * mape / 100))

    def error(self, cluster: Cluster) -> float | None:
        """Twice the fit's hold-out error on this hardware (0.93 for 46 %), unbounded; None without a fit."""
        mape = self.holdout_mape.get(cluster.name)
        return 2 * mape / 100 if mape is not None and math.isfinite(mape) else None

    def source(self, cluster: Cluster) -> str:
        if cluster.name in self.model.fitted_hardware:
            return f"fit {self.model.fit_id} for {cluster.name}"
        return f"analytic defaults for {cluster.name}"

    def at_layout(self, spec: ModelSpec, cluster: Cluster, dp: int, tp: int, pp: int, global_batch: int,
                  micro_batch: int | None, recompute: bool) -> tuple[Layout, StepEstimate] | None:
        """The fastest micro-batch (or the given one) of a fixed (dp, tp, pp) that fits in memory."""
        key = ("at", spec, cluster.name, dp, tp, pp, global_batch, micro_batch, recompute)
        if key not in self._cache:
            best = None
            for b in [micro_batch] if micro_batch else _MICRO_BATCHES:
                gb = _round_up(global_batch, dp * b)
                layout = Layout(dp, tp, pp, b, gb, recompute=recompute)
                if layout.problems(spec):
                    continue
                est = self.model.estimate(spec, layout, cluster)
                if est.fits and (best is None or est.step_time_s < best[1].step_time_s):
                    best = (layout, est)
            self._cache[key] = best
        return self._cache[key]

    def best(self, spec: ModelSpec, cluster: Cluster, workers: int, global_batch: int,
             recompute: bool | None = None) -> tuple[Layout, StepEstimate] | None:
        """The planner's layout (None when nothing fits)."""
        key = ("plan", spec, cluster.name, workers, global_batch, recompute)
        if key not in self._cache:
            try:
                plan = plan_layout(spec, workers, cluster, global_batch, recompute=recompute,
                                   cost_model=self.model)
                self._cache[key] = (plan.layout, plan.estimate)
            except NoFeasibleLayout:
                self._cache[key] = None
        return self._cache[key]


def check_with_cost_model(setting: ClaimSetting, predictor: Predictor) -> Check:
    cid = setting.claim_id
    if setting.measure == "scaling_efficiency":
        return untestable(cid, "cost_model", "a scaling efficiency is relative to a smaller size, which the claim's "
                                             "setting does not carry")
    if not setting.checkable:
        return untestable(cid, "cost_model", f"the cost model predicts speed, FLOP rate, MFU and memory; the "
                                             f"claim is about {setting.metric or 'an unnamed quantity'}")
    cluster = setting.cluster()
    if cluster is None:
        return untestable(cid, "cost_model", f"the claim names no hardware the cost model knows "
                                             f"({setting.hardware or 'none named'})")
    spec, how = setting.model_spec()
    if spec is None:
        return untestable(cid, "cost_model", f"the cost model needs the model: {how}")
    workers = setting.workers
    if not workers:
        return untestable(cid, "cost_model", "the claim names no device count")
    ctx = _Context(setting, predictor, cluster, spec, how, workers)
    sides = layout_sides(setting)
    if sides is not None:
        return ctx.layouts(*sides)
    if setting.relative:
        return ctx.relative()
    return ctx.absolute()


@dataclass
class _Context:
    setting: ClaimSetting
    predictor: Predictor
    cluster: Cluster
    spec: ModelSpec
    how: str
    workers: int

    @property
    def tol(self) -> float:
        return self.predictor.tolerance(self.cluster)

    def judge(self, claimed: float, predicted: float) -> tuple[str, str]:
        """The verdict on ``claimed`` against the prediction's interval, the fit's hold-out error, as the runs'
        interval is judged: outside the band is contradicted, unless the fit's own error (beyond the widest
        band, ``MAX_TOLERANCE``) reaches the claim; then the model cannot tell, and says so (inconclusive)."""
        low, high = predicted * (1 - self.tol), predicted * (1 + self.tol)
        if low <= claimed <= high:
            return "consistent", ""
        error = self.predictor.error(self.cluster)
        if error is not None and error > self.tol and predicted / (1 + error) <= claimed <= predicted * (1 + error):
            return "inconclusive", (f"; the fit's hold-out error ({error / 2:.0%}, a band of ±{error:.0%}) is wider "
                                    f"than the ±{self.tol:.0%} a verdict allows: more measured runs on "
                                    f"{self.cluster.name} would narrow it")
        return "contradicted", ""

    @property
    def global_batch(self) -> int:
        return self.setting.global_batch or self.spec.default_global_batch

    def stated(self) -> tuple[Layout, StepEstimate] | None:
        """The layout the claim states (recomputation on, as the published FLOP counts assume)."""
        s = self.setting
        if not self.states_layout:
            return None
        tp, pp = s.tp or 1, s.pp or 1
        dp = s.dp or (self.workers // (tp * pp) if self.workers % (tp * pp) == 0 else 0)
        if dp < 1:
            return None
        return self.predictor.at_layout(self.spec, self.cluster, dp, tp, pp, self.global_batch, s.micro_batch,
                                        recompute=True)

    @property
    def states_layout(self) -> bool:
        return bool(self.setting.tp or self.setting.pp or self.setting.dp)

    @property
    def stated_text(self) -> str:
        return "·".join(f"{k}{getattr(self.setting, k)}" for k in ("dp", "tp", "pp") if getattr(self.setting, k))

    def reachable(self) -> list[tuple[Layout, StepEstimate]]:
        """The best layouts the model knows for this setting (the planner's, with and without recomputation)."""
        found = [self.predictor.best(self.spec, self.cluster, self.workers, self.global_batch, r)
                 for r in (None, True)]
        stated = self.stated()
        return [f for f in [*found, stated] if f is not None]

    def evidence(self, layout: Layout, est: StepEstimate, **extra: Any) -> dict[str, Any]:
        return {"model": self.spec.name, "model_from": self.how, "cluster": self.cluster.name,
                "workers": self.workers, "source": self.predictor.source(self.cluster), "tolerance": self.tol,
                "plan": {**layout.to_dict(), "layout": _describe(layout)},
                "predicted": {"step_time_s": est.step_time_s, "tokens_per_s": est.tokens_per_s,
                              "tflops_per_device": est.tflops_per_device,
                              "mfu": est.model_tflops_per_device * 1e12 / self.cluster.peak_flops,
                              "memory_gb": est.memory_bytes / 1e9}, **extra}

    # -- a FLOP rate, MFU, speed or memory figure ------------------------------------------------------------
    def absolute(self) -> Check:
        s, cid = self.setting, self.setting.claim_id
        where = self.stated()
        options = self.reachable()
        if where is None and not options:
            return untestable(cid, "cost_model", f"no layout of {self.spec.name} fits {self.workers} "
                                                 f"{self.cluster.name} devices in the memory model")
        layout, est = where or min(options, key=lambda o: o[1].step_time_s)
        whose = "the claim's layout" if where else "the planner's layout"
        if where is None and self.states_layout:
            whose += f"; the claim's {self.stated_text} does not run {self.spec.name} in the model"
        at = f"{_describe(layout)} ({whose}), {self.predictor.source(self.cluster)}"
        claimed, predicted, best, unit, ceiling = self._figures(layout, est, options)
        if claimed is None or predicted is None:
            return untestable(cid, "cost_model", f"the claim's unit ({s.unit}) is not one the cost model "
                                                 f"predicts for {s.measure}")
        evidence = self.evidence(layout, est, best_reachable=best)
        low, high = predicted * (1 - self.tol), predicted * (1 + self.tol)
        if ceiling is not None and claimed > ceiling:
            return Check(cid, "cost_model", "implausible",
                         f"needs {claimed:.3g} {unit}, above the {self.cluster.name} peak ({ceiling:.3g})",
                         claimed, predicted, low, high, unit, evidence)
        if s.higher_is_better and best is not None and claimed > best * (1 + self.tol):
            return Check(cid, "cost_model", "implausible",
                         f"{claimed:.3g} {unit} is beyond any layout the model knows (best {best:.3g}, "
                         f"tolerance {self.tol:.0%})", claimed, predicted, low, high, unit, evidence)
        verdict, note = self.judge(claimed, predicted)
        return Check(cid, "cost_model", verdict,
                     f"predicts {predicted:.3g} {unit} at {at}; claimed {claimed:.3g} "
                     f"({claimed / predicted - 1:+.0%}, tolerance {self.tol:.0%}){note}",
                     claimed, predicted, low, high, unit, evidence)

    def _figures(self, layout: Layout, est: StepEstimate, options: list) -> tuple:
        """(claimed, predicted, best reachable, unit, hard ceiling) in the claim's terms."""
        s, peak = self.setting, self.cluster.peak_flops / 1e12
        if s.measure == "tflops":
            best = max((e.tflops_per_device for _, e in options), default=None)
            return s.per_device_tflops(), est.tflops_per_device, best, "TFLOP/s per device", peak
        if s.measure == "mfu" and s.unit == "%" and s.value is not None:
            best = max((100 * e.model_tflops_per_device / peak for _, e in options), default=None)
            return s.value, 100 * est.model_tflops_per_device / peak, best, "% MFU", 100.0
        if s.measure == "memory" and s.value is not None and (s.unit or "").upper() in ("GB", "GIB"):
            return s.value, est.memory_bytes / 1e9, None, "GB per device", self.cluster.device_memory_gb
        if s.measure in ("throughput",) and s.value is not None and "token" in (s.unit or "").casefold():
            # "4,300 tokens/s per GPU" (the scope in the claim's metric) is compared per device.
            per = self.workers if re.search(r"\bper (?:GPU|TPU|NPU|device|accelerator|chip)\b", s.metric or "",
                                            re.I) else 1
            best = max((e.tokens_per_s / per for _, e in options), default=None)
            ceiling = peak * 1e12 * self.workers / per / self.spec.flops_per_token(recompute=False)
            return s.value, est.tokens_per_s / per, best, "tokens/s" + (" per device" if per != 1 else ""), ceiling
        return None, None, None, s.unit, None

    # -- X is N times faster than Y --------------------------------------------------------------------------
    def relative(self) -> Check:
        """A system against a baseline on this setting: the model cannot tell systems apart, but it bounds
        what a ratio can be. The baseline at the claim's layout (when stated) and the claimed ratio imply the
        system's per-device FLOP rate: above the peak is implausible. Without a stated layout, the widest
        ratio layouts alone explain (best over worst that fits) bounds the claim."""
        s, cid = self.setting, self.setting.claim_id
        ratio = s.claimed_ratio()
        if ratio is None or s.measure not in ("throughput", "step_time", "tflops", "mfu"):
            return untestable(cid, "cost_model", "the cost model bounds speed ratios; this claim is "
                                                 f"{s.metric or 'not a speed ratio'}")
        options = self.reachable()
        if not options:
            return untestable(cid, "cost_model", f"no layout of {self.spec.name} fits {self.workers} "
                                                 f"{self.cluster.name} devices in the memory model")
        best_layout, best = min(options, key=lambda o: o[1].step_time_s)
        peak_tflops = self.cluster.peak_flops / 1e12
        stated = self.stated()
        if stated is not None:
            layout, est = stated
            implied = ratio * est.model_tflops_per_device
            evidence = self.evidence(layout, est, implied_model_tflops=implied)
            if implied > peak_tflops:
                return Check(cid, "cost_model", "implausible",
                             f"{ratio:.2f}x over the baseline's predicted {est.model_tflops_per_device:.3g} "
                             f"TFLOP/s per device at {_describe(layout)} needs {implied:.3g}, above the "
                             f"{self.cluster.name} peak ({peak_tflops:.3g})", ratio, None, None, None, "x",
                             evidence)
            reach = best.step_time_s and est.step_time_s / best.step_time_s
            verdict = "consistent" if ratio <= reach * (1 + self.tol) else "implausible"
            return Check(cid, "cost_model", verdict,
                         f"from the baseline at {_describe(layout)}, the best layout the model knows "
                         f"({_describe(best_layout)}) is {reach:.2f}x faster; claimed {ratio:.2f}x "
                         f"(implies {100 * implied / peak_tflops:.0f}% MFU)", ratio, reach, None,
                         reach * (1 + self.tol), "x", evidence)
        worst = self._slowest_fitting()
        reach = worst.step_time_s / best.step_time_s if worst is not None else 1.0
        implied_mfu = 100 * ratio * (worst or best).model_tflops_per_device / peak_tflops
        evidence = self.evidence(best_layout, best, layout_spread=reach)
        if implied_mfu > 100:
            return Check(cid, "cost_model", "implausible",
                         f"{ratio:.2f}x over even the slowest layout that fits needs {implied_mfu:.0f}% of the "
                         f"{self.cluster.name} peak", ratio, reach, None, None, "x", evidence)
        verdict = "consistent" if ratio <= reach * (1 + self.tol) else "implausible"
        return Check(cid, "cost_model", verdict,
                     f"the claim states no layout; layouts alone span up to {reach:.2f}x on this setting in the "
                     f"model; claimed {ratio:.2f}x", ratio, reach, None, reach * (1 + self.tol), "x", evidence)

    def _slowest_fitting(self) -> StepEstimate | None:
        slowest = None
        for tp in (t for t in (1, 2, 4, 8) if self.workers % t == 0):
            for pp in (p for p in (1, 2, 4, 8, 16) if self.workers % (tp * p) == 0):
                found = self.predictor.at_layout(self.spec, self.cluster, self.workers // (tp * pp), tp, pp,
                                                 self.global_batch, None, recompute=True)
                if found and (slowest is None or found[1].step_time_s > slowest.step_time_s):
                    slowest = found[1]
        return slowest

    # -- layout A against layout B ---------------------------------------------------------------------------
    def layouts(self, subject: dict[str, int], baseline: dict[str, int]) -> Check:
        cid = self.setting.claim_id
        ratio = self.setting.claimed_ratio()
        sides = [self.predictor.at_layout(self.spec, self.cluster, d["dp"], d["tp"], d["pp"], self.global_batch,
                                          self.setting.micro_batch, recompute=True) for d in (subject, baseline)]
        if sides[0] is None or sides[1] is None:
            which = "claimed" if sides[0] is None else "baseline"
            return untestable(cid, "cost_model", f"the {which} layout of {self.spec.name} does not fit "
                                                 f"{self.cluster.name} memory in the model")
        (s_layout, s_est), (_, b_est) = sides
        predicted = b_est.step_time_s / s_est.step_time_s
        evidence = self.evidence(s_layout, s_est, baseline_plan=_describe(sides[1][0]),
                                 baseline_step_time_s=b_est.step_time_s)
        if ratio is None:
            return Check(cid, "cost_model", "untestable", f"predicts {predicted:.2f}x; the claim states no ratio",
                         None, predicted, None, None, "x", evidence)
        low, high = predicted * (1 - self.tol), predicted * (1 + self.tol)
        verdict, note = self.judge(ratio, predicted)
        return Check(cid, "cost_model", verdict,
                     f"predicts {_describe(s_layout)} {predicted:.2f}x the speed of {_describe(sides[1][0])}; "
                     f"claimed {ratio:.2f}x (tolerance {self.tol:.0%}, {self.predictor.source(self.cluster)}){note}",
                     ratio, predicted, low, high, "x", evidence)


def _describe(layout: Layout) -> str:
    return f"dp{layout.dp}·tp{layout.tp}·pp{layout.pp} micro-batch {layout.micro_batch_size}"


def _round_up(n: int, k: int) -> int:
    return max(k, -(-n // k) * k)


__all__ = ["CHECKABLE", "Predictor", "check_with_cost_model"]
