"""Read queries behind the dashboards: plain functions over a database path.

Each function opens the file read-only for one query and closes it (the pipelines and the scheduler write
the same file meanwhile; see docs/architecture.md), takes user text only as query parameters, and returns a
pandas DataFrame, a dict or a small dataclass. Long series are reduced in SQL (bucketed by step) so a page
never pulls millions of rows into Python.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from assay.store._connection import connect, default_db_path

PathLike = str | os.PathLike[str] | None

#: How long a dashboard query waits for a writer to let go of the file; writers hold it for about a second.
READ_TIMEOUT_S = float(os.environ.get("ASSAY_DASHBOARD_LOCK_TIMEOUT", "20"))
#: Longest search text passed to a query; longer input is cut (it cannot match anything useful anyway).
MAX_SEARCH_CHARS = 200
#: Metrics that describe a run's speed, summarised per run for the throughput/MFU/scaling charts.
SPEED_METRICS = ("tokens_per_s", "samples_per_s", "tflops", "mfu", "step_time_ms", "memory_mb")

XAxis = Literal["step", "time", "tokens"]


class NoDatabase(FileNotFoundError):
    """The dashboard was pointed at a file that does not exist (it never creates one)."""


def _path(db: PathLike) -> Path:
    path = Path(db) if db is not None else default_db_path()
    if not path.exists():
        raise NoDatabase(f"no database at {path}")
    return path


def read(db: PathLike, query: str, params: list[Any] | dict[str, Any] | None = None) -> pd.DataFrame:
    """Run one read-only query; the file is open only while it runs."""
    with connect(_path(db), read_only=True, timeout_s=READ_TIMEOUT_S) as con:
        return con.execute(query, params if params is not None else []).df()


def _in(values: list[Any] | tuple[Any, ...]) -> str:
    """Placeholders for an IN list (the values go in as parameters); an empty list matches nothing."""
    return "(" + ", ".join("?" for _ in values) + ")" if values else "(NULL)"


def _search(text: str | None) -> str:
    return (text or "").strip()[:MAX_SEARCH_CHARS]


def normalise(name: Any) -> str:
    """A name as compared across papers and logs: case-folded, letters and digits only (Megatron-LM ==
    megatron_lm); empty for missing values."""
    return re.sub(r"[\W_]+", "", str(name).casefold()) if isinstance(name, str) else ""


# ---------------------------------------------------------------------------------------------- status


def database_state(db: PathLike) -> Literal["missing", "no-schema", "ready"]:
    """Whether ``db`` exists and carries assay's schema, without creating anything."""
    try:
        path = _path(db)
    except NoDatabase:
        return "missing"
    with connect(path, read_only=True, timeout_s=READ_TIMEOUT_S) as con:
        n = con.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = 'claims'"
        ).fetchall()
    return "ready" if n[0][0] else "no-schema"


def table_counts(db: PathLike) -> dict[str, int]:
    """Rows per table, for the overview and the empty states."""
    tables = [
        "documents",
        "entities",
        "mentions",
        "claims",
        "relations",
        "runs",
        "metrics",
        "events",
        "jobs",
        "allocations",
        "pipeline_runs",
        "quarantine",
        "sim_runs",
        "sim_jobs",
        "cost_model_fits",
    ]
    union = " UNION ALL ".join(f"SELECT '{t}' AS t, count(*) AS n FROM {t}" for t in tables)
    df = read(db, union)
    return {str(t): int(n) for t, n in zip(df["t"], df["n"], strict=True)}


def entity_types(db: PathLike) -> pd.DataFrame:
    return read(
        db,
        "SELECT coalesce(type, 'unknown') AS type, count(*) AS entities FROM entities "
        "GROUP BY 1 ORDER BY 2 DESC",
    )


def documents_by_kind(db: PathLike) -> pd.DataFrame:
    return read(
        db,
        "SELECT coalesce(kind, 'unknown') AS kind, count(*) AS documents, "
        "sum(n_bytes) AS bytes FROM documents GROUP BY 1 ORDER BY 2 DESC",
    )


