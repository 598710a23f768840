"""Pure pandas shaping for the views (no Streamlit, no database): smoothing, config diffs, highlighting,
scaling efficiency, cluster usage. Kept apart so they are tested on plain frames."""

from __future__ import annotations

import html
import json
from typing import Any

import numpy as np
import pandas as pd

from assay.dashboards._labels import run_label  # noqa: F401  (_verdicts.py names runs as _frames.run_label)
from assay.store import text_of
from assay.store.queries_runs import flatten_config

#: Fields of a run shown first in the config diff, before the keys of its logged config.
RUN_FIELDS = (
    "framework",
    "model",
    "hardware",
    "world_size",
    "dp",
    "tp",
    "pp",
    "micro_batch_size",
    "global_batch_size",
    "status",
)


def ema(values: pd.Series, weight: float) -> pd.Series:
    """Exponential moving average with TensorBoard's meaning of ``weight`` (0: raw, 0.99: very smooth),
    debiased at the start and skipping NaN."""
    if weight <= 0:
        return values
    return values.ewm(alpha=1.0 - min(weight, 0.999), adjust=True, ignore_na=True).mean()


def smooth_curves(curves: pd.DataFrame, weight: float) -> pd.DataFrame:
    """Apply ``ema`` to each run's mean and band (the curves are already bucketed by step)."""
    if curves.empty or weight <= 0:
        return curves
    out = curves.copy()
    for column in ("mean", "lo", "hi"):
        out[column] = out.groupby("run_id", sort=False)[column].transform(lambda s: ema(s, weight))
    return out


def event_positions(events: pd.DataFrame, curves: pd.DataFrame) -> pd.DataFrame:
    """Where each event sits on the chart: x and y interpolated from its run's curve at the event's step."""
    if events.empty or curves.empty:
        return events.assign(x=pd.Series(dtype=float), y=pd.Series(dtype=float))
    rows = []
    for run_id, group in events.groupby("run_id", sort=False):
        curve = curves[curves["run_id"] == run_id].sort_values("step")
        if curve.empty:
            continue
        steps = curve["step"].to_numpy(dtype=float)
        finite = curve["mean"].notna().to_numpy()
        x = np.interp(group["step"].astype(float), steps, curve["x"].to_numpy(dtype=float))
        y = (
            np.interp(group["step"].astype(float), steps[finite], curve["mean"].to_numpy(dtype=float)[finite])
            if finite.any()
            else np.full(len(group), np.nan)
        )
        rows.append(group.assign(x=x, y=y))
    return pd.concat(rows, ignore_index=True) if rows else events.assign(x=[], y=[])


def config_diff(configs: pd.DataFrame, labels: dict[str, str], show_all: bool = False) -> pd.DataFrame:
    """One row per setting, one column per run; settings equal across all runs are hidden unless
    ``show_all``. A run's settings are its layout fields plus its logged config (nested keys dotted)."""
    columns: dict[str, dict[str, Any]] = {}
    for row in configs.to_dict("records"):
        values: dict[str, Any] = {k: row.get(k) for k in RUN_FIELDS}
        try:
            parsed = json.loads(row["config"]) if isinstance(row.get("config"), str) else {}
        except ValueError:
            parsed = {"config": row.get("config")}
        if isinstance(parsed, dict):
            values.update({f"config.{k}": v for k, v in flatten_config(parsed).items()})
        columns[labels.get(row["run_id"], row["run_id"])] = {k: _cell(v) for k, v in values.items()}
    table = pd.DataFrame(columns)
    if table.empty:
        return table
    table.index.name = "setting"
    if not show_all and table.shape[1] > 1:
        differs = table.astype(str).nunique(axis=1, dropna=False) > 1
        table = table[differs]
    return table


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "—"
    if isinstance(value, list | dict):
        return json.dumps(value, sort_keys=True)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def highlight_html(context: str | None, start: int, end: int, span: str | None = None) -> str:
    """The context with the claim's span marked; every piece is HTML-escaped (document text is untrusted).

    ``start``/``end`` are offsets into ``context``; when they do not point at ``span`` (offsets from another
    text version) the span is looked up in the context instead, and left unmarked if absent.
    """
    context = context or ""
    if span and context[start:end] != span:
        found = context.find(span)
        start, end = (found, found + len(span)) if found >= 0 else (0, 0)
    start, end = max(0, min(start, len(context))), max(0, min(end, len(context)))
    if end <= start:
        return f"<span>{html.escape(context)}</span>"
    return (
        f"<span>{html.escape(context[:start])}<mark class='assay-claim'>{html.escape(context[start:end])}"
        f"</mark>{html.escape(context[end:])}</span>"
    )


