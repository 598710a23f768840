"""The database schema: the public data contract (see docs/data-contract.md) plus assay's own tables.

Schema changes are appended to ``MIGRATIONS`` (never edited in place); ``schema_version`` records which
have run, so an old database file is brought forward when it is opened for writing.
"""

from __future__ import annotations

from assay.store._versions import SCHEMA_4, restate_sql

#: Columns written for each table, in order. Contract columns first; extra columns after them.
TABLES: dict[str, tuple[str, ...]] = {
    "documents": (
        "doc_id", "uri", "kind", "title", "lang", "n_bytes", "ingested_at", "text", "pipeline_run_id",
        "superseded_by", "superseded_at",
    ),
    # Which content (doc_id) a source uri held in which pipeline run (see _versions).
    "document_versions": ("uri", "doc_id", "pipeline_run_id", "seen_at"),
    "entities": ("entity_id", "name", "type", "aliases"),
    "mentions": ("entity_id", "doc_id", "start", "end", "text", "operator"),
    "claims": (
        "claim_id", "doc_id", "subject", "metric", "value", "value_low", "value_high", "unit", "qualifier",
        "versus", "setting", "text", "start", "end", "operator", "confidence", "sentence_start", "sentence_end",
        "section", "hardware", "gpus", "nodes", "interconnect", "model", "params_b", "seq_len", "dp", "tp", "pp",
        "micro_batch", "global_batch", "measure", "direction", "implied_versus",
    ),
    "relations": (
        "relation_id", "subject_id", "predicate", "object_id", "doc_id", "start", "end", "operator", "confidence",
    ),
    "runs": (
        "run_id", "source_uri", "framework", "status", "model", "world_size", "dp", "tp", "pp",
        "micro_batch_size", "global_batch_size", "job_id", "started_at", "ended_at", "doc_id", "hardware",
        "config",
    ),
    "metrics": ("run_id", "step", "name", "value", "rank", "ts", "line_no"),
    "events": ("run_id", "step", "kind", "detail", "line_no", "ts"),
    "jobs": (
        "job_id", "name", "spec", "state", "priority", "min_workers", "max_workers", "workers", "attempts",
        "submitted_at", "started_at", "finished_at", "plan", "error", "owner", "heartbeat_at",
    ),
    "allocations": ("job_id", "at", "workers", "plan", "reason", "source", "gpu_type"),
    "pipeline_runs": (
        "pipeline_run_id", "pipeline", "status", "n_in", "n_ok", "n_quarantined", "started_at", "finished_at",
        "address", "n_records", "seconds",
    ),
    "quarantine": ("pipeline_run_id", "source_uri", "operator", "error", "at", "level"),
    "sim_runs": (
        "sim_id", "workload", "policy", "gpus", "n_jobs", "avg_jct", "p50_jct", "p99_jct", "makespan",
        "utilization", "fairness", "params", "created_at", "wall_s", "cluster",
    ),
    "sim_jobs": ("sim_id", "job_id", "model", "submit_time", "start_time", "finish_time", "jct", "queueing",
                 "num_gpus", "restarts", "gpu_type"),
    "sim_allocations": ("sim_id", "job_id", "t", "workers", "batch_size", "reason", "gpu_type"),
    "cost_model_fits": ("fit_id", "fitted_at", "params", "n_runs", "mape", "holdout_mape"),
    "claim_checks": (
        "check_id", "claim_id", "kind", "verdict", "claimed", "observed", "low", "high", "unit", "reason",
        "evidence", "checked_at",
    ),
}

#: Primary keys: rows with an existing key are skipped (INSERT OR IGNORE), which with deterministic ids
#: makes a retried task or a re-run write each row exactly once.
PRIMARY_KEYS: dict[str, tuple[str, ...]] = {
    "documents": ("doc_id",),
    "document_versions": ("uri", "doc_id"),
    "entities": ("entity_id",),
    "claims": ("claim_id",),
    "relations": ("relation_id",),
    "runs": ("run_id",),
    "jobs": ("job_id",),
    "pipeline_runs": ("pipeline_run_id",),
    "sim_runs": ("sim_id",),
    "cost_model_fits": ("fit_id",),
    "claim_checks": ("check_id",),
}