# ------------------------------------------------------------------------------------------- pipelines


def pipeline_names(db: PathLike) -> list[str]:
    df = read(db, "SELECT DISTINCT pipeline FROM pipeline_runs WHERE pipeline IS NOT NULL ORDER BY 1")
    return df["pipeline"].tolist()


def pipeline_runs(db: PathLike, pipelines: list[str] | None = None, limit: int = 200) -> pd.DataFrame:
    """Pipeline runs, newest first, with their rate in documents per second."""
    where, params = ("", []) if not pipelines else (f"WHERE pipeline IN {_in(pipelines)}", list(pipelines))
    return read(
        db,
        f"""
        SELECT pipeline_run_id, pipeline, status, n_in, n_ok, n_quarantined, started_at, finished_at,
               coalesce(seconds, epoch(finished_at) - epoch(started_at)) AS seconds,
               n_ok / nullif(coalesce(seconds, epoch(finished_at) - epoch(started_at)), 0) AS docs_per_s
        FROM pipeline_runs {where}
        ORDER BY started_at DESC NULLS LAST LIMIT ?""",
        [*params, int(limit)],
    )


def _quarantine_where(pipeline_run_ids: list[str] | None, level: str | None) -> tuple[str, list[Any]]:
    clauses, params = [], []
    if pipeline_run_ids:
        clauses.append(f"pipeline_run_id IN {_in(pipeline_run_ids)}")
        params += list(pipeline_run_ids)
    if level:
        clauses.append("coalesce(level, 'input') = ?")
        params.append(level)
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", params


def quarantine_reasons(
    db: PathLike, pipeline_run_ids: list[str] | None = None, level: str | None = None
) -> pd.DataFrame:
    """Quarantined inputs grouped by operator and the first line of the error."""
    where, params = _quarantine_where(pipeline_run_ids, level)
    return read(
        db,
        f"""
        SELECT operator, left(split_part(coalesce(error, ''), chr(10), 1), 200) AS reason,
               coalesce(level, 'input') AS level, count(*) AS inputs, max("at") AS last_seen
        FROM quarantine {where} GROUP BY ALL ORDER BY inputs DESC, operator""",
        params,
    )


def quarantined_inputs(
    db: PathLike, pipeline_run_ids: list[str] | None = None, level: str | None = None, limit: int = 500
) -> pd.DataFrame:
    where, params = _quarantine_where(pipeline_run_ids, level)
    return read(
        db,
        f"""
        SELECT q.pipeline_run_id, p.pipeline, q.source_uri, q.operator, q.error,
               coalesce(q.level, 'input') AS level, q."at"
        FROM quarantine q LEFT JOIN pipeline_runs p USING (pipeline_run_id) {where}
        ORDER BY q."at" DESC NULLS LAST LIMIT ?""",
        [*params, int(limit)],
    )


# ------------------------------------------------------------------------------------------- knowledge


def search_entities(
    db: PathLike, text: str | None = None, types: list[str] | None = None, limit: int = 50
) -> pd.DataFrame:
    """Entities whose name or an alias contains ``text`` (literally, ignoring case), most mentioned first."""
    needle = _search(text).casefold()
    clauses, params = [], []
    if needle:
        clauses.append(
            "(strpos(lower(e.name), ?) > 0 OR "
            "len(list_filter(coalesce(e.aliases, []), lambda a: strpos(lower(a), ?) > 0)) > 0)"
        )
        params += [needle, needle]
    if types:
        clauses.append(f"e.type IN {_in(types)}")
        params += list(types)
    where = ("WHERE " + " AND ".join(clauses)) if clauses else ""
    return read(
        db,
        f"""
        WITH m AS (SELECT entity_id, count(*) AS mentions, count(DISTINCT doc_id) AS documents
                   FROM mentions GROUP BY 1)
        SELECT e.entity_id, e.name, e.type, array_to_string(e.aliases, ', ') AS aliases,
               coalesce(m.mentions, 0) AS mentions, coalesce(m.documents, 0) AS documents
        FROM entities e LEFT JOIN m USING (entity_id) {where}
        ORDER BY mentions DESC, e.name LIMIT ?""",
        [*params, int(limit)],
    )


