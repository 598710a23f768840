"""The verdicts of the checks on claims (``claim_checks``, written by ``assay check``)."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

from assay.store._read import PathLike, _aliases, _in, normalise, read
from assay.store.queries_runs import SPEED_METRICS, run_summaries

#: The kinds of evidence, in the order they are shown.
CHECK_KINDS: tuple[str, ...] = ("runs", "cost_model", "reproduction")
#: Every verdict a check can give.
VERDICTS: tuple[str, ...] = ("consistent", "contradicted", "implausible", "untestable")

_CHECK_COLUMNS = "check_id, claim_id, kind, verdict, claimed, observed, low, high, unit, reason, evidence, checked_at"


def _has_checks(db: PathLike) -> bool:
    # A file written before the checks existed (schema 2) is read as it is: the dashboard never migrates.
    df = read(db, "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'claim_checks'")
    return bool(df["n"].iloc[0])


def verdict_counts(db: PathLike) -> pd.DataFrame:
    """Checks per kind and verdict (``kind``, ``verdict``, ``n``); empty before the first ``assay check``."""
    if not _has_checks(db):
        return pd.DataFrame({"kind": [], "verdict": [], "n": []})
    return read(db, "SELECT kind, verdict, count(*) AS n FROM claim_checks GROUP BY 1, 2 ORDER BY 1, 2")


def claims_checked(db: PathLike) -> int:
    """How many claims carry at least one verdict other than ``untestable``."""
    if not _has_checks(db):
        return 0
    df = read(db, "SELECT count(DISTINCT claim_id) AS n FROM claim_checks WHERE verdict <> 'untestable'")
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
_SETTING_COLUMNS = """claim_id, doc_id, subject, metric, value, value_low, value_high, unit, qualifier, versus,
    text, hardware, gpus, nodes, interconnect, model, params_b, seq_len, dp, tp, pp, micro_batch, global_batch,
    measure, direction"""


def claims_to_check(db: PathLike, claim_ids: list[str] | tuple[str, ...] | None = None) -> pd.DataFrame:
    """Claims with their structured setting: those in ``claim_ids``, or all of them."""
    if claim_ids is None:
        return read(db, f"SELECT {_SETTING_COLUMNS} FROM claims ORDER BY claim_id")
    ids = list(claim_ids)
    return read(db, f"SELECT {_SETTING_COLUMNS} FROM claims WHERE claim_id IN {_in(ids)} ORDER BY claim_id", ids)


def measured_runs(db: PathLike) -> pd.DataFrame:
    """Every run with its setting and the median of each speed metric (``run_summaries`` of all runs)."""
    ids = read(db, "SELECT run_id FROM runs")["run_id"].tolist()
    return run_summaries(db, ids) if ids else pd.DataFrame(columns=["run_id", *SPEED_METRICS])


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
