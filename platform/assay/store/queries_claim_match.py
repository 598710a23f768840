"""Claimed vs measured: a claim beside the runs that can check it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from assay.store._read import PathLike, _aliases, normalise, read, text_of
from assay.store.queries_runs import RUN_COLUMNS, run_summaries

#: Claim metric words -> (metrics.name candidates, higher is better).
_MEASURES: list[tuple[tuple[str, ...], tuple[str, ...], bool]] = [
    (("mfu", "utilization", "utilisation"), ("mfu",), True),
    (("tflops", "flops"), ("tflops",), True),
    (("step time", "iteration time", "latency"), ("step_time_ms",), False),
    (("memory",), ("memory_mb",), False),
    (("throughput", "speed", "tokens", "samples", "faster", "吞吐"), ("tokens_per_s", "samples_per_s"), True),
]
_LAYOUT = re.compile(r"\b(tp|pp|dp)\s*[=:]?\s*(\d+)", re.IGNORECASE)
_GPUS = re.compile(
    r"(\d+)\s*(?:张\s*)?(?:x\s*)?(?:(?:nvidia\s+)?[a-z]\d{2,4}\w*\s*)?(?:gpus?\b|accelerators\b|张)",
    re.IGNORECASE,
)


@dataclass
class Comparison:
    """A claim beside the runs that can check it."""

    claim: dict[str, Any]
    metric: str | None = None  # metrics.name compared
    higher_is_better: bool = True
    claimed: float | None = None  # a ratio (relative claim) or a value in the claim's unit (absolute claim)
    measured: float | None = None
    relative: bool = True
    groups: pd.DataFrame = field(default_factory=pd.DataFrame)  # per matching setting: subject vs baseline
    runs: pd.DataFrame = field(default_factory=pd.DataFrame)  # the matching runs, with role
    note: str = ""




def measurable(metric: str | None) -> bool:
    """Whether runs log something that measures a claim's ``metric`` (throughput, MFU, step time ...)."""
    return _measure_for(metric) is not None


def _higher_from_wording(claim: dict[str, Any]) -> bool:
    text = " ".join(text_of(claim.get(k)) for k in ("qualifier", "metric")).casefold()
    return not any(w in text for w in ("lower", "less", "fewer", "reduc", "cut", "time", "latency", "memory"))


def _measure_for(metric: str | None) -> tuple[tuple[str, ...], bool] | None:
    text = text_of(metric).casefold()
    for words, names, higher in _MEASURES:
        if any(w in text for w in words):
            return names, higher
    return None


def parse_setting(text: str) -> dict[str, int]:
    """Layout figures a claim states (``TP=2``, ``PP 4``, ``16 A100 GPUs``, ``64 张 A100``)."""
    text = text_of(text)
    out = {k.lower(): int(v) for k, v in _LAYOUT.findall(text)}
    gpus = _GPUS.search(text)
    if gpus:
        out["world_size"] = int(gpus.group(1))
    return out


def _names_in(text: str, entities: pd.DataFrame, type_: str) -> set[str]:
    """Normalised spellings of the entities of ``type_`` that ``text`` names."""
    lowered = text_of(text).casefold()
    found: set[str] = set()
    for name, aliases in entities.loc[entities["type"] == type_, ["name", "aliases"]].itertuples(index=False):
        spellings = [name, *_aliases(aliases)]
        if any(s and s.casefold() in lowered for s in spellings):
            found |= {normalise(s) for s in spellings} - {""}
    return found


def _spellings_of(name: str | None, entities: pd.DataFrame) -> set[str]:
    key = normalise(name)
    if not key:
        return set()
    out = {key}
    for n, aliases in entities[["name", "aliases"]].itertuples(index=False):
        spellings = {normalise(s) for s in [n, *_aliases(aliases)]} - {""}
        if key in spellings:
            out |= spellings
    return out