def entity(db: PathLike, entity_id: str) -> dict[str, Any] | None:
    df = read(db, "SELECT entity_id, name, type, aliases FROM entities WHERE entity_id = ?", [entity_id])
    if df.empty:
        return None
    row = df.iloc[0].to_dict()
    row["aliases"] = _aliases(row.get("aliases"))
    return row


def _aliases(value: Any) -> list[str]:
    """An aliases cell (a list, an array or null) as a list of non-empty strings."""
    if value is None or isinstance(value, float | str):
        return [value] if isinstance(value, str) and value else []
    return [a for a in value if isinstance(a, str) and a]


def _spellings(row: dict[str, Any]) -> set[str]:
    return {normalise(n) for n in [row["name"], *row.get("aliases", [])]} - {""}


def _raw_matching(db: PathLike, column: str, table: str, spellings: set[str]) -> list[str]:
    """The distinct raw values of ``table.column`` that normalise to one of ``spellings``.

    Normalising in Python keeps one definition of "the same name" for papers and logs; the distinct values
    of a name column are few even when the table is large.
    """
    values = read(db, f'SELECT DISTINCT "{column}" AS v FROM {table} WHERE "{column}" IS NOT NULL')["v"]
    return [v for v in values if normalise(v) in spellings]


def entity_claims(db: PathLike, entity_id: str, context_chars: int = 160, limit: int = 200) -> pd.DataFrame:
    """Claims about an entity (as subject or as baseline), each with the passage it came from.

    ``context`` is the claim's sentence (or ``context_chars`` either side of the span when the sentence is
    unknown); ``ctx_start`` is the context's offset in the document, so the span sits at
    ``start - ctx_start`` to ``end - ctx_start`` inside ``context``.
    """
    row = entity(db, entity_id)
    if row is None:
        return pd.DataFrame()
    spellings = _spellings(row)
    subjects = _raw_matching(db, "subject", "claims", spellings)
    baselines = _raw_matching(db, "versus", "claims", spellings)
    if not subjects and not baselines:
        return pd.DataFrame()
    return read(
        db,
        f"""
        WITH c AS (
            SELECT *, CASE WHEN subject IN {_in(subjects)} THEN 'subject' ELSE 'baseline' END AS role,
                   greatest(0, coalesce(sentence_start, start - ?)) AS ctx_start,
                   coalesce(sentence_end, "end" + ?) AS ctx_end
            FROM claims WHERE subject IN {_in(subjects)} OR versus IN {_in(baselines)})
        SELECT c.claim_id, c.role, c.subject, c.metric, c.value, c.value_low, c.value_high, c.unit, c.versus,
               c.setting, c.qualifier, c.text, c.start, c."end", c.confidence, c.doc_id, d.title, d.uri,
               c.ctx_start, substr(d.text, c.ctx_start + 1, c.ctx_end - c.ctx_start) AS context
        FROM c LEFT JOIN documents d USING (doc_id)
        ORDER BY c.role DESC, c.confidence DESC NULLS LAST, c.claim_id LIMIT ?""",
        [*subjects, int(context_chars), int(context_chars), *subjects, *baselines, int(limit)],
    )


def entity_neighbours(db: PathLike, entity_id: str, limit: int = 25) -> pd.DataFrame:
    """Entities linked to ``entity_id``: by a relation (with its predicate) or by co-mention in documents."""
    return read(
        db,
        """
        WITH rel AS (
            SELECT CASE WHEN subject_id = $id THEN object_id ELSE subject_id END AS other,
                   predicate, subject_id = $id AS outgoing, count(*) AS weight
            FROM relations WHERE (subject_id = $id OR object_id = $id) AND subject_id <> object_id
            GROUP BY ALL),
        docs AS (SELECT DISTINCT doc_id FROM mentions WHERE entity_id = $id),
        co AS (SELECT m.entity_id AS other, count(DISTINCT m.doc_id) AS weight
               FROM mentions m JOIN docs USING (doc_id) WHERE m.entity_id <> $id
               GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT $limit),
        edges AS (SELECT 'relation' AS kind, other, predicate, outgoing, weight FROM rel
                  UNION ALL SELECT 'co-mention', other, NULL, NULL, weight FROM co)
        SELECT edges.kind, edges.other AS entity_id, coalesce(e.name, edges.other) AS name,
               coalesce(e.type, 'unknown') AS type, edges.predicate, edges.outgoing, edges.weight
        FROM edges LEFT JOIN entities e ON e.entity_id = edges.other
        ORDER BY edges.kind DESC, edges.weight DESC, name""",
        {"id": entity_id, "limit": int(limit)},
    )


