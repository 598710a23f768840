"""Evidence from measured runs: the runs in the graph (ingested logs and assay's own jobs) that match a
claim's two sides on system (or layout), model, hardware and device count, and the ratio they measure, with
its bootstrap interval over each run's steady steps and over the runs of each side (see ``_interval``).

Like is compared with like: a claim's scope (per device, per node, the whole job) and each logged metric's
scope (``METRIC_SCOPE``) are explicit; a per-device claim is set against a job-wide figure divided by the
run's device count, or refused with the reason when a run does not say how many devices it ran on.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from assay.checks._check import Check, untestable
from assay.checks._interval import Interval, judge, ratio_interval, steady, value_interval
from assay.checks._setting import ClaimSetting, layout_sides
from assay.scheduler.cluster import find_cluster
from assay.scheduler.model_spec import PRESETS, find_model
from assay.store.queries_checks import name_key

#: A measured figure whose interval, widened by this, holds the claimed one agrees (see ``_interval.judge``).
TOLERANCE = 0.15
#: The logged metric that measures each quantity; throughput prefers tokens, then samples, per second.
_METRICS: dict[str, tuple[str, ...]] = {
    "throughput": ("tokens_per_s", "samples_per_s"),
    "step_time": ("step_time_ms",),
    "latency": ("step_time_ms",),
    "mfu": ("mfu",),
    "tflops": ("tflops",),
    "memory": ("memory_mb",),
}
#: What one logged value covers: the whole job (every device together) or one device.
METRIC_SCOPE: dict[str, str] = {
    "tokens_per_s": "job",  # Megatron's and most trainers' throughput line counts every device
    "samples_per_s": "job",
    "step_time_ms": "job",
    "tflops": "device",  # TFLOP/s is logged per device ("TFLOPs per GPU")
    "mfu": "device",
    "memory_mb": "device",
}
# Runs are paired within a setting: one model (however spelt), devices, layout and kind of hardware.
_SETTING_KEY = ["model_key", "world_size", "layout", "cluster", "global_batch_size"]
_JOB_MODEL = re.compile(r"gpt-(?P<layers>\d+)l-(?P<hidden>\d+)h")


@dataclass
class RunsIndex:
    """Every run's setting and speed, read once for many claims (plain records: a claim's matching is a scan
    over a few thousand runs, cheaper in Python than a round of pandas operations per claim)."""

    runs: pd.DataFrame
    spellings: Mapping[str, frozenset[str]]
    #: metric name -> run_id -> its values in step order (``queries_checks.metric_series``); None: each run is
    #: its median alone (the interval is then over runs only).
    series: Callable[[str], Mapping[str, list[float]]] | None = None
    measured: dict[tuple, Check] = field(default_factory=dict)  # per distinct setting, see check_with_runs
    records: list[dict] = field(default_factory=list, init=False)
    _series: dict[str, Mapping[str, list[float]]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        for row in _records(self.runs):
            row["fw_key"] = name_key(row.get("framework"))
            row["model_key"] = _model_key(row.get("model"))
            row["cluster"] = _cluster_name(row.get("hardware"))
            self.records.append(row)

    def values(self, run: dict, metric: str) -> list[float]:
        """One run's steady values of ``metric`` (warm-up and outliers out), or its median alone."""
        if self.series is not None:
            if metric not in self._series:
                self._series[metric] = self.series(metric)
            found = self._series[metric].get(str(run.get("run_id")))
            if found:
                return steady(found)
        median = _number(run.get(metric))
        return [median] if median is not None else []

    def spellings_of(self, name: str | None) -> frozenset[str]:
        key = name_key(name)
        return self.spellings.get(key, frozenset({key})) if key else frozenset()


def check_with_runs(setting: ClaimSetting, index: RunsIndex) -> Check:
    """The runs' verdict on one claim. What the runs measure depends only on the claim's sides and setting,
    so it is computed once per distinct setting and shared by the claims that state it."""
    key = _match_key(setting)
    if key not in index.measured:
        index.measured[key] = _measure(setting, index)
    template = index.measured[key]
    if template.verdict == "untestable":
        return replace(template, claim_id=setting.claim_id)
    if setting.relative or layout_sides(setting) is not None:
        return _judge_ratio(setting, template)
    return _judge_value(setting, template)


