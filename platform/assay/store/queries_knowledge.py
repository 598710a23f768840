"""What the knowledge graph holds: the database's state, rows per table, entities (search, one entity, its
claims, its neighbours, the runs it names) and documents."""

from __future__ import annotations

from typing import Any, Literal

import pandas as pd

from assay.store._read import NoDatabase, PathLike, _aliases, _in, _search, normalise, read
from assay.store._versions import current
from assay.store.queries_runs import RUN_COLUMNS

# ---------------------------------------------------------------------------------------------- status


def database_state(db: PathLike) -> Literal["missing", "no-schema", "ready"]:
    """Whether ``db`` exists and carries assay's schema, without creating anything."""
    try:
        n = read(db, "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'claims'")
    except NoDatabase:
        return "missing"
    return "ready" if n["n"].iloc[0] else "no-schema"


def table_counts(db: PathLike) -> dict[str, int]:
    """Rows per table, for the overview and the empty states (the tables of documents without their
    superseded versions)."""
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
    union = " UNION ALL ".join(f"SELECT '{t}' AS t, count(*) AS n FROM {current(t)}" for t in tables)
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
        "sum(n_bytes) AS bytes FROM current_documents GROUP BY 1 ORDER BY 2 DESC",
    )


# ------------------------------------------------------------------------------------------- knowledge


def search_entities(
    db: PathLike, text: str | None = None, types: list[str] | None = None, limit: int = 50
) -> pd.DataFrame:
    """Entities whose name or an alias contains ``text`` (literally, ignoring case), most mentioned first.
    An entity only superseded document versions mention (a name an edit removed) is left out; one that no
    document mentions (a gazetteer's or a job's) is listed."""
    needle = _search(text).casefold()
    clauses, params = ["e.entity_id NOT IN (SELECT entity_id FROM gone)"], []
    if needle:
        clauses.append(
            "(strpos(lower(e.name), ?) > 0 OR "
            "len(list_filter(coalesce(e.aliases, []), lambda a: strpos(lower(a), ?) > 0)) > 0)"
        )
        params += [needle, needle]
    if types:
        clauses.append(f"e.type IN {_in(types)}")
        params += list(types)
    where = "WHERE " + " AND ".join(clauses)
    return read(
        db,
        f"""
        WITH m AS (SELECT entity_id, count(*) AS mentions, count(DISTINCT doc_id) AS documents
                   FROM current_mentions GROUP BY 1),
             gone AS (SELECT entity_id FROM mentions EXCEPT SELECT entity_id FROM m)
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



def most_claimed_entity(db: PathLike, type_: str | None = "system") -> str | None:
    """The entity (of ``type_``, or of any type for None) that the most claims name as their subject,
    matched by name or alias as ``entity_claims`` matches them; None when no claim names one.

    The Knowledge page opens on it: the most mentioned entity is often a GPU that no claim is about.
    """
    subjects = read(
        db, "SELECT subject, count(*) AS n FROM current_claims WHERE subject IS NOT NULL GROUP BY 1"
    )
    per_spelling: dict[str, int] = {}
    for subject, n in zip(subjects["subject"], subjects["n"], strict=True):
        key = normalise(subject)
        per_spelling[key] = per_spelling.get(key, 0) + int(n)
    where, params = ("WHERE type = ?", [type_]) if type_ else ("", [])
    entities = read(db, f"SELECT entity_id, name, aliases FROM entities {where} ORDER BY name, entity_id", params)
    best, best_n = None, 0
    for row in entities.to_dict("records"):
        row["aliases"] = _aliases(row.get("aliases"))
        n = sum(per_spelling.get(s, 0) for s in _spellings(row))
        if n > best_n:
            best, best_n = row["entity_id"], n
    return best


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
    subjects = _raw_matching(db, "subject", "current_claims", spellings)
    baselines = _raw_matching(db, "versus", "current_claims", spellings)
    # the baseline a claim's sentence leaves out and its paper names (``implied_versus``): a claim against it too
    implied = _raw_matching(db, "implied_versus", "current_claims", spellings)
    if not subjects and not baselines and not implied:
        return pd.DataFrame()
    return read(
        db,
        f"""
        WITH c AS (
            SELECT *, CASE WHEN subject IN {_in(subjects)} THEN 'subject' ELSE 'baseline' END AS role,
                   greatest(0, coalesce(sentence_start, start - ?)) AS ctx_start,
                   coalesce(sentence_end, "end" + ?) AS ctx_end
            FROM current_claims WHERE subject IN {_in(subjects)} OR versus IN {_in(baselines)}
                 OR (versus IS NULL AND implied_versus IN {_in(implied)}))
        SELECT c.claim_id, c.role, c.subject, c.metric, c.value, c.value_low, c.value_high, c.unit, c.versus,
               c.implied_versus, c.setting, c.qualifier, c.text, c.start, c."end", c.confidence, c.doc_id,
               d.title, d.uri, c.ctx_start, substr(d.text, c.ctx_start + 1, c.ctx_end - c.ctx_start) AS context
        FROM c LEFT JOIN current_documents d USING (doc_id)
        ORDER BY c.role DESC, c.confidence DESC NULLS LAST, c.claim_id LIMIT ?""",
        [*subjects, int(context_chars), int(context_chars), *subjects, *baselines, *implied, int(limit)],
    )


def entity_neighbours(db: PathLike, entity_id: str, limit: int = 25) -> pd.DataFrame:
    """Entities linked to ``entity_id``: by a relation (with its predicate) or by co-mention in documents."""
    return read(
        db,
        """
        WITH rel AS (
            SELECT CASE WHEN subject_id = $id THEN object_id ELSE subject_id END AS other,
                   predicate, subject_id = $id AS outgoing, count(*) AS weight
            FROM current_relations WHERE (subject_id = $id OR object_id = $id) AND subject_id <> object_id
            GROUP BY ALL),
        docs AS (SELECT DISTINCT doc_id FROM current_mentions WHERE entity_id = $id),
        co AS (SELECT m.entity_id AS other, count(DISTINCT m.doc_id) AS weight
               FROM current_mentions m JOIN docs USING (doc_id) WHERE m.entity_id <> $id
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
    runs = read(db, f"SELECT {RUN_COLUMNS} FROM current_runs ORDER BY started_at DESC NULLS LAST")
    if runs.empty:
        return runs
    used = pd.Series(False, index=runs.index)
    for column in ("framework", "model", "hardware"):
        used |= runs[column].map(normalise).isin(spellings)
    return runs[used].reset_index(drop=True)