def entity_runs(db: PathLike, entity_id: str) -> pd.DataFrame:
    """Runs whose framework, model or hardware is this entity (by name or alias)."""
    row = entity(db, entity_id)
    if row is None:
        return pd.DataFrame()
    spellings = _spellings(row)
    runs = read(db, f"SELECT {_RUN_COLUMNS} FROM runs ORDER BY started_at DESC NULLS LAST")
    if runs.empty:
        return runs
    used = pd.Series(False, index=runs.index)
    for column in ("framework", "model", "hardware"):
        used |= runs[column].map(normalise).isin(spellings)
    return runs[used].reset_index(drop=True)


# ---------------------------------------------------------------------------------------------- claims


@dataclass(frozen=True)
class ClaimFilter:
    """What the claims table is narrowed to; empty lists mean no restriction."""

    systems: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    baselines: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()
    text: str = ""
    min_confidence: float = 0.0

    def where(self) -> tuple[str, list[Any]]:
        clauses, params = [], []
        for column, values in (
            ("subject", self.systems),
            ("metric", self.metrics),
            ("versus", self.baselines),
            ("setting", self.settings),
        ):
            if values:
                clauses.append(f"c.{column} IN {_in(values)}")
                params += list(values)
        needle = _search(self.text).casefold()
        if needle:
            clauses.append(
                "strpos(lower(concat_ws(' ', c.text, c.subject, c.metric, c.setting, c.versus)), ?) > 0"
            )
            params.append(needle)
        if self.min_confidence > 0:
            clauses.append("coalesce(c.confidence, 0) >= ?")
            params.append(float(self.min_confidence))
        return ("WHERE " + " AND ".join(clauses)) if clauses else "", params


#: Sort keys offered to the user, mapped to SQL chosen here (the user's choice never becomes SQL text).
CLAIM_SORTS: dict[str, str] = {
    "confidence": "c.confidence",
    "value": "coalesce(c.value, (c.value_low + c.value_high) / 2, c.value_low, c.value_high)",
    "system": "c.subject",
    "metric": "c.metric",
    "baseline": "c.versus",
    "document": "d.title",
}
_CLAIM_COLUMNS = """c.claim_id, c.subject AS system, c.metric, c.value, c.value_low, c.value_high, c.unit,
    c.versus AS baseline, c.setting, c.qualifier, c.text, c.confidence, d.title AS document, d.uri, c.doc_id,
    c.start, c."end\""""


def claim_facets(db: PathLike, limit: int = 500) -> dict[str, list[str]]:
    """The most frequent values of each claim filter (system, metric, baseline, setting)."""
    out: dict[str, list[str]] = {}
    for key, column in (
        ("systems", "subject"),
        ("metrics", "metric"),
        ("baselines", "versus"),
        ("settings", "setting"),
    ):
        df = read(
            db,
            f'SELECT "{column}" AS v FROM claims WHERE "{column}" IS NOT NULL '
            f"GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ?",
            [int(limit)],
        )
        out[key] = df["v"].tolist()
    return out


