"""Document versions: a file read again after it changed replaces what the store knows of it.

``doc_id`` is the content hash, so an edited paper (or a log that grew) is a new document, and the old
version's rows stay in the tables. Nothing is deleted: the store records which content each source
``uri`` held in which pipeline run (``document_versions``), marks every document no longer the content of
any of its uris as superseded (``documents.superseded_by``, ``superseded_at``), and the read queries go
through the ``current_*`` views, which leave the superseded documents' rows out (its claims, mentions,
relations, and the runs read from it with their metrics and events).

The rule, per uri: the documents current at a uri are those seen there by the latest pipeline run that
read it; a document is current while it is current at one of its uris. It depends only on what runs saw,
never on the order records reach the writer, so

- an unchanged file is seen again and stays current (its rows are not written twice: exactly once);
- a file moved back to an earlier content brings that version back (its rows exist, nothing is written);
- the same content in two files stays current while one of them still holds it;
- a collection of abstracts whose rows moved (``file.jsonl#3`` now ``#4``) keeps every abstract it
  still holds, whatever the order the flushes of the run came in.

A file from before versions (schema < 4) opened read-only has no views: ``plain`` reads the tables.
"""

from __future__ import annotations

import re

#: Tables whose rows belong to a document version, directly (``doc_id``) or through a run's ``doc_id``.
#: Each has a view ``current_<table>`` without the rows of superseded documents.
VERSIONED = ("documents", "claims", "mentions", "relations", "runs", "metrics", "events")

_SUPERSEDED_DOC = "SELECT 1 FROM documents d WHERE d.doc_id = {alias}.doc_id AND d.superseded_by IS NOT NULL"
_SUPERSEDED_RUN = (
    "SELECT 1 FROM runs r JOIN documents d ON d.doc_id = r.doc_id "
    "WHERE r.run_id = {alias}.run_id AND d.superseded_by IS NOT NULL"
)


def _view(table: str) -> str:
    if table == "documents":
        where = "superseded_by IS NULL"
    elif table in ("metrics", "events"):
        where = f"NOT EXISTS ({_SUPERSEDED_RUN.format(alias='t')})"
    else:  # rows without a document (a run a job recorded) are current
        where = f"NOT EXISTS ({_SUPERSEDED_DOC.format(alias='t')})"
    return f"CREATE OR REPLACE VIEW current_{table} AS SELECT t.* FROM {table} t WHERE {where};\n"


#: The ``current_*`` views. ``SELECT t.*`` is bound when a query runs, so columns added later show.
VIEWS = "".join(_view(t) for t in VERSIONED)

#: Schema 4: the version columns, the table of what each uri held in each run, the views, and the
#: versions an older file already holds (each document seen at its stored uri by the run that wrote it;
#: documents written outside a pipeline run count as their own run), then their states.
SCHEMA_4 = """
ALTER TABLE documents ADD COLUMN IF NOT EXISTS superseded_by VARCHAR;
ALTER TABLE documents ADD COLUMN IF NOT EXISTS superseded_at TIMESTAMP;
CREATE TABLE IF NOT EXISTS document_versions (
    uri VARCHAR, doc_id VARCHAR, pipeline_run_id VARCHAR, seen_at TIMESTAMP, PRIMARY KEY (uri, doc_id));
INSERT OR IGNORE INTO document_versions
    SELECT uri, doc_id, coalesce(pipeline_run_id, 'document:' || doc_id),
           coalesce(ingested_at, TIMESTAMP '1970-01-01')
    FROM documents WHERE uri IS NOT NULL;
""" + VIEWS


def restate_sql(uris: str) -> str:
    """SQL that brings ``documents.superseded_by``/``superseded_at`` up to date for every document seen at
    one of the uris that the relation ``uris`` (one column ``uri``) lists, and at any other uri of theirs.
    ``superseded_by`` names a document current at one of its uris (the one with the smallest id, so the
    result is the same whatever the order); ``superseded_at`` keeps the time it was first superseded."""
    return f"""
    UPDATE documents SET
        superseded_by = s.head,
        superseded_at = CASE WHEN s.head IS NULL THEN NULL
                             ELSE coalesce(documents.superseded_at, now() AT TIME ZONE 'UTC') END
    FROM (
        WITH affected AS (SELECT DISTINCT v.doc_id FROM document_versions v JOIN ({uris}) u ON u.uri = v.uri),
             their_uris AS (SELECT DISTINCT v.uri FROM document_versions v JOIN affected USING (doc_id)),
             latest AS (SELECT v.uri, arg_max(v.pipeline_run_id, v.seen_at) AS run
                        FROM document_versions v JOIN their_uris USING (uri) GROUP BY v.uri),
             heads AS (SELECT v.uri, min(v.doc_id) AS head FROM document_versions v
                       JOIN latest l ON l.uri = v.uri AND l.run = v.pipeline_run_id GROUP BY v.uri)
        SELECT v.doc_id,
               CASE WHEN bool_or(v.pipeline_run_id = l.run) THEN NULL ELSE min(h.head) END AS head
        FROM document_versions v JOIN affected USING (doc_id) JOIN latest l USING (uri) JOIN heads h USING (uri)
        GROUP BY v.doc_id
    ) s
    WHERE documents.doc_id = s.doc_id AND documents.superseded_by IS DISTINCT FROM s.head"""


def changed_uris_sql(seen: str) -> str:
    """SQL of the uris of the sightings in the relation ``seen`` (``uri``, ``doc_id``) whose documents' states
    may change: another document was seen at the uri before, or the document seen is superseded now (it was
    moved back, or it moved to this uri inside its collection). Every other sighting is a new file or an
    unchanged one, whose document is current and stays so: it is only recorded, and a uri only ever seen
    with one document needs no newer run either (its document is current there whichever run saw it)."""
    return f"""
    SELECT DISTINCT s.uri FROM {seen} s
    WHERE EXISTS (SELECT 1 FROM document_versions v WHERE v.uri = s.uri AND v.doc_id <> s.doc_id)
       OR EXISTS (SELECT 1 FROM documents d WHERE d.doc_id = s.doc_id AND d.superseded_by IS NOT NULL)"""


_CURRENT = re.compile(r"\bcurrent_(" + "|".join(VERSIONED) + r")\b")


def plain(query: str) -> str:
    """``query`` on the tables instead of the ``current_*`` views: how a file from before versions (schema
    < 4, opened read-only and so never migrated) is read; it has no superseded rows to leave out."""
    return _CURRENT.sub(r"\1", query)


def missing_views(error: Exception) -> bool:
    """Whether a query failed because the file has no ``current_*`` views (it predates schema 4)."""
    return "current_" in str(error) and "does not exist" in str(error)


def current(table: str) -> str:
    """The relation a read query uses for ``table``: its ``current_*`` view if it is versioned, else itself."""
    return f"current_{table}" if table in VERSIONED else table