def claim_vs_measured(db: PathLike, claim_id: str) -> Comparison | None:
    """Put a claim beside the measured runs that match it.

    Runs match when their framework is the claim's system (or, for the baseline, its ``versus``), and their
    model, hardware, TP/PP/DP and world size agree with what the claim's setting and sentence state. For a
    claim with a baseline, runs are paired by setting (model, world size, layout, hardware) and the measured
    ratio is the median over settings of subject median / baseline median (inverted when lower is better,
    such as step time). A claim without a baseline compares its value with the subject runs' median.
    """
    df = read(db, "SELECT * FROM claims WHERE claim_id = ?", [claim_id])
    if df.empty:
        return None
    claim = {k: (None if _isna(v) else v) for k, v in df.iloc[0].to_dict().items()}
    cmp = Comparison(claim=claim, relative=bool(claim.get("versus")))
    measure = _measure_for(claim.get("metric"))
    cmp.higher_is_better = measure[1] if measure else _higher_from_wording(claim)
    cmp.claimed = _claimed_value(claim, cmp.relative, cmp.higher_is_better)
    if measure is None:
        cmp.note = f"no logged metric measures '{claim.get('metric')}'"
        return cmp
    names = measure[0]
    entities = read(db, "SELECT name, type, aliases FROM entities")
    context = " ".join(text_of(claim.get(k)) for k in ("setting", "text"))
    context += " " + _sentence(db, claim)
    models = _names_in(context, entities, "model")
    hardware = _names_in(context, entities, "hardware")
    layout = parse_setting(context)
    subject = _spellings_of(claim.get("subject"), entities)
    baseline = _spellings_of(claim.get("versus"), entities) if cmp.relative else set()
    runs_df = read(db, f"SELECT {RUN_COLUMNS} FROM runs")
    if runs_df.empty:
        cmp.note = "no runs in the database yet"
        return cmp
    keep = pd.Series(True, index=runs_df.index)
    if models:
        keep &= runs_df["model"].map(normalise).isin(models)
    if hardware:
        keep &= runs_df["hardware"].map(normalise).isin(hardware) | runs_df["hardware"].isna()
    for key, value in layout.items():
        keep &= runs_df[key] == value
    fw = runs_df["framework"].map(normalise)
    runs_df["role"] = None
    runs_df.loc[keep & fw.isin(subject), "role"] = "claimed system"
    runs_df.loc[keep & fw.isin(baseline), "role"] = "baseline"
    matched = runs_df[runs_df["role"].notna()].copy()
    if matched.empty:
        cmp.note = "no runs match this claim's system, model and layout"
        return cmp
    summary = run_summaries(db, matched["run_id"].tolist())
    metric = next((n for n in names if n in summary.columns and summary[n].notna().any()), None)
    if metric is None:
        cmp.note = f"the matching runs log none of {', '.join(names)}"
        cmp.runs = matched
        return cmp
    cmp.metric = metric
    matched = matched.merge(summary[["run_id", metric]], on="run_id", how="left")
    cmp.runs = matched
    if not cmp.relative:
        value = matched.loc[matched["role"] == "claimed system", metric].median()
        if claim.get("unit") == "%" and metric == "mfu" and value <= 1.5:
            value *= 100  # MFU logged as a fraction, claimed in percent
        cmp.measured = None if pd.isna(value) else float(value)
        return cmp
    key = ["model", "world_size", "layout", "hardware"]
    per = matched.assign(hardware=matched["hardware"].fillna("")).groupby(key + ["role"])[metric].median()
    groups = per.unstack("role")
    if "claimed system" not in groups.columns or "baseline" not in groups.columns:
        cmp.note = "no setting has runs of both the system and its baseline"
        return cmp
    groups = groups.dropna(subset=["claimed system", "baseline"])
    if groups.empty:
        cmp.note = "no setting has runs of both the system and its baseline"
        return cmp
    ratio = groups["claimed system"] / groups["baseline"]
    groups["ratio"] = ratio if cmp.higher_is_better else 1 / ratio
    cmp.groups = groups.reset_index()
    cmp.measured = float(groups["ratio"].median())
    return cmp


def _sentence(db: PathLike, claim: dict[str, Any]) -> str:
    s, e = claim.get("sentence_start"), claim.get("sentence_end")
    if s is None or e is None or e <= s:
        return ""
    df = read(
        db,
        "SELECT substr(text, ? + 1, ?) AS s FROM documents WHERE doc_id = ?",
        [int(s), int(e - s), claim.get("doc_id")],
    )
    return "" if df.empty or df["s"].iloc[0] is None else str(df["s"].iloc[0])


def _claimed_value(claim: dict[str, Any], relative: bool, higher: bool) -> float | None:
    low, high, value = claim.get("value_low"), claim.get("value_high"), claim.get("value")
    if value is None and low is not None and high is not None:
        value = (low + high) / 2
    value = value if value is not None else (low if low is not None else high)
    if value is None:
        return None
    if relative and claim.get("unit") == "%":
        # "37% lower step time" and "37% higher throughput" as ratios of the better to the worse
        return 1 + value / 100 if higher else 1 / (1 - value / 100) if value < 100 else None
    return float(value)


def _isna(v: Any) -> bool:
    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):
        return False