def claims(
    db: PathLike,
    flt: ClaimFilter = ClaimFilter(),
    sort: str = "confidence",
    descending: bool = True,
    limit: int | None = 1000,
) -> pd.DataFrame:
    """Claims matching ``flt`` with their document, sorted by one of ``CLAIM_SORTS``."""
    if sort not in CLAIM_SORTS:
        raise ValueError(f"sort must be one of {', '.join(CLAIM_SORTS)}, not {sort!r}")
    where, params = flt.where()
    order = f"{CLAIM_SORTS[sort]} {'DESC' if descending else 'ASC'} NULLS LAST, c.claim_id"
    tail = "LIMIT ?" if limit is not None else ""
    return read(
        db,
        f"SELECT {_CLAIM_COLUMNS} FROM claims c LEFT JOIN documents d USING (doc_id) {where} "
        f"ORDER BY {order} {tail}",
        [*params, *([int(limit)] if limit is not None else [])],
    )


def claims_count(db: PathLike, flt: ClaimFilter = ClaimFilter()) -> int:
    where, params = flt.where()
    return int(read(db, f"SELECT count(*) AS n FROM claims c {where}", params)["n"].iloc[0])


def claims_csv(
    db: PathLike, flt: ClaimFilter = ClaimFilter(), sort: str = "confidence", descending: bool = True
) -> str:
    """Every claim matching ``flt`` as CSV (the download; the table on screen is capped)."""
    return claims(db, flt, sort, descending, limit=None).to_csv(index=False)


# ------------------------------------------------------------------------------------------------ runs

_RUN_COLUMNS = """run_id, framework, model, status, world_size, dp, tp, pp, hardware,
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
    df = read(db, f"SELECT {_RUN_COLUMNS} FROM runs")
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
        WITH r AS (SELECT {_RUN_COLUMNS} FROM runs),
             e AS (SELECT run_id, count(*) AS events FROM events GROUP BY 1)
        SELECT r.*, coalesce(e.events, 0) AS events FROM r LEFT JOIN e USING (run_id) {where}
        ORDER BY started_at DESC NULLS LAST, run_id LIMIT ?""",
        [*params, int(limit)],
    )


def metric_names(db: PathLike, run_ids: list[str]) -> list[str]:
    df = read(
        db, f"SELECT DISTINCT name FROM metrics WHERE run_id IN {_in(run_ids)} ORDER BY 1", list(run_ids)
    )
    return df["name"].tolist()


def tokens_per_step(db: PathLike, run_ids: list[str]) -> dict[str, float]:
    """Tokens one optimizer step consumes, per run: global batch x sequence length from the run's config,
    else the logged median tokens/s x step time."""
    out: dict[str, float] = {}
    cfg = read(
        db,
        f"SELECT run_id, global_batch_size, config FROM runs WHERE run_id IN {_in(run_ids)}",
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
            FROM metrics WHERE run_id IN {_in(missing)} AND name IN ('tokens_per_s', 'step_time_ms')
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
                 SELECT run_id, step, value, ts FROM metrics WHERE name = ? AND run_id IN {_in(run_ids)}),
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
        f"""SELECT run_id, step, kind, detail, line_no, ts FROM events
                        WHERE run_id IN {_in(run_ids)}{extra} ORDER BY run_id, step LIMIT ?""",
        [*params, int(limit)],
    )


