"""The contract's column types, and what is wrong with rows that do not fit them.

Used on the error path only: a batch that the database refuses is checked record by record, so the one
record whose field has the wrong type goes to the quarantine with the column, the expected and the
received type, and the rest of the batch is written.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pyarrow as pa

from assay.store._schema import MIGRATIONS
from assay.store._writer import to_arrow

_ARROW = {
    "VARCHAR": pa.string(), "DOUBLE": pa.float64(), "INTEGER": pa.int32(), "BIGINT": pa.int64(),
    "TIMESTAMP": pa.timestamp("us"), "BOOLEAN": pa.bool_(), "VARCHAR[]": pa.list_(pa.string()),
}
_CREATE = re.compile(r"CREATE TABLE IF NOT EXISTS (\w+) \((.*?)\);", re.S)
_ADD = re.compile(r'ALTER TABLE (\w+) ADD COLUMN(?: IF NOT EXISTS)? "?(\w+)"? ([\w\[\]]+)', re.I)


@cache
def column_types() -> dict[str, dict[str, str]]:
    """SQL type of every column of every table, read from the schema's own DDL (so it cannot drift)."""
    types: dict[str, dict[str, str]] = {}
    for _, sql in MIGRATIONS:
        for table, body in _CREATE.findall(sql):
            cols = types.setdefault(table, {})
            for col in body.split(","):
                parts = col.split()
                if len(parts) >= 2:
                    cols[parts[0].strip('"')] = parts[1]
        for table, col, sql_type in _ADD.findall(sql):
            types.setdefault(table, {})[col] = sql_type
    return types


def _received(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} ({text[:40] + '...' if len(text) > 40 else text})"


def type_problem(table: str, rows: Any) -> str | None:
    """Why ``rows`` for ``table`` cannot be stored (``table.column: expected T, received ...``), or None."""
    if rows is None:
        return None
    if not isinstance(rows, list | tuple | dict | pa.Table):
        return f"{table}: expected a list of rows, received {_received(rows)}"
    if isinstance(rows, list | tuple):
        bad = next((r for r in rows if not isinstance(r, dict)), None)
        if bad is not None:
            return f"{table}: expected each row to be a dict, received {_received(bad)}"
    expected = column_types().get(table, {})
    try:
        arrow = to_arrow(table, rows)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
        arrow = None
        columns = rows if isinstance(rows, dict) else {c: [r.get(c) for r in rows] for c in expected}
        for column, values in columns.items():
            if column in expected and (problem := _column_problem(table, column, list(values), expected[column])):
                return problem
        return f"{table}: rows that do not form a table"
    if arrow is None:
        return None
    for column in arrow.column_names:
        sql_type = expected.get(column)
        target = _ARROW.get(sql_type or "")
        if target is None:
            continue
        try:
            arrow.column(column).cast(target, safe=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
            return _column_problem(table, column, arrow.column(column).to_pylist(), sql_type)
    return None


def _column_problem(table: str, column: str, values: list[Any], sql_type: str) -> str | None:
    target = _ARROW.get(sql_type)
    for value in values:
        if value is None:
            continue
        try:
            pa.array([value]).cast(target, safe=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, TypeError):
            return f"{table}.{column}: expected {sql_type}, received {_received(value)}"
    return None
