"""Measured training runs: filters and facets, metric curves reduced in SQL, events, speed summaries and
configs. Long series are reduced in SQL (bucketed by step) so a page never pulls millions of rows into Python.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

import pandas as pd

from assay.store._read import PathLike, _in, read

#: Metrics that describe a run's speed, summarised per run for the throughput/MFU/scaling charts.
SPEED_METRICS = ("tokens_per_s", "samples_per_s", "tflops", "mfu", "step_time_ms", "memory_mb")

XAxis = Literal["step", "time", "tokens"]
#: The columns every query over runs shows (also for claims and entities), the layout as ``dp·tp·pp``.
RUN_COLUMNS = """run_id, framework, model, status, world_size, dp, tp, pp, hardware,
    format('dp{}·tp{}·pp{}', coalesce(dp::VARCHAR, '?'), coalesce(tp::VARCHAR, '?'),
           coalesce(pp::VARCHAR, '?')) AS layout,
    micro_batch_size, global_batch_size, job_id, started_at, ended_at, source_uri"""


@dataclass(frozen=True)
class RunFilter:
    frameworks: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    layouts: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()


def run_facets(db: PathLike) -> dict[str, list[str]]:
    df = read(db, f"SELECT {RUN_COLUMNS} FROM current_runs")
    return {
        key: sorted(df[col].dropna().astype(str).unique().tolist())
        for key, col in (
            ("frameworks", "framework"),
            ("models", "model"),
            ("layouts", "layout"),
            ("statuses", "status"),
        )
    }


def runs(db: PathLike, flt: RunFilter = RunFilter(), limit: int = 2000) -> pd.DataFrame:
    """Runs matching ``flt``, newest first, with their layout as ``dp·tp·pp`` and their event count."""
    clauses, params = [], []
    for column, values in (
        ("framework", flt.frameworks),
        ("model", flt.models),
        ("layout", flt.layouts),
        ("status", flt.statuses),
    ):
        if values:
            clauses.append(f"{column} IN {_in(values)}")
            params += list(values)
    where = ("WHERE " + " AND ".join(clauses)) if clauses else ""
    return read(
        db,
        f"""
        WITH r AS (SELECT {RUN_COLUMNS} FROM current_runs),
             e AS (SELECT run_id, count(*) AS events FROM current_events GROUP BY 1)
        SELECT r.*, coalesce(e.events, 0) AS events FROM r LEFT JOIN e USING (run_id) {where}
        ORDER BY started_at DESC NULLS LAST, run_id LIMIT ?""",
        [*params, int(limit)],
    )


def metric_names(db: PathLike, run_ids: list[str]) -> list[str]:
    df = read(
        db, f"SELECT DISTINCT name FROM current_metrics WHERE run_id IN {_in(run_ids)} ORDER BY 1", list(run_ids)
    )
    return df["name"].tolist()


def tokens_per_step(db: PathLike, run_ids: list[str]) -> dict[str, float]:
    """Tokens one optimizer step consumes, per run: global batch x sequence length from the run's config,
    else the logged median tokens/s x step time."""
    out: dict[str, float] = {}
    cfg = read(
        db,
        f"SELECT run_id, global_batch_size, config FROM current_runs WHERE run_id IN {_in(run_ids)}",
        list(run_ids),
    )
    for rid, gbs, config in cfg.itertuples(index=False):
        seq = _config_value(config, ("seq_length", "seq_len", "max_seq_len", "sequence_length", "block_size"))
        if gbs is not None and not pd.isna(gbs) and seq:
            out[rid] = float(gbs) * float(seq)
    missing = [r for r in run_ids if r not in out]
    if missing:
        df = read(
            db,
            f"""
            SELECT run_id, median(value) FILTER (WHERE name = 'tokens_per_s')
                          * median(value) FILTER (WHERE name = 'step_time_ms') / 1000.0 AS tokens
            FROM current_metrics WHERE run_id IN {_in(missing)} AND name IN ('tokens_per_s', 'step_time_ms')
                  AND isfinite(value) GROUP BY 1""",
            missing,
        )
        out.update({r: float(t) for r, t in df.itertuples(index=False) if t is not None and not pd.isna(t)})
    return out


def _config_value(config: Any, keys: tuple[str, ...]) -> float | None:
    try:
        parsed = json.loads(config) if isinstance(config, str) else None
    except ValueError:
        return None
    if not isinstance(parsed, dict):
        return None
    flat = flatten_config(parsed)
    for key, value in flat.items():
        if key.rsplit(".", 1)[-1] in keys and isinstance(value, int | float) and value > 0:
            return float(value)
    return None


def flatten_config(config: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested config dicts as one level of dotted keys."""
    out: dict[str, Any] = {}
    for key, value in config.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten_config(value, name + "."))
        else:
            out[name] = value
    return out


