"""Batch writes: rows for several tables in one short transaction, exactly once per unit of work."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import duckdb
import pyarrow as pa

from assay.store._connection import connect
from assay.store._schema import PRIMARY_KEYS, TABLES

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
            import json

            data[c] = [json.dumps(v, sort_keys=True, default=str) if isinstance(v, dict) else v for v in values]
    return pa.table(data)


def insert(con: duckdb.DuckDBPyConnection, table: str, arrow: pa.Table) -> int:
    """Insert ``arrow`` into ``table`` on an open connection; rows whose key exists are skipped."""
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


def write_rows(
    path: str | os.PathLike[str] | None,
    tables: Mapping[str, Rows],
    *,
    upsert: Iterable[str] = (),
) -> dict[str, int]:
    """Write rows for several tables in one transaction. Tables named in ``upsert`` replace existing
    rows with the same key (for state that changes, such as a job's row); the rest skip existing keys."""
    counts: dict[str, int] = {}
    upsert = set(upsert)
    with connect(path) as con:
        con.execute("BEGIN TRANSACTION")
        try:
            for table, rows in tables.items():
                arrow = to_arrow(table, rows)
                if arrow is None:
                    continue
                if table in upsert:
                    _delete_keys(con, table, arrow)
                counts[table] = insert(con, table, arrow)
            con.execute("COMMIT")
        except Exception:
            con.execute("ROLLBACK")
            raise
    return counts


def _delete_keys(con: duckdb.DuckDBPyConnection, table: str, arrow: pa.Table) -> None:
    key = PRIMARY_KEYS[table]
    name = f"_assay_del_{table}"
    with registered(con, name, arrow.select(list(key))):
        cond = " AND ".join(f't."{k}" = d."{k}"' for k in key)
        con.execute(f"DELETE FROM {table} t WHERE EXISTS (SELECT 1 FROM {name} d WHERE {cond})")


@contextmanager
def registered(con: duckdb.DuckDBPyConnection, name: str, arrow: pa.Table) -> Iterator[None]:
    """``arrow`` visible to SQL as ``name`` inside the block. Unregistered after a success only: a failed
    statement aborts the transaction, where unregistering fails too and would hide the statement's own
    error; every caller then rolls back and closes the connection, which drops the view."""
    con.register(name, arrow)
    yield
    con.unregister(name)