def scaling_efficiency(summary: pd.DataFrame, metric: str = "tokens_per_s") -> pd.DataFrame:
    """Per-GPU throughput relative to the smallest world size of the same framework, model, TP/PP and
    hardware: 1.0 is perfect linear scaling."""
    cols = ["framework", "model", "tp", "pp", "hardware"]
    if summary.empty or metric not in summary.columns:
        return pd.DataFrame(columns=[*cols, "world_size", "efficiency", "runs"])
    df = summary.dropna(subset=[metric, "world_size"])
    df = df[df["world_size"] > 0].assign(hardware=lambda d: d["hardware"].fillna(""))
    if df.empty:
        return pd.DataFrame(columns=[*cols, "world_size", "efficiency", "runs"])
    per = (
        df.assign(per_gpu=df[metric] / df["world_size"])
        .groupby([*cols, "world_size"], dropna=False)
        .agg(per_gpu=("per_gpu", "median"), runs=("run_id", "count"))
        .reset_index()
    )
    base = per.sort_values("world_size").groupby(cols, dropna=False)["per_gpu"].transform("first")
    per = per.sort_values([*cols, "world_size"])
    per["efficiency"] = per["per_gpu"] / base.loc[per.index]
    return per.reset_index(drop=True)


def usage_over_time(segments: pd.DataFrame) -> pd.DataFrame:
    """Workers in use over time (a step function) from allocation intervals."""
    if segments.empty:
        return pd.DataFrame(columns=["t", "workers"])
    seg = segments.dropna(subset=["start", "finish"])
    seg = seg[seg["workers"].fillna(0) > 0]
    if seg.empty:
        return pd.DataFrame(columns=["t", "workers"])
    deltas = pd.concat(
        [
            pd.DataFrame({"t": seg["start"], "d": seg["workers"]}),
            pd.DataFrame({"t": seg["finish"], "d": -seg["workers"]}),
        ]
    )
    steps = deltas.groupby("t", as_index=False)["d"].sum().sort_values("t")
    steps["workers"] = steps["d"].cumsum()
    return steps[["t", "workers"]].reset_index(drop=True)


def usage_by_gpu_type(allocations: pd.DataFrame) -> pd.DataFrame:
    """Workers in use per GPU type over a simulation's time (a step function per type) from its allocation
    decisions: each decision replaces its job's previous allocation, which may have been on another type.
    Decisions with no GPU type (a one-type cluster) are left out; an empty frame means nothing to draw."""
    empty = pd.DataFrame(columns=["t", "gpu_type", "workers"])
    if allocations.empty or allocations["gpu_type"].isna().all():
        return empty
    deltas = []
    for _, g in allocations.sort_values("t", kind="stable").groupby("job_id", sort=False):
        previous: tuple[Any, float] | None = None
        for row in g.itertuples(index=False):
            workers = float(row.workers) if pd.notna(row.workers) else 0.0
            if previous is not None and pd.notna(previous[0]):
                deltas.append((row.t, previous[0], -previous[1]))
            if pd.notna(row.gpu_type):
                deltas.append((row.t, row.gpu_type, workers))
            previous = (row.gpu_type, workers)
    if not deltas:
        return empty
    d = pd.DataFrame(deltas, columns=["t", "gpu_type", "d"]).groupby(["gpu_type", "t"], as_index=False)["d"].sum()
    d["workers"] = d.groupby("gpu_type")["d"].cumsum()
    return d[["t", "gpu_type", "workers"]].sort_values(["gpu_type", "t"]).reset_index(drop=True)


def segments_by_gpu_type(segments: pd.DataFrame) -> pd.DataFrame:
    """Workers in use per GPU type over time (``t``, ``gpu_type``, ``workers``, the frame of
    :func:`usage_by_gpu_type`, ``t`` in seconds since the first allocation as a simulation's) from the live
    scheduler's allocation segments: one step function per type of the pools the jobs ran in, a job that
    moved counted in each pool for its time there. Segments without a type (a one-type cluster) are left
    out; an empty frame means nothing to draw."""
    empty = pd.DataFrame(columns=["t", "gpu_type", "workers"])
    if segments.empty or "gpu_type" not in segments or segments["gpu_type"].isna().all():
        return empty
    parts = [
        usage_over_time(group).assign(gpu_type=gpu_type)
        for gpu_type, group in segments.dropna(subset=["gpu_type"]).groupby("gpu_type", sort=True)
    ]
    out = pd.concat(parts, ignore_index=True)[["t", "gpu_type", "workers"]]
    out["t"] = (pd.to_datetime(out["t"]) - pd.to_datetime(segments["start"]).min()).dt.total_seconds()
    return out


def workloads_own_first(sims: pd.DataFrame, workloads: list[str]) -> list[str]:
    """Workloads with the database's own simulations first (newest first), then those that hold only the
    published reference rows: a page that opens on a reference-only workload hides what was simulated."""
    if sims.empty:
        return list(workloads)
    own = sims[~sims["published"].astype(bool)]
    newest = (  # ties (the same time) by name: groupby sorts the names, a stable sort keeps that order
        own.groupby("workload")["created_at"].max().sort_values(ascending=False, na_position="last", kind="stable")
    )
    first = [w for w in newest.index if w in workloads]
    return first + [w for w in workloads if w not in first]