def metric_curves(
    db: PathLike, run_ids: list[str], name: str, x: XAxis = "step", buckets: int = 400
) -> pd.DataFrame:
    """One metric for several runs, reduced in SQL to at most ``buckets`` points per run.

    Each bucket is a range of steps: ``mean`` averages every finite value in it (all ranks, all steps),
    ``lo``/``hi`` are the smallest and largest (the band across ranks), ``n_nan`` counts NaN/inf values,
    which are kept out of the aggregates. ``x`` is the bucket's mean step, seconds since the run's first
    sample, or tokens consumed (step x ``tokens_per_step``).
    """
    if not run_ids:
        return pd.DataFrame(columns=["run_id", "bucket", "step", "x", "mean", "lo", "hi", "n_nan", "n"])
    df = read(
        db,
        f"""
        WITH m AS MATERIALIZED (
                 SELECT run_id, step, value, ts FROM current_metrics WHERE name = ? AND run_id IN {_in(run_ids)}),
             r AS (SELECT run_id, min(step) AS s0, max(step) AS s1, min(ts) AS t0 FROM m GROUP BY run_id)
        SELECT m.run_id, floor((m.step - r.s0) / greatest(1, ceil((r.s1 - r.s0 + 1) / ?)))::BIGINT AS bucket,
               avg(m.step) AS step, avg(epoch(m.ts) - epoch(r.t0)) AS seconds,
               avg(m.value) FILTER (WHERE isfinite(m.value)) AS mean,
               min(m.value) FILTER (WHERE isfinite(m.value)) AS lo,
               max(m.value) FILTER (WHERE isfinite(m.value)) AS hi,
               count(*) FILTER (WHERE NOT isfinite(m.value)) AS n_nan, count(*) AS n
        FROM m JOIN r USING (run_id) GROUP BY ALL ORDER BY 1, 2""",
        [name, *run_ids, max(1, int(buckets))],
    )
    if x == "time":
        df["x"] = df["seconds"]
    elif x == "tokens":
        per_step = tokens_per_step(db, run_ids)
        df["x"] = df["step"] * df["run_id"].map(per_step)
    else:
        df["x"] = df["step"]
    return df.drop(columns=["seconds"])


def run_events(
    db: PathLike, run_ids: list[str], kinds: list[str] | None = None, limit: int = 5000
) -> pd.DataFrame:
    """Events of the runs (restart, nan, oom, resize ...), at most ``limit`` (a chart cannot show more)."""
    params: list[Any] = list(run_ids)
    extra = ""
    if kinds:
        extra = f" AND kind IN {_in(kinds)}"
        params += list(kinds)
    return read(
        db,
        f"""SELECT run_id, step, kind, detail, line_no, ts FROM current_events
                        WHERE run_id IN {_in(run_ids)}{extra} ORDER BY run_id, step LIMIT ?""",
        [*params, int(limit)],
    )


def run_summaries(db: PathLike, run_ids: list[str] | None) -> pd.DataFrame:
    """Per run (those in ``run_ids``, or every run for None): its layout and the median of each speed
    metric (NaN left out).

    Medians ignore warm-up and slow outlier steps; a metric a run does not log is null.
    """
    if run_ids is not None and not run_ids:
        return pd.DataFrame()
    chosen, ids = (f"run_id IN {_in(run_ids)}", list(run_ids)) if run_ids is not None else ("true", [])
    info = read(db, f"SELECT {RUN_COLUMNS} FROM current_runs WHERE {chosen}", ids)
    # Rank 0 (or an unranked line) is where Megatron/DeepSpeed log global speed; summarising it alone is
    # ranks-times cheaper. Runs whose speed only other ranks log are summarised over all their ranks.
    where = f"{chosen} AND name IN {_in(SPEED_METRICS)} AND isfinite(value)"
    params = [*ids, *SPEED_METRICS]
    speed = read(
        db,
        f"""SELECT run_id, name, median(value) AS value FROM current_metrics
                         WHERE {where} AND coalesce(rank, 0) = 0 GROUP BY ALL""",
        params,
    )
    missing = sorted(set(info["run_id"]) - set(speed["run_id"]))
    if missing:
        rest = read(
            db,
            f"""SELECT run_id, name, median(value) AS value FROM current_metrics
                WHERE run_id IN {_in(missing)} AND name IN {_in(SPEED_METRICS)} AND isfinite(value)
                GROUP BY ALL""",
            [*missing, *SPEED_METRICS],
        )
        speed = pd.concat([speed, rest], ignore_index=True) if not speed.empty else rest
    wide = speed.pivot_table(index="run_id", columns="name", values="value") if not speed.empty else None
    out = info.set_index("run_id")
    for name in SPEED_METRICS:
        out[name] = wide[name] if wide is not None and name in wide.columns else float("nan")
    return out.reset_index()


def run_configs(db: PathLike, run_ids: list[str]) -> pd.DataFrame:
    return read(db, f"SELECT {RUN_COLUMNS}, config FROM current_runs WHERE run_id IN {_in(run_ids)}", list(run_ids))
