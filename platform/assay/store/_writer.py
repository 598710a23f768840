"""The one table writer: every write to the database goes through a :class:`Transaction`.

A transaction is one short unit of work on a connection opened for it alone (see ``_connection``): rows of
several tables, the exactly-once bookkeeping of a pipeline's units of work, a run's rewind after a restart,
a job's conditional state change. Everything in it lands together or not at all. ``write_rows``,
``rewind_run`` and ``set_state_if`` are the one-call forms callers use most. A pipeline's flush also
records the document versions it read (``see_documents``), so a changed file supersedes its old rows.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import duckdb
import pyarrow as pa

from assay.clock import utc_now
from assay.store._connection import connect
from assay.store._schema import PRIMARY_KEYS, TABLES
from assay.store._versions import changed_uris_sql, restate_sql

Rows = Sequence[Mapping[str, Any]] | Mapping[str, Sequence[Any]] | pa.Table


def to_arrow(table: str, rows: Rows | Iterable[Rows]) -> pa.Table | None:
    """Rows (a list of dicts, a dict of columns or an Arrow table) as an Arrow table of ``table``'s columns.

    Fields that are not columns of ``table`` are dropped; missing columns are null.
    """
    columns = TABLES[table]
    if isinstance(rows, pa.Table):
        present = [c for c in columns if c in rows.column_names]
        out = rows.select(present)
        for c in columns:
            if c not in present:
                out = out.append_column(c, pa.nulls(len(out)))
        return out.select(list(columns)) if len(out) else None
    if isinstance(rows, Mapping):
        n = max((len(v) for v in rows.values()), default=0)
        data = {c: list(rows[c]) if c in rows else [None] * n for c in columns}
        return pa.table(data) if n else None
    rows = list(rows)
    if not rows:
        return None
    data = {c: [r.get(c) for r in rows] for c in columns}
    for c, values in data.items():
        # Lists of names (aliases) and dict configs are stored as given / as JSON text.
        if values and any(isinstance(v, dict) for v in values):
            data[c] = [json.dumps(v, sort_keys=True, default=str) if isinstance(v, dict) else v for v in values]
    return pa.table(data)


def _insert(con: duckdb.DuckDBPyConnection, table: str, arrow: pa.Table | None) -> int:
    """Insert ``arrow`` into ``table``; rows whose key exists are skipped."""
    if arrow is None or len(arrow) == 0:
        return 0
    name = f"_assay_in_{table}"
    with registered(con, name, arrow):
        cols = ", ".join(f'"{c}"' for c in arrow.column_names)
        if table in PRIMARY_KEYS:
            # DuckDB refuses two rows with one key in the same statement: keep the first of each key.
            key = ", ".join(f'"{c}"' for c in PRIMARY_KEYS[table])
            con.execute(f"INSERT OR IGNORE INTO {table} ({cols}) SELECT {cols} FROM {name} "
                        f"QUALIFY row_number() OVER (PARTITION BY {key}) = 1")
        else:
            # Keyless rows (metrics, events) carry their own order (step, line): inserting them without
            # keeping the source's order lets DuckDB use every thread, a quarter faster for millions of rows.
            # (Reset after a success only, as ``registered`` unregisters.)
            con.execute("SET preserve_insertion_order = false")
            con.execute(f"INSERT INTO {table} ({cols}) SELECT {cols} FROM {name}")
            con.execute("RESET preserve_insertion_order")
    return len(arrow)


def _delete_keys(con: duckdb.DuckDBPyConnection, table: str, arrow: pa.Table) -> None:
    key = PRIMARY_KEYS[table]
    name = f"_assay_del_{table}"
    with registered(con, name, arrow.select(list(key))):
        cond = " AND ".join(f't."{k}" = d."{k}"' for k in key)
        con.execute(f"DELETE FROM {table} t WHERE EXISTS (SELECT 1 FROM {name} d WHERE {cond})")


class Transaction:
    """Writes inside one open transaction (from :func:`transaction`); nothing is visible to other
    processes until the block ends, and an exception anywhere in the block undoes all of it."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self._con = con

    def insert(self, table: str, rows: Rows | None) -> int:
        """Add rows (dicts, a dict of columns or an Arrow table); rows whose key exists are skipped."""
        return _insert(self._con, table, None if rows is None else to_arrow(table, rows))

    def upsert(self, table: str, rows: Rows | None) -> int:
        """Add rows, replacing existing rows with the same key (state that changes, such as a job's row)."""
        arrow = None if rows is None else to_arrow(table, rows)
        if arrow is None:
            return 0
        _delete_keys(self._con, table, arrow)
        return _insert(self._con, table, arrow)

    def write(self, tables: Mapping[str, Rows], upsert: Iterable[str] = ()) -> dict[str, int]:
        """Rows for several tables; tables named in ``upsert`` replace rows with the same key."""
        upsert = set(upsert)
        counts = {}
        for table, rows in tables.items():
            n = self.upsert(table, rows) if table in upsert else self.insert(table, rows)
            if n:
                counts[table] = n
        return counts

    def claim_units(self, keys: Sequence[str], pipeline_run_id: str) -> set[str]:
        """The exactly-once protocol of pipeline runs: of these units of work (a document or a chunk of a
        file, within one pipeline's scope), the ones no earlier transaction wrote, now marked as written
        by ``pipeline_run_id``. The caller writes only those units' rows in the same transaction, so a
        retried task or a re-run never writes a unit twice, and a failed write leaves the unit unwritten."""
        keys = list(dict.fromkeys(keys))
        if not keys:
            return set()
        with registered(self._con, "_assay_units", pa.table({"unit_key": keys})):
            done = {k for (k,) in self._con.execute(
                "SELECT unit_key FROM units_written JOIN _assay_units USING (unit_key)").fetchall()}
        fresh = [k for k in keys if k not in done]
        now = utc_now()
        _insert(self._con, "units_written", pa.table({
            "unit_key": fresh,
            "pipeline_run_id": [pipeline_run_id] * len(fresh),
            "at": pa.array([now] * len(fresh), pa.timestamp("us")),
        }))
        return set(fresh)

    def see_documents(self, seen: Iterable[tuple[str, str]], pipeline_run_id: str) -> None:
        """Record that this pipeline run read these ``(doc_id, uri)`` pairs (every document of the flush,
        written now or before), and bring the superseded marks of the documents at those uris up to date:
        a file whose content changed supersedes its older version, one moved back brings that version back.
        The rule and the reasons are in ``_versions``."""
        pairs = list(dict.fromkeys((str(d), str(u)) for d, u in seen if d and u))
        if not pairs:
            return
        now = utc_now()
        arrow = pa.table({
            "uri": [u for _, u in pairs],
            "doc_id": [d for d, _ in pairs],
            "pipeline_run_id": [pipeline_run_id] * len(pairs),
            "seen_at": pa.array([now] * len(pairs), pa.timestamp("us")),
        })
        with registered(self._con, "_assay_seen", arrow):
            # Most flushes change nothing (new files, unchanged files): their sightings are only added.
            changed = self._con.execute(changed_uris_sql("_assay_seen")).fetchall()
            self._con.execute("INSERT OR IGNORE INTO document_versions SELECT * FROM _assay_seen")
            if not changed:
                return
            with registered(self._con, "_assay_changed", pa.table({"uri": [u for (u,) in changed]})):
                self._con.execute(
                    "UPDATE document_versions v SET pipeline_run_id = s.pipeline_run_id, seen_at = s.seen_at "
                    "FROM _assay_seen s WHERE v.uri = s.uri AND v.doc_id = s.doc_id "
                    "AND s.uri IN (SELECT uri FROM _assay_changed)"
                )
                self._con.execute(restate_sql("SELECT uri FROM _assay_changed"))

    def delete_where(self, table: str, column: str, values: Sequence[Any]) -> None:
        """Delete the rows of ``table`` whose ``column`` is one of ``values``: keyless child rows replaced
        with their parent in the same transaction (a re-run simulation's jobs and allocations)."""
        if table not in TABLES or column not in TABLES[table]:
            raise ValueError(f"no column {column!r} in a table {table!r} of the store")
        values = list(values)
        if values:
            self._con.execute(f'DELETE FROM {table} WHERE "{column}" IN ({", ".join("?" * len(values))})', values)

    def rewind_metrics(self, run_id: str, after_step: int) -> None:
        """Delete a run's metrics after ``after_step``: the steps a restart from the checkpoint at
        ``after_step`` trains again, so the series never holds a step twice."""
        self._con.execute("DELETE FROM metrics WHERE run_id = ? AND step > ?", [run_id, after_step])

    def set_state_if(self, job_id: str, state: str, expected: str) -> bool:
        """Move a job to ``state`` only if it is still in ``expected``; True if it moved."""
        rows = self._con.execute("UPDATE jobs SET state = ? WHERE job_id = ? AND state = ? RETURNING job_id",
                                 [str(state), job_id, str(expected)]).fetchall()
        return bool(rows)