def run_summaries(db: PathLike, run_ids: list[str]) -> pd.DataFrame:
    """Per run: its layout and the median of each speed metric (NaN left out).

    Medians ignore warm-up and slow outlier steps; a metric a run does not log is null.
    """
    if not run_ids:
        return pd.DataFrame()
    info = read(db, f"SELECT {_RUN_COLUMNS} FROM runs WHERE run_id IN {_in(run_ids)}", list(run_ids))
    # Rank 0 (or an unranked line) is where Megatron/DeepSpeed log global speed; summarising it alone is
    # ranks-times cheaper. Runs whose speed only other ranks log are summarised over all their ranks.
    where = f"run_id IN {_in(run_ids)} AND name IN {_in(SPEED_METRICS)} AND isfinite(value)"
    params = [*run_ids, *SPEED_METRICS]
    speed = read(
        db,
        f"""SELECT run_id, name, median(value) AS value FROM metrics
                         WHERE {where} AND coalesce(rank, 0) = 0 GROUP BY ALL""",
        params,
    )
    missing = sorted(set(run_ids) - set(speed["run_id"]))
    if missing:
        rest = read(
            db,
            f"""SELECT run_id, name, median(value) AS value FROM metrics
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
    return read(db, f"SELECT {_RUN_COLUMNS}, config FROM runs WHERE run_id IN {_in(run_ids)}", list(run_ids))


# ------------------------------------------------------------------------------ claimed vs measured

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


def text_of(value: Any) -> str:
    """A cell as text: SQL NULL arrives as None or as a float NaN in pandas, and both mean no text."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return str(value)


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
    runs_df = read(db, f"SELECT {_RUN_COLUMNS} FROM runs")
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


# ------------------------------------------------------------------------------------------- scheduler


def job_queue(db: PathLike, states: list[str] | None = None, limit: int = 500) -> pd.DataFrame:
    """Jobs, active ones first (running, then waiting by priority), then the rest newest first."""
    where, params = ("", []) if not states else (f"WHERE state IN {_in(states)}", list(states))
    return read(
        db,
        f"""
        SELECT job_id, name, state, priority, workers, min_workers, max_workers, attempts, submitted_at,
               started_at, finished_at, error
        FROM jobs {where}
        ORDER BY CASE WHEN state IN ('running', 'resizing', 'starting') THEN 0
                      WHEN state IN ('queued', 'pending', 'waiting', 'preempted') THEN 1 ELSE 2 END,
                 priority DESC NULLS LAST, submitted_at DESC NULLS LAST LIMIT ?""",
        [*params, int(limit)],
    )


def job_states(db: PathLike) -> pd.DataFrame:
    return read(
        db,
        "SELECT coalesce(state, 'unknown') AS state, count(*) AS jobs FROM jobs GROUP BY 1 ORDER BY 2 DESC",
    )


def allocation_segments(db: PathLike, job_ids: list[str] | None = None) -> pd.DataFrame:
    """Each allocation as an interval: from its time to the job's next decision (or the job's end, or the
    latest time the scheduler recorded, for a job still running)."""
    where, params = ("", []) if not job_ids else (f"WHERE a.job_id IN {_in(job_ids)}", list(job_ids))
    return read(
        db,
        f"""
        WITH latest AS (SELECT greatest(max(a."at"), (SELECT max(finished_at) FROM jobs),
                                        (SELECT max(heartbeat_at) FROM jobs)) AS t FROM allocations a)
        SELECT a.job_id, coalesce(j.name, a.job_id) AS name, j.state, a."at" AS start,
               coalesce(lead(a."at") OVER (PARTITION BY a.job_id ORDER BY a."at"), j.finished_at,
                        (SELECT t FROM latest)) AS finish,
               a.workers, a.reason, a.plan
        FROM allocations a LEFT JOIN jobs j USING (job_id) {where}
        ORDER BY a.job_id, a."at\"""",
        params,
    )


def sim_workloads(db: PathLike) -> list[str]:
    return read(db, "SELECT DISTINCT workload FROM sim_runs WHERE workload IS NOT NULL ORDER BY 1")[
        "workload"
    ].tolist()


def sim_runs(db: PathLike, workloads: list[str] | None = None) -> pd.DataFrame:
    """Simulated policies (and the published reference rows, policy ``published:<name>``) per workload."""
    where, params = ("", []) if not workloads else (f"WHERE workload IN {_in(workloads)}", list(workloads))
    return read(
        db,
        f"""
        SELECT sim_id, workload, policy, starts_with(policy, 'published:') AS published, gpus, n_jobs,
               avg_jct, p50_jct, p99_jct, makespan, utilization, fairness, created_at, wall_s, params
        FROM sim_runs {where} ORDER BY workload, published, avg_jct NULLS LAST""",
        params,
    )


def sim_jct(db: PathLike, sim_ids: list[str]) -> pd.DataFrame:
    return read(
        db,
        f"""SELECT sim_id, job_id, model, jct, queueing, num_gpus, restarts FROM sim_jobs
                        WHERE sim_id IN {_in(sim_ids)} AND jct IS NOT NULL""",
        list(sim_ids),
    )