def utilisation(usage: pd.DataFrame, capacity: float) -> float | None:
    """Time-weighted share of ``capacity`` in use between the first and the last change of ``usage``."""
    if usage.empty or capacity <= 0 or len(usage) < 2:
        return None
    t = pd.to_datetime(usage["t"])
    spans = t.diff().shift(-1).dt.total_seconds().fillna(0)
    total = (t.iloc[-1] - t.iloc[0]).total_seconds()
    return float((usage["workers"] * spans).sum() / (capacity * total)) if total > 0 else None


#: Allocation reasons grouped into the markers the timeline draws.
MARKER_WORDS = {
    "failure": ("fail", "error", "died", "crash", "oom"),
    "preemption": ("preempt",),
    "resize": ("resize", "grow", "shrink", "rescale", "joined", "lost"),
}


def marker_kind(reason: Any) -> str | None:
    text = text_of(reason).casefold()
    for kind, words in MARKER_WORDS.items():
        if any(w in text for w in words):
            return kind
    return None


def claim_value(value: Any, low: Any = None, high: Any = None, unit: Any = None) -> str:
    """A claim's number as written for people: ``1.5x``, ``37–50%``, ``52%``."""

    def num(v: Any) -> str:
        return f"{float(v):g}"

    present = [v is not None and not pd.isna(v) for v in (value, low, high)]
    text = (
        num(value)
        if present[0]
        else "–".join(num(v) for v, p in zip((low, high), present[1:], strict=True) if p)
    )
    return (text or "?") + (str(unit) if isinstance(unit, str) else "")


def percent(value: float | None) -> float | None:
    """A utilisation-like figure in percent (accepts fractions 0..1 or percents)."""
    if value is None or pd.isna(value):
        return None
    return float(value) * 100 if abs(value) <= 1.5 else float(value)


#: How a verdict reads in a table cell: a mark a reader scans for, then the word.
VERDICT_MARKS = {"consistent": "✅", "contradicted": "❌", "implausible": "⚠️", "inconclusive": "❔",
                 "untestable": "➖"}


def verdict_badge(verdict: Any) -> str:
    """``✅ consistent`` for a verdict, empty for a claim this kind of evidence has not checked."""
    text = text_of(verdict)
    return f"{VERDICT_MARKS.get(text, '?')} {text}" if text else ""


def check_value(value: Any, unit: Any = None) -> str:
    """A check's figure with its unit: ``1.39x``, ``52%``, ``310 ms``; "—" when the check has none."""
    if value is None or pd.isna(value):
        return "—"
    unit = text_of(unit)
    return f"{float(value):.3g}{unit if unit in ('x', '%', '') else ' ' + unit}"


def evidence_table(value: Any) -> pd.DataFrame:
    """A piece of JSON evidence (a plan, predicted figures) as ``key``/``value`` rows, nested keys dotted."""
    flat = flatten_config(value) if isinstance(value, dict) else {} if value is None else {"": value}
    return pd.DataFrame({"key": list(flat), "value": [_cell(v) for v in flat.values()]})


def evidence_runs(items: Any) -> pd.DataFrame:
    """The runs a check names (``{run_id, role, ...}`` dicts or bare ids) as ``run_id``/``role`` rows."""
    rows = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("run_id"):
            rows.append({"run_id": str(item["run_id"]), "role": text_of(item.get("role")) or "run"})
        elif isinstance(item, str) and item:
            rows.append({"run_id": item, "role": "run"})
    return pd.DataFrame(rows, columns=["run_id", "role"]).drop_duplicates("run_id")


def evidence_jobs(jobs: Any) -> pd.DataFrame:
    """A reproduction's jobs (``{"subject": [ids], "baseline": [ids]}``, or a list) as ``job_id``/``side``."""
    if isinstance(jobs, list):
        jobs = {"job": jobs}
    rows = [
        {"job_id": str(j), "side": str(side)}
        for side, ids in (jobs.items() if isinstance(jobs, dict) else [])
        for j in (ids if isinstance(ids, list) else [ids])
        if j
    ]
    return pd.DataFrame(rows, columns=["job_id", "side"]).drop_duplicates("job_id")


def layout_table(plan: Any) -> pd.DataFrame:
    """A cost model's plan as one row per side (``subject``/``baseline``) with its layout fields as columns,
    or one row for a plan of a single layout."""
    if not isinstance(plan, dict) or not plan:
        return pd.DataFrame()
    sides = plan if all(isinstance(v, dict) for v in plan.values()) else {"plan": plan}
    rows = {side: {k: _cell(v) for k, v in flatten_config(layout).items()} for side, layout in sides.items()}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("side").reset_index()