_V1 = """
CREATE TABLE IF NOT EXISTS documents (
    doc_id VARCHAR PRIMARY KEY, uri VARCHAR, kind VARCHAR, title VARCHAR, lang VARCHAR, n_bytes BIGINT,
    ingested_at TIMESTAMP, text VARCHAR, pipeline_run_id VARCHAR);
CREATE TABLE IF NOT EXISTS entities (
    entity_id VARCHAR PRIMARY KEY, name VARCHAR, type VARCHAR, aliases VARCHAR[]);
CREATE TABLE IF NOT EXISTS mentions (
    entity_id VARCHAR, doc_id VARCHAR, start INTEGER, "end" INTEGER, text VARCHAR, operator VARCHAR);
CREATE TABLE IF NOT EXISTS claims (
    claim_id VARCHAR PRIMARY KEY, doc_id VARCHAR, subject VARCHAR, metric VARCHAR, value DOUBLE,
    value_low DOUBLE, value_high DOUBLE, unit VARCHAR, qualifier VARCHAR, versus VARCHAR, setting VARCHAR,
    text VARCHAR, start INTEGER, "end" INTEGER, operator VARCHAR, confidence DOUBLE,
    sentence_start INTEGER, sentence_end INTEGER);
CREATE TABLE IF NOT EXISTS relations (
    relation_id VARCHAR PRIMARY KEY, subject_id VARCHAR, predicate VARCHAR, object_id VARCHAR, doc_id VARCHAR,
    start INTEGER, "end" INTEGER, operator VARCHAR, confidence DOUBLE);
CREATE TABLE IF NOT EXISTS runs (
    run_id VARCHAR PRIMARY KEY, source_uri VARCHAR, framework VARCHAR, status VARCHAR, model VARCHAR,
    world_size INTEGER, dp INTEGER, tp INTEGER, pp INTEGER, micro_batch_size INTEGER,
    global_batch_size INTEGER, job_id VARCHAR, started_at TIMESTAMP, ended_at TIMESTAMP, doc_id VARCHAR,
    hardware VARCHAR, config VARCHAR);
CREATE TABLE IF NOT EXISTS metrics (
    run_id VARCHAR, step BIGINT, name VARCHAR, value DOUBLE, rank INTEGER, ts TIMESTAMP, line_no BIGINT);
CREATE TABLE IF NOT EXISTS events (
    run_id VARCHAR, step BIGINT, kind VARCHAR, detail VARCHAR, line_no BIGINT, ts TIMESTAMP);
CREATE TABLE IF NOT EXISTS jobs (
    job_id VARCHAR PRIMARY KEY, name VARCHAR, spec VARCHAR, state VARCHAR, priority INTEGER,
    min_workers INTEGER, max_workers INTEGER, workers INTEGER, attempts INTEGER, submitted_at TIMESTAMP,
    started_at TIMESTAMP, finished_at TIMESTAMP, plan VARCHAR, error VARCHAR, owner VARCHAR,
    heartbeat_at TIMESTAMP);
CREATE TABLE IF NOT EXISTS allocations (
    job_id VARCHAR, "at" TIMESTAMP, workers INTEGER, plan VARCHAR, reason VARCHAR, source VARCHAR);
CREATE TABLE IF NOT EXISTS pipeline_runs (
    pipeline_run_id VARCHAR PRIMARY KEY, pipeline VARCHAR, status VARCHAR, n_in BIGINT, n_ok BIGINT,
    n_quarantined BIGINT, started_at TIMESTAMP, finished_at TIMESTAMP, address VARCHAR, n_records BIGINT,
    seconds DOUBLE);
CREATE TABLE IF NOT EXISTS quarantine (
    pipeline_run_id VARCHAR, source_uri VARCHAR, operator VARCHAR, error VARCHAR, "at" TIMESTAMP, level VARCHAR);
CREATE TABLE IF NOT EXISTS sim_runs (
    sim_id VARCHAR PRIMARY KEY, workload VARCHAR, policy VARCHAR, gpus INTEGER, n_jobs INTEGER,
    avg_jct DOUBLE, p50_jct DOUBLE, p99_jct DOUBLE, makespan DOUBLE, utilization DOUBLE, fairness DOUBLE,
    params VARCHAR, created_at TIMESTAMP, wall_s DOUBLE);
CREATE TABLE IF NOT EXISTS sim_jobs (
    sim_id VARCHAR, job_id VARCHAR, model VARCHAR, submit_time DOUBLE, start_time DOUBLE, finish_time DOUBLE,
    jct DOUBLE, queueing DOUBLE, num_gpus INTEGER, restarts INTEGER);
CREATE TABLE IF NOT EXISTS sim_allocations (
    sim_id VARCHAR, job_id VARCHAR, t DOUBLE, workers INTEGER, batch_size INTEGER, reason VARCHAR);
CREATE TABLE IF NOT EXISTS cost_model_fits (
    fit_id VARCHAR PRIMARY KEY, fitted_at TIMESTAMP, params VARCHAR, n_runs INTEGER, mape DOUBLE,
    holdout_mape DOUBLE);
CREATE TABLE IF NOT EXISTS units_written (
    unit_key VARCHAR PRIMARY KEY, pipeline_run_id VARCHAR, "at" TIMESTAMP);
"""