@contextmanager
def transaction(path: str | os.PathLike[str] | None = None) -> Iterator[Transaction]:
    """Open the database for one unit of work and yield its :class:`Transaction`: committed when the block
    ends, rolled back (and the exception raised) when it fails."""
    with connect(path) as con:
        con.execute("BEGIN TRANSACTION")
        try:
            yield Transaction(con)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise


def write_rows(
    path: str | os.PathLike[str] | None,
    tables: Mapping[str, Rows],
    *,
    upsert: Iterable[str] = (),
) -> dict[str, int]:
    """Write rows for several tables in one transaction. Tables named in ``upsert`` replace existing
    rows with the same key (for state that changes, such as a job's row); the rest skip existing keys."""
    with transaction(path) as tx:
        return tx.write(tables, upsert)


def rewind_run(path: str | os.PathLike[str] | None, run_id: str, after_step: int,
               tables: Mapping[str, Rows] | None = None, *, upsert: Iterable[str] = ()) -> None:
    """Delete a run's metrics after ``after_step`` (a restart from the checkpoint at that step) and write
    ``tables`` in the same transaction."""
    with transaction(path) as tx:
        tx.rewind_metrics(run_id, after_step)
        tx.write(tables or {}, upsert)


def set_state_if(path: str | os.PathLike[str] | None, job_id: str, state: str, expected: str) -> bool:
    """Move a job to ``state`` only if it is still in ``expected`` (so a cancel or a start written meanwhile
    is never overwritten); True if it moved."""
    with transaction(path) as tx:
        return tx.set_state_if(job_id, state, expected)


@contextmanager
def registered(con: duckdb.DuckDBPyConnection, name: str, arrow: pa.Table) -> Iterator[None]:
    """``arrow`` visible to SQL as ``name`` inside the block. Unregistered after a success only: a failed
    statement aborts the transaction, where unregistering fails too and would hide the statement's own
    error; every caller then rolls back and closes the connection, which drops the view."""
    con.register(name, arrow)
    yield
    con.unregister(name)