def _match_key(s: ClaimSetting) -> tuple:
    return (s.subject, s.versus if s.relative else None, s.measure, s.higher_is_better, s.model, s.params_b,
            s.seq_len, s.hardware, s.gpus, s.dp, s.tp, s.pp, s.unit if s.measure == "mfu" else None,
            claim_scope(s))


def _measure(setting: ClaimSetting, index: RunsIndex) -> Check:
    """What the runs that match ``setting`` measure, as a check whose verdict is still to be decided
    (``consistent`` as a placeholder), or the reason nothing can be measured (``untestable``)."""
    cid = setting.claim_id
    names = _METRICS.get(setting.measure or "")
    if setting.measure == "scaling_efficiency":
        return untestable(cid, "runs", "a scaling efficiency is relative to a smaller size, which the claim's "
                                       "setting does not carry")
    if names is None:
        return untestable(cid, "runs", f"runs log speed, FLOP rate, MFU and memory; the claim is about "
                                       f"{setting.metric or 'an unnamed quantity'}")
    if not index.records:
        return untestable(cid, "runs", "no runs in the database yet (ingest logs or run jobs)")
    runs = _same_setting(setting, index.records)
    sides = layout_sides(setting)
    if sides is not None:
        matched = _by_layout(runs, *sides)
        what = "layouts"
    else:
        matched = _by_system(setting, runs, index)
        what = "system" + (" and baseline" if setting.relative else "")
    asked = _asked(setting)
    if not matched:
        return untestable(cid, "runs", f"no runs match the claim's {what}{asked}", matched_on=asked.strip(", "))
    metric = next((n for n in names if any(_number(r.get(n)) is not None for r in matched)), None)
    run_rows = _run_rows(matched, names)
    if metric is None:
        return untestable(cid, "runs", f"the {len(matched)} matching run(s) log none of {', '.join(names)}",
                          runs=run_rows)
    if setting.relative or sides is not None:
        return _ratio_check(setting, matched, metric, run_rows, index, same_layout=sides is None)
    return _value_check(setting, matched, metric, run_rows, index)


def _ratio_check(setting: ClaimSetting, matched: list[dict], metric: str, run_rows: list[dict],
                 index: RunsIndex, *, same_layout: bool) -> Check:
    cid = setting.claim_id
    per: dict[tuple, dict[str, list[list[float]]]] = {}
    for run in matched:
        values = index.values(run, metric)
        if not values:
            continue
        # A layout claim's sides differ in layout by definition: they are paired on the rest of the setting.
        key = tuple(("" if k == "layout" and not same_layout else run.get(k)) or "" for k in _SETTING_KEY)
        per.setdefault(key, {}).setdefault(run["role"], []).append(values)
    both = {k: v for k, v in per.items() if "subject" in v and "baseline" in v}
    if not both:
        roles = {r for v in per.values() for r in v}
        if roles == {"subject"} or roles == {"baseline"}:
            missing = "baseline" if roles == {"subject"} else "claimed side"
            return untestable(cid, "runs", f"runs match only one side: none of the {missing}", runs=run_rows)
        return untestable(cid, "runs", "no setting has runs of both sides", runs=run_rows)
    # A time is better when smaller: the claim's ratio is then the baseline's time over the subject's.
    invert = not setting.higher_is_better
    groups, intervals = [], []
    for key, sides in both.items():
        interval = ratio_interval(sides["subject"], sides["baseline"], invert=invert)
        if interval is None:
            continue
        intervals.append(interval)
        groups.append({**dict(zip(_SETTING_KEY, key, strict=True)),
                       "subject": statistics.median(v for r in sides["subject"] for v in r),
                       "baseline": statistics.median(v for r in sides["baseline"] for v in r),
                       "ratio": interval.point, "low": interval.low, "high": interval.high,
                       "runs": [len(sides["subject"]), len(sides["baseline"])]})
    if not intervals:
        return untestable(cid, "runs", "no setting has usable measurements of both sides", runs=run_rows)
    interval = _across_settings(intervals)
    evidence = {"metric": metric, "runs": run_rows, "groups": groups, "interval": _interval_dict(interval)}
    described = (f"{len(groups)} setting(s) with both sides measured ({interval.runs} run(s) per side at the "
                 f"fewest, {interval.values} steady values): {metric} ratio")
    if len(groups) > 1:
        described += f" (settings {min(g['ratio'] for g in groups):.2f}-{max(g['ratio'] for g in groups):.2f}x)"
    return Check(cid, "runs", "consistent", described, None, interval.point, interval.low, interval.high, "x",
                 evidence)