# 3: a claim's setting as columns (what a check needs; missing stays NULL, nothing is guessed), and the
# verdicts of the checks on claims: one row per claim and kind of evidence (runs, cost_model, reproduction).
SETTING_COLUMNS = (
    ("hardware", "VARCHAR"), ("gpus", "INTEGER"), ("nodes", "INTEGER"), ("interconnect", "VARCHAR"),
    ("model", "VARCHAR"), ("params_b", "DOUBLE"), ("seq_len", "INTEGER"), ("dp", "INTEGER"), ("tp", "INTEGER"),
    ("pp", "INTEGER"), ("micro_batch", "INTEGER"), ("global_batch", "INTEGER"), ("measure", "VARCHAR"),
    ("direction", "VARCHAR"),
)
_V3 = "".join(f"ALTER TABLE claims ADD COLUMN IF NOT EXISTS {c} {t};\n" for c, t in SETTING_COLUMNS) + """
CREATE TABLE IF NOT EXISTS claim_checks (
    check_id VARCHAR PRIMARY KEY, claim_id VARCHAR, kind VARCHAR, verdict VARCHAR, claimed DOUBLE,
    observed DOUBLE, low DOUBLE, high DOUBLE, unit VARCHAR, reason VARCHAR, evidence VARCHAR,
    checked_at TIMESTAMP);
"""

# 5: clusters that mix GPU types: a simulation's cluster (node pools by type) and the GPU type each job ran on
# in each allocation (NULL on a one-type cluster).
_V5 = """
ALTER TABLE sim_runs ADD COLUMN IF NOT EXISTS cluster VARCHAR;
ALTER TABLE sim_jobs ADD COLUMN IF NOT EXISTS gpu_type VARCHAR;
ALTER TABLE sim_allocations ADD COLUMN IF NOT EXISTS gpu_type VARCHAR;
"""

# 6: the GPU type a live job's workers were placed on (the node pool of a cluster that mixes GPU types,
# see assay.jobs._pools); NULL on a one-type cluster, as in the simulator's tables.
_V6 = "ALTER TABLE allocations ADD COLUMN IF NOT EXISTS gpu_type VARCHAR;"

# 7: the baseline a paper measures its own results against where a claim's statement names none (the claim's
# ``versus`` holds only a baseline the statement, its clause or its table names).
_V7 = "ALTER TABLE claims ADD COLUMN IF NOT EXISTS implied_versus VARCHAR;"

#: (version, SQL). Append only.
# 2: the section of the paper a claim was found in (abstract, introduction, evaluation, ...).
# 4: document versions: a changed file supersedes its older content, kept but left out of the current_*
#    views that every read query uses (see _versions). A migration that changes a versioned table's
#    columns needs nothing more: the views select ``t.*`` when a query runs.
MIGRATIONS: list[tuple[int, str]] = [
    (1, _V1),
    (2, "ALTER TABLE claims ADD COLUMN IF NOT EXISTS section VARCHAR;"),
    (3, _V3),
    (4, SCHEMA_4 + restate_sql("SELECT DISTINCT uri FROM document_versions") + ";\n"),
    (5, _V5),
    (6, _V6),
    (7, _V7),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]
