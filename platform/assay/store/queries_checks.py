"""The verdicts of the checks on claims (``claim_checks``, written by ``assay check``)."""

from __future__ import annotations

import json
from typing import Any

import duckdb
import pandas as pd

from assay.store._read import PathLike, _aliases, _in, normalise, read
from assay.store._schema import SETTING_COLUMNS
from assay.store.queries_runs import SPEED_METRICS, run_summaries

#: The kinds of evidence, in the order they are shown.
CHECK_KINDS: tuple[str, ...] = ("runs", "cost_model", "reproduction")
#: Every verdict a check can give.
VERDICTS: tuple[str, ...] = ("consistent", "contradicted", "implausible", "inconclusive", "untestable")
#: Verdicts from the worst news for a claim to the least informative: a claim's overall verdict is the first
#: of these that any kind of evidence gave it (contradicted by one kind outweighs consistent with another;
#: inconclusive, evidence too noisy to decide, says more than untestable, no evidence at all).
SEVERITY: tuple[str, ...] = ("contradicted", "implausible", "consistent", "inconclusive", "untestable")
#: The filter value for claims without a verdict (of the kinds asked about).
UNCHECKED = "unchecked"

_CHECK_COLUMNS = "check_id, claim_id, kind, verdict, claimed, observed, low, high, unit, reason, evidence, checked_at"


def _has_checks(db: PathLike) -> bool:
    # A file written before the checks existed (schema 2) is read as it is: the dashboard never migrates.
    df = read(db, "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'claim_checks'")
    return bool(df["n"].iloc[0])


def has_checks(db: PathLike) -> bool:
    """Whether the file has the ``claim_checks`` table (a file from before schema 3 has not)."""
    return _has_checks(db)


def checks_relation(present: bool) -> str:
    """SQL of the checks as the claims queries read them (``claim_id``, ``kind``, ``verdict``,
    ``checked_at``): the table, or, on a file from before it (``present`` false), no rows of the same
    columns, so a query over it runs unchanged."""
    if not present:
        return (
            "SELECT NULL::VARCHAR AS claim_id, NULL::VARCHAR AS kind, NULL::VARCHAR AS verdict, "
            "NULL::TIMESTAMP AS checked_at WHERE false"
        )
    return "SELECT claim_id, kind, verdict, checked_at FROM claim_checks"


#: The checks' claims that are current: a superseded document version's verdicts are kept, not counted.
_OF_CURRENT = "claim_id IN (SELECT claim_id FROM current_claims)"

#: SQL of a verdict's rank in ``SEVERITY``: 5 for contradicted ... 1 for untestable, NULL for one unknown.
SEVERITY_SQL = (
    "CASE verdict " + " ".join(f"WHEN '{v}' THEN {len(SEVERITY) - i}" for i, v in enumerate(SEVERITY)) + " END"
)


def verdict_pivot(checks: str = "claim_checks", where: str = "") -> str:
    """SQL of one row per checked claim: ``claim_id``, ``verdict_<kind>`` for each of ``CHECK_KINDS`` (the
    latest check of that kind), ``verdict`` (the worst, see ``SEVERITY``) and ``severity`` (its rank).
    ``checks``: the relation to read (a table name, or a CTE such as one from ``checks_relation``);
    ``where``: a condition on it (e.g. only the claims of one page, which keeps the pivot small)."""
    per_kind = ", ".join(
        f"arg_max(verdict, checked_at) FILTER (WHERE kind = '{k}') AS verdict_{k}" for k in CHECK_KINDS
    )
    return (
        f"SELECT claim_id, {per_kind}, arg_max(verdict, {SEVERITY_SQL}) AS verdict, "
        f"max({SEVERITY_SQL}) AS severity FROM {checks} {'WHERE ' + where if where else ''} GROUP BY claim_id"
    )


def claim_verdict_counts(db: PathLike) -> pd.DataFrame:
    """Claims per overall verdict (``verdict``, ``claims``), in ``VERDICTS`` order, verdicts with no claim
    left out; empty before the first ``assay check``."""
    if not _has_checks(db):
        return pd.DataFrame({"verdict": [], "claims": []})
    df = read(db, f"SELECT verdict, count(*) AS claims FROM ({verdict_pivot(where=_OF_CURRENT)}) GROUP BY 1")
    order = {v: i for i, v in enumerate(VERDICTS)}
    return df.sort_values("verdict", key=lambda s: s.map(order)).reset_index(drop=True)


def verdict_counts(db: PathLike) -> pd.DataFrame:
    """Checks per kind and verdict (``kind``, ``verdict``, ``n``); empty before the first ``assay check``."""
    if not _has_checks(db):
        return pd.DataFrame({"kind": [], "verdict": [], "n": []})
    return read(db, f"SELECT kind, verdict, count(*) AS n FROM claim_checks WHERE {_OF_CURRENT} "
                    "GROUP BY 1, 2 ORDER BY 1, 2")


def claims_checked(db: PathLike) -> int:
    """How many claims carry at least one verdict other than ``untestable``."""
    if not _has_checks(db):
        return 0
    df = read(db, f"SELECT count(DISTINCT claim_id) AS n FROM claim_checks WHERE verdict <> 'untestable' "
                  f"AND {_OF_CURRENT}")
    return int(df["n"].iloc[0])


