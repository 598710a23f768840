"""Evidence from measured runs: the runs in the graph (ingested logs and assay's own jobs) that match a
claim's two sides on system (or layout), model, hardware and device count, and the ratio they measure."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import pandas as pd

from assay.checks._check import Check, untestable
from assay.checks._setting import ClaimSetting, layout_sides
from assay.scheduler.cluster import find_cluster
from assay.scheduler.model_spec import PRESETS, find_model
from assay.store.queries_checks import name_key

#: A measured ratio within this of the claimed one (or the claim inside the spread of settings) agrees.
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
# Runs are paired within a setting: one model (however spelt), devices, layout and kind of hardware.
_SETTING_KEY = ["model_key", "world_size", "layout", "cluster", "global_batch_size"]
_JOB_MODEL = re.compile(r"gpt-(?P<layers>\d+)l-(?P<hidden>\d+)h")


@dataclass
class RunsIndex:
    """Every run's setting and speed, read once for many claims."""

    runs: pd.DataFrame
    spellings: Mapping[str, frozenset[str]]
    measured: dict[tuple, Check] = field(default_factory=dict)  # per distinct setting, see check_with_runs

    def __post_init__(self) -> None:
        runs = self.runs.copy()
        runs["fw_key"] = runs["framework"].map(name_key) if len(runs) else []
        runs["model_key"] = [_model_key(m) for m in runs["model"]] if len(runs) else []
        runs["cluster"] = [_cluster_name(h) for h in runs["hardware"]] if len(runs) else []
        self.runs = runs

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
            s.seq_len, s.hardware, s.gpus, s.dp, s.tp, s.pp, s.unit if s.measure == "mfu" else None)


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
    if index.runs.empty:
        return untestable(cid, "runs", "no runs in the database yet (ingest logs or run jobs)")
    runs = _same_setting(setting, index.runs)
    sides = layout_sides(setting)
    if sides is not None:
        roles = _by_layout(runs, *sides)
        what = "layouts"
    else:
        roles = _by_system(setting, runs, index)
        what = "system" + (" and baseline" if setting.relative else "")
    matched = runs.assign(role=roles)[roles.notna()]
    asked = _asked(setting)
    if matched.empty:
        return untestable(cid, "runs", f"no runs match the claim's {what}{asked}", matched_on=asked.strip(", "))
    metric = next((n for n in names if matched[n].notna().any()), None)
    run_rows = _run_rows(matched, [n for n in names if n in matched.columns])
    if metric is None:
        return untestable(cid, "runs", f"the {len(matched)} matching run(s) log none of {', '.join(names)}",
                          runs=run_rows)
    if setting.relative or sides is not None:
        return _ratio_check(setting, matched, metric, run_rows)
    return _value_check(setting, matched, metric, run_rows)


def _ratio_check(setting: ClaimSetting, matched: pd.DataFrame, metric: str, run_rows: list[dict]) -> Check:
    cid = setting.claim_id
    per = matched.assign(cluster=matched["cluster"].fillna(""),
                         global_batch_size=matched["global_batch_size"].fillna(0))
    if layout_sides(setting) is not None:
        per = per.assign(layout="")  # the two sides differ in layout by definition
    groups = per.groupby(_SETTING_KEY + ["role"])[metric].median().unstack("role")
    if "subject" not in groups.columns or "baseline" not in groups.columns:
        missing = "baseline" if "subject" in groups.columns else "claimed side"
        return untestable(cid, "runs", f"runs match only one side: none of the {missing}", runs=run_rows)
    groups = groups.dropna(subset=["subject", "baseline"])
    if groups.empty:
        return untestable(cid, "runs", "no setting has runs of both sides", runs=run_rows)
    ratio = groups["subject"] / groups["baseline"]
    ratios = ratio if setting.higher_is_better else 1 / ratio
    measured = float(ratios.median())
    low, high = float(ratios.min()), float(ratios.max())
    evidence = {"metric": metric, "runs": run_rows,
                "groups": _records(groups.assign(ratio=ratios).reset_index())}
    described = (f"{len(ratios)} setting(s) with both sides measured: {metric} ratio {measured:.2f}x"
                 + (f" ({low:.2f}-{high:.2f})" if len(ratios) > 1 else ""))
    return Check(cid, "runs", "consistent", described, None, measured, low, high, "x", evidence)


def _judge_ratio(setting: ClaimSetting, measured: Check) -> Check:
    return _judged(setting, measured, setting.claimed_ratio(), "ratio", "{:.2f}x")