def _across_settings(intervals: list[Interval]) -> Interval:
    """Several settings' intervals as one on their median: the middle setting's figure, its interval from
    the settings' bounds' medians (each setting keeps its own noise; the spread between settings is shown
    beside it, not folded in)."""
    if len(intervals) == 1:
        return intervals[0]
    return Interval(float(np.median([i.point for i in intervals])), float(np.median([i.low for i in intervals])),
                    float(np.median([i.high for i in intervals])), min(i.runs for i in intervals),
                    sum(i.values for i in intervals))


def _interval_dict(i: Interval) -> dict:
    return {"point": i.point, "low": i.low, "high": i.high, "runs": i.runs, "values": i.values,
            "level": i.level, "run_sd": i.run_sd}


def _interval_of(check: Check) -> Interval | None:
    d = check.evidence.get("interval")
    return Interval(**d) if isinstance(d, dict) else None


def _judge_ratio(setting: ClaimSetting, measured: Check) -> Check:
    return _judged(setting, measured, setting.claimed_ratio(), "ratio", "{:.2f}x")


def claim_scope(setting: ClaimSetting) -> str:
    """What a claimed figure covers: ``device`` ("tokens/s per GPU"), ``node`` ("per node") or ``job``.
    The papers operators put the scope into the claim's metric ("throughput per GPU"); a FLOP rate, MFU or
    memory figure is per device unless stated in an aggregate unit (PFLOP/s, handled by the setting)."""
    said = " ".join(x for x in (setting.metric, setting.unit, setting.qualifier) if x)
    if _PER_DEVICE.search(said):
        return "device"
    if _PER_NODE.search(said):
        return "node"
    return "device" if setting.measure in ("tflops", "mfu", "memory") else "job"


_PER_DEVICE = re.compile(r"\bper[- ](?:GPU|TPU|NPU|device|accelerator|chip|card|worker|rank)\b|/(?:GPU|device)\b|"
                         r"每(?:卡|块|张|个GPU)", re.I)
_PER_NODE = re.compile(r"\bper[- ](?:node|server|host|machine)\b|每(?:台|节点)", re.I)


def _value_check(setting: ClaimSetting, matched: list[dict], metric: str, run_rows: list[dict],
                 index: RunsIndex) -> Check:
    cid = setting.claim_id
    subject = [r for r in matched if r["role"] == "subject"]
    runs = [(r, v) for r in subject if (v := index.values(r, metric))]
    if not runs:
        return untestable(cid, "runs", f"no run of the claimed system logs {metric}", runs=run_rows)
    wanted, logged = claim_scope(setting), METRIC_SCOPE.get(metric, "job")
    scope_note = ""
    if wanted != logged:
        if wanted == "node" or logged == "device":
            return untestable(cid, "runs", f"the claim is a figure per {wanted}, the runs log {metric} per "
                                           f"{logged}, and they do not say how many {wanted}s a "
                                           f"{logged} holds", runs=run_rows, scope={"claim": wanted,
                                                                                     "runs": logged})
        sized = [(r, v) for r, v in runs if isinstance(r.get("world_size"), int) and r["world_size"] > 0]
        if not sized:
            return untestable(cid, "runs", f"the claim is per device, the runs log {metric} for the whole job, "
                                           f"and none of the {len(runs)} matching run(s) says how many devices "
                                           "it ran on", runs=run_rows, scope={"claim": wanted, "runs": logged})
        runs = [(r, [x / r["world_size"] for x in v]) for r, v in sized]
        devices = sorted({r["world_size"] for r, _ in runs})
        scope_note = f" per device (the job's {metric} divided by its {'/'.join(map(str, devices))} devices)"
    values = [v for _, v in runs]
    if metric == "mfu" and setting.unit == "%" and statistics.median(x for v in values for x in v) <= 1.5:
        values = [[x * 100 for x in v] for v in values]  # logged as a fraction, claimed in percent
    interval = value_interval(values)
    assert interval is not None  # every run has values
    return Check(cid, "runs", "consistent", f"{len(values)} run(s) of the system measure {metric}{scope_note}",
                 None, interval.point, interval.low, interval.high, setting.unit,
                 {"metric": metric, "runs": run_rows, "interval": _interval_dict(interval),
                  "scope": {"claim": wanted, "runs": logged}})


def _judge_value(setting: ClaimSetting, measured: Check) -> Check:
    claimed = setting.per_device_tflops() if setting.measure == "tflops" else setting.value
    return _judged(setting, measured, claimed, "value", "{:.3g}")