def checks_of(db: PathLike, claim_id: str) -> pd.DataFrame:
    """Every check of one claim, in ``CHECK_KINDS`` order, with its evidence decoded from JSON."""
    if not _has_checks(db):
        return pd.DataFrame(columns=_CHECK_COLUMNS.split(", "))
    df = read(db, f"SELECT {_CHECK_COLUMNS} FROM claim_checks WHERE claim_id = ?", [claim_id])
    df["evidence"] = [_decode(e) for e in df["evidence"]]
    order = {k: i for i, k in enumerate(CHECK_KINDS)}
    return df.sort_values("kind", key=lambda s: s.map(order)).reset_index(drop=True)


def verdicts_of(db: PathLike, claim_ids: list[str] | tuple[str, ...]) -> pd.DataFrame:
    """One row per claim in ``claim_ids`` with a column per kind of evidence (its verdict, or None)."""
    columns = ["claim_id", *CHECK_KINDS]
    if not claim_ids or not _has_checks(db):
        return pd.DataFrame(columns=columns)
    ids = list(claim_ids)
    df = read(db, f"SELECT claim_id, kind, verdict FROM claim_checks WHERE claim_id IN {_in(ids)}", ids)
    if df.empty:
        return pd.DataFrame(columns=columns)
    wide = df.pivot_table(index="claim_id", columns="kind", values="verdict", aggfunc="first").reset_index()
    for kind in CHECK_KINDS:
        if kind not in wide.columns:
            wide[kind] = None
    return wide[columns]


def _decode(text: Any) -> dict[str, Any]:
    if not isinstance(text, str) or not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


# -- what the checker reads ----------------------------------------------------------------------------
_CLAIM_COLUMNS = "claim_id, doc_id, subject, metric, value, value_low, value_high, unit, qualifier, versus, text"


def setting_columns(present: bool) -> str:
    """The claims' setting columns (schema 3) as SQL, or, on a file from before them (``present`` false),
    NULLs of their types under their names, so a query over them runs unchanged."""
    return ", ".join(column if present else f"NULL::{kind} AS {column}" for column, kind in SETTING_COLUMNS)


def claims_to_check(db: PathLike, claim_ids: list[str] | tuple[str, ...] | None = None) -> pd.DataFrame:
    """Claims with their structured setting: those in ``claim_ids``, or all of them. A file from before the
    settings existed is read as it is, its settings empty (the checks then go by the claims' metric words)."""
    ids = None if claim_ids is None else list(claim_ids)
    where = "" if ids is None else f"WHERE claim_id IN {_in(ids)}"

    def query(present: bool, implied: bool = True) -> pd.DataFrame:
        # the baseline a paper implies where the statement names none (schema 7), NULL on a file from before it
        implied_column = "implied_versus" if implied else "NULL::VARCHAR AS implied_versus"
        return read(db, f"SELECT {_CLAIM_COLUMNS}, {implied_column}, {setting_columns(present)} FROM current_claims "
                        f"{where} ORDER BY claim_id", ids)

    try:
        return query(True)
    except duckdb.BinderException:
        try:
            return query(True, implied=False)
        except duckdb.BinderException:
            if has_checks(db):  # the settings came with the checks (schema 3): this is another error
                raise
            return query(False, implied=False)


def measured_runs(db: PathLike) -> pd.DataFrame:
    """Every run with its setting and the median of each speed metric (``run_summaries`` of all runs)."""
    runs = run_summaries(db, None)
    return runs if not runs.empty else pd.DataFrame(columns=["run_id", *SPEED_METRICS])


def name_spellings(db: PathLike) -> dict[str, frozenset[str]]:
    """Each known spelling of an entity (as ``name_key`` gives it) -> every spelling of that entity, so a
    paper's "Megatron-LM" meets a log's ``megatron_lm`` and an alias the gazetteer lists."""
    out: dict[str, frozenset[str]] = {}
    for name, aliases in read(db, "SELECT name, aliases FROM entities").itertuples(index=False):
        keys = frozenset(k for k in (name_key(s) for s in [name, *_aliases(aliases)]) if k)
        for key in keys:
            out[key] = out.get(key, frozenset()) | keys
    return out


def name_key(name: Any) -> str:
    """A name as compared across papers and logs (case, spaces and punctuation ignored)."""
    return normalise(name)


def metric_series(db: PathLike, name: str, run_ids: list[str] | None = None) -> dict[str, list[float]]:
    """Each run's finite values of one metric in step order (rank 0 or an unranked line, where global speed
    is logged), for the intervals of the checks: run_id -> values. ``run_ids`` None: every run."""
    chosen, ids = (f"AND run_id IN {_in(run_ids)}", list(run_ids)) if run_ids else ("", [])
    if run_ids is not None and not run_ids:
        return {}
    df = read(db, f"SELECT run_id, value FROM current_metrics WHERE name = ? AND isfinite(value) "
                  f"AND coalesce(rank, 0) = 0 {chosen} ORDER BY run_id, step", [name, *ids])
    out: dict[str, list[float]] = {}
    for run_id, value in df.itertuples(index=False):
        out.setdefault(str(run_id), []).append(float(value))
    return out