def _value_check(setting: ClaimSetting, matched: pd.DataFrame, metric: str, run_rows: list[dict]) -> Check:
    cid = setting.claim_id
    values = matched.loc[matched["role"] == "subject", metric].dropna()
    if values.empty:
        return untestable(cid, "runs", f"no run of the claimed system logs {metric}", runs=run_rows)
    if metric == "mfu" and setting.unit == "%" and values.median() <= 1.5:
        values = values * 100  # logged as a fraction, claimed in percent
    measured = float(values.median())
    low, high = float(values.min()), float(values.max())
    return Check(cid, "runs", "consistent", f"{len(values)} run(s) of the system measure {metric} {measured:.3g}",
                 None, measured, low, high, setting.unit, {"metric": metric, "runs": run_rows})


def _judge_value(setting: ClaimSetting, measured: Check) -> Check:
    claimed = setting.per_device_tflops() if setting.measure == "tflops" else setting.value
    return _judged(setting, measured, claimed, "value", "{:.3g}")


def _judged(setting: ClaimSetting, measured: Check, claimed: float | None, what: str, form: str) -> Check:
    if claimed is None:
        return replace(measured, claim_id=setting.claim_id, verdict="untestable",
                       reason=f"{measured.reason}; the claim states no {what}")
    verdict = "consistent" if _agrees(claimed, measured.observed, measured.low, measured.high) else "contradicted"
    return replace(measured, claim_id=setting.claim_id, verdict=verdict, claimed=claimed,
                   reason=f"{measured.reason}; claimed {form.format(claimed)}")


def _agrees(claimed: float, measured: float, low: float, high: float) -> bool:
    return low / (1 + TOLERANCE) <= claimed <= high * (1 + TOLERANCE) and (
        abs(claimed / measured - 1) <= TOLERANCE or low <= claimed <= high
    )


def _same_setting(setting: ClaimSetting, runs: pd.DataFrame) -> pd.DataFrame:
    """Runs of the claim's model, hardware and device count, where the claim names them."""
    keep = pd.Series(True, index=runs.index)
    if setting.model or setting.params_b:
        spec, _ = setting.model_spec()
        keys = {name_key(setting.model)} | ({name_key(spec.name)} if spec is not None else set())
        keep &= runs["model_key"].isin(keys - {""})
    cluster = setting.cluster()
    if cluster is not None:
        keep &= runs["cluster"].isna() | (runs["cluster"] == cluster.name)
    if setting.gpus:
        keep &= runs["world_size"] == setting.gpus
    if layout_sides(setting) is None:
        for key in ("dp", "tp", "pp"):
            if getattr(setting, key):
                keep &= runs[key] == getattr(setting, key)
    return runs[keep]


def _by_system(setting: ClaimSetting, runs: pd.DataFrame, index: RunsIndex) -> pd.Series:
    subject = index.spellings_of(setting.subject)
    baseline = index.spellings_of(setting.versus) if setting.relative else frozenset()
    role = pd.Series(None, index=runs.index, dtype=object)
    role[runs["fw_key"].isin(subject)] = "subject"
    role[runs["fw_key"].isin(baseline - subject)] = "baseline"
    return role


def _by_layout(runs: pd.DataFrame, subject: dict[str, int], baseline: dict[str, int]) -> pd.Series:
    role = pd.Series(None, index=runs.index, dtype=object)
    for name, layout in (("subject", subject), ("baseline", baseline)):
        same = pd.Series(True, index=runs.index)
        for key, value in layout.items():
            same &= runs[key].fillna(1) == value
        role[same] = name
    return role


def _asked(setting: ClaimSetting) -> str:
    parts = [f"model {setting.model or f'{setting.params_b:g}B'}" if setting.model or setting.params_b else "",
             f"hardware {setting.hardware}" if setting.hardware else "",
             f"{setting.gpus} devices" if setting.gpus else ""]
    parts = [p for p in parts if p]
    return (" on " + ", ".join(parts)) if parts else ""


def _run_rows(matched: pd.DataFrame, metrics: list[str]) -> list[dict]:
    cols = ["run_id", "role", "framework", "model", "hardware", "world_size", "dp", "tp", "pp", "job_id",
            *metrics]
    return _records(matched[[c for c in cols if c in matched.columns]].head(50))


def _records(frame: pd.DataFrame) -> list[dict]:
    """Rows as JSON-ready dicts, NaN as None."""
    return [{k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
            for row in frame.to_dict("records")]


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