def _judged(setting: ClaimSetting, measured: Check, claimed: float | None, what: str, form: str) -> Check:
    if claimed is None:
        return replace(measured, claim_id=setting.claim_id, verdict="untestable",
                       reason=f"{measured.reason}; the claim states no {what}")
    interval = _interval_of(measured)
    if interval is None:  # a template from before intervals: its spread is the interval
        interval = Interval(measured.observed, measured.low, measured.high, 1, 1)
    verdict, why = judge(claimed, interval, TOLERANCE, form=form)
    return replace(measured, claim_id=setting.claim_id, verdict=verdict, claimed=claimed,
                   reason=f"{measured.reason}: {why}", evidence={**measured.evidence, "why": why})


def _same_setting(setting: ClaimSetting, runs: list[dict]) -> list[dict]:
    """Runs of the claim's model, hardware and device count, where the claim names them."""
    keep = runs
    if setting.model or setting.params_b:
        spec, _ = setting.model_spec()
        keys = ({name_key(setting.model)} | ({name_key(spec.name)} if spec is not None else set())) - {""}
        keep = [r for r in keep if r["model_key"] in keys]
    cluster = setting.cluster()
    if cluster is not None:
        keep = [r for r in keep if r["cluster"] is None or r["cluster"] == cluster.name]
    if setting.gpus:
        keep = [r for r in keep if r.get("world_size") == setting.gpus]
    if layout_sides(setting) is None:
        for key in ("dp", "tp", "pp"):
            if getattr(setting, key):
                keep = [r for r in keep if r.get(key) == getattr(setting, key)]
    return keep


def _by_system(setting: ClaimSetting, runs: list[dict], index: RunsIndex) -> list[dict]:
    subject = index.spellings_of(setting.subject)
    baseline = (index.spellings_of(setting.versus) if setting.relative else frozenset()) - subject
    return [{**r, "role": "subject" if r["fw_key"] in subject else "baseline"} for r in runs
            if r["fw_key"] in subject or r["fw_key"] in baseline]


def _by_layout(runs: list[dict], subject: dict[str, int], baseline: dict[str, int]) -> list[dict]:
    out = []
    for r in runs:
        layout = {k: r.get(k) or 1 for k in ("dp", "tp", "pp")}
        role = "subject" if layout == subject else "baseline" if layout == baseline else None
        if role:
            out.append({**r, "role": role})
    return out


def _asked(setting: ClaimSetting) -> str:
    parts = [f"model {setting.model or f'{setting.params_b:g}B'}" if setting.model or setting.params_b else "",
             f"hardware {setting.hardware}" if setting.hardware else "",
             f"{setting.gpus} devices" if setting.gpus else ""]
    parts = [p for p in parts if p]
    return (" on " + ", ".join(parts)) if parts else ""


_RUN_FIELDS = ("run_id", "role", "framework", "model", "hardware", "world_size", "dp", "tp", "pp", "job_id")


def _run_rows(matched: list[dict], metrics: tuple[str, ...]) -> list[dict]:
    return [{k: r.get(k) for k in (*_RUN_FIELDS, *metrics)} for r in matched[:50]]


def _records(frame: pd.DataFrame) -> list[dict]:
    """Rows as JSON-ready dicts, NaN and NA as None, numpy scalars as Python numbers."""
    return [{k: _plain(v) for k, v in row.items()} for row in frame.to_dict("records")]


def _plain(v: object) -> object:
    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return None
    return v.item() if hasattr(v, "item") else v


def _number(v: object) -> float | None:
    return float(v) if isinstance(v, int | float) and v == v else None


def _model_key(model: object) -> str:
    """A run's model as a claim names it: a preset's spellings, and assay's own jobs' ``gpt-4l-64h`` as the
    preset of that depth and width (gpt-tiny)."""
    spec = find_model(model) if isinstance(model, str) else None
    if spec is None and isinstance(model, str) and (dims := _JOB_MODEL.fullmatch(model.strip().lower())):
        layers, hidden = int(dims["layers"]), int(dims["hidden"])
        spec = next((m for m in PRESETS.values() if (m.layers, m.hidden) == (layers, hidden)), None)
    return name_key(spec.name if spec is not None else model)


def _cluster_name(hardware: object) -> str | None:
    cluster = find_cluster(hardware) if isinstance(hardware, str) else None
    return cluster.name if cluster is not None else None
