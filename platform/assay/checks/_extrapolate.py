"""From the sweep's small runs to the claim's scale: the cost model fitted on the runs (on top of the graph's
latest fit), then asked for both layouts at the claim's model, workers and hardware."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from assay.checks._setting import ClaimSetting
from assay.checks._sweep import Sweep, short
from assay.scheduler.cluster import Cluster
from assay.scheduler.cost_model import (
    CostModel,
    FitReport,
    Observation,
    StepEstimate,
    fit,
    latest_model,
    observations_from_rows,
)
from assay.scheduler.layout import Layout
from assay.scheduler.model_spec import ModelSpec


def sweep_observations(db: Any, jobs: Sequence[Mapping[str, Any]], speeds: Mapping[str, Any]
                       ) -> tuple[list[Observation], dict[str, int]]:
    """The sweep's runs as the cost model's observations, each at the steady step time the verdict used
    (rather than the graph's median, which counts the slow first step after a restart)."""
    from assay.store.queries_costmodel import runs_for_fit

    steady = {speeds[j["job_id"]].run_id: speeds[j["job_id"]].median_ms for j in jobs}
    rows = [dict(r, step_time_ms=steady[r["run_id"]]) for r in runs_for_fit(db).to_dict("records")
            if r["run_id"] in steady]
    return observations_from_rows(rows)


def extrapolate(db: Any, setting: ClaimSetting, sweep: Sweep, jobs: Sequence[Mapping[str, Any]],
                speeds: Mapping[str, Any]) -> dict[str, Any]:
    """The ratio the cost model predicts at the claim's scale, with the fit it used and a ``summary``
    sentence; ``ratio`` is None (and the summary says why) when the claim's model is unknown."""
    observations, skipped = sweep_observations(db, jobs, speeds)
    base = latest_model(db)
    model, report = fit(observations, base=base, skipped=skipped)
    out: dict[str, Any] = {"fit": fit_evidence(report)}
    target, how = setting.model_spec()
    if target is None:
        out.update(ratio=None, summary=f"No extrapolation to the claim's scale: {how}.")
        return out
    swept = observations[0].cluster if observations else None
    cluster = setting.cluster() or swept
    if cluster is None:
        out.update(ratio=None, summary="No extrapolation: the claim names no known hardware.")
        return out
    subject, baseline = sweep.claimed
    cluster = cluster.for_workers(subject.world_size)
    batch = claim_batch(setting, target, (subject, baseline))
    est = {side: best_estimate(model, target, lay, batch, cluster) for side, lay in
           (("subject", subject), ("baseline", baseline))}
    if None in est.values():
        out.update(ratio=None, summary=f"No extrapolation: {short(subject)} or {short(baseline)} cannot run "
                                       f"{target.name} (heads, layers or batch do not divide).")
        return out
    ratio = est["baseline"][0].step_time_s / est["subject"][0].step_time_s
    out.update(
        ratio=ratio, model=target.name, model_from=how, hardware=cluster.name, workers=subject.world_size,
        global_batch=batch, constants=constants_source(model, report, cluster, base),
        **{f"{side}_{k}": v for side, (e, lay) in est.items() for k, v in
           (("step_s", e.step_time_s), ("micro_batch", lay.micro_batch_size), ("recompute", lay.recompute),
            ("fits_memory", e.fits))},
    )
    hardware_note = "" if setting.cluster() else " (the claim names no hardware: this cluster's)"
    out["summary"] = (f"The cost model ({out['constants']}) puts the ratio at the claim's scale ({target.name}, "
                      f"{short(subject)} vs {short(baseline)}, {cluster.name}"
                      f"{hardware_note}) at {ratio:.2f}x.")
    return out


def fit_evidence(report: FitReport) -> dict[str, Any]:
    return {"fit_id": report.fit_id, "n_runs": report.n_runs, "fitted": any(g.fitted for g in report.groups),
            "mape": _num(report.mape), "holdout_mape": _num(report.holdout_mape), "skipped": report.skipped}


def constants_source(model: CostModel, report: FitReport, cluster: Cluster, base: CostModel) -> str:
    """Where the constants of the sweep's hardware and of the claim's come from, in words."""
    parts = []
    for g in report.groups:
        if g.fitted:
            parts.append(f"{g.hardware} constants fitted on the sweep's {g.n_runs} runs, MAPE {g.mape:.0f}%, "
                         f"{g.holdout_mape:.0f}% held out")
        else:
            parts.append(f"{g.hardware}: {g.n_runs} runs are too few to fit, defaults kept "
                         f"(their error on the runs {g.holdout_mape:.0f}%)")
    if cluster.name not in {g.hardware for g in report.groups}:
        fitted = cluster.name in base.fitted_hardware
        parts.append(f"{cluster.name} constants: " + (f"the graph's fit {base.fit_id}" if fitted
                                                       else "the analytic defaults"))
    return "; ".join(parts) or "analytic defaults"


def claim_batch(setting: ClaimSetting, model: ModelSpec, layouts: Sequence[Any]) -> int:
    """The claim's global batch, else the model's usual one, as a multiple of both sides' data parallelism."""
    batch = setting.global_batch or model.default_global_batch or 8 * max(lay.dp for lay in layouts)
    step = math.lcm(*(lay.dp for lay in layouts))
    return -(-batch // step) * step


def best_estimate(cost: CostModel, model: ModelSpec, lay: Any, batch: int, cluster: Cluster
                  ) -> tuple[StepEstimate, Layout] | None:
    """The fastest way to run one side as its authors would tune it: the micro-batch and recomputation with
    the shortest predicted step among those that fit in memory (the fastest of all when none fits); None
    when the layout cannot run the model at all."""
    per_replica = batch // lay.dp
    options = []
    for mb in (d for d in range(1, per_replica + 1) if per_replica % d == 0):
        for recompute in (False, True):
            layout = Layout(lay.dp, lay.tp, lay.pp, mb, batch, recompute=recompute)
            if not layout.problems(model):
                options.append((cost.estimate(model, layout, cluster), layout))
    fitting = [o for o in options if o[0].fits] or options
    return min(fitting, key=lambda o: o[0].step_time_s) if fitting else None


def _num(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else round(float(x), 3)
