"""The DuckDB store: schema and migrations, idempotent writes, short transactions under contention."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap

import duckdb
import pyarrow as pa
import pytest

from assay.store import (
    SCHEMA_VERSION,
    TABLES,
    connect,
    rewind_run,
    set_state_if,
    to_arrow,
    transaction,
    write_rows,
)
from assay.store.queries import counts, sql


def test_schema_has_every_contract_table_and_column(db):
    with connect(db) as con:
        for table, columns in TABLES.items():
            found = [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall()]
            assert list(columns) == found[: len(columns)], table
        version = con.execute("SELECT max(version) FROM schema_version").fetchall()[0][0]
    assert version == SCHEMA_VERSION


def test_opening_twice_does_not_migrate_twice(db):
    for _ in range(2):
        with connect(db):
            pass
    assert sql(db, "SELECT count(*) AS n FROM schema_version")["n"][0] == SCHEMA_VERSION


def test_rows_with_existing_keys_are_written_once(db):
    row = {"doc_id": "d1", "uri": "a.txt", "kind": "paper"}
    write_rows(db, {"documents": [row, dict(row)]})
    write_rows(db, {"documents": [row]})
    assert counts(db)["documents"] == 1


def test_upsert_replaces_state_rows(db):
    write_rows(db, {"jobs": [{"job_id": "j", "state": "queued"}]}, upsert=["jobs"])
    write_rows(db, {"jobs": [{"job_id": "j", "state": "running", "workers": 2}]}, upsert=["jobs"])
    frame = sql(db, "SELECT state, workers FROM jobs")
    assert frame.to_dict("records") == [{"state": "running", "workers": 2}]


def test_all_row_shapes_become_the_tables_columns_and_nan_survives(db):
    columns = {"run_id": ["r", "r"], "step": [1, 2], "name": ["loss", "loss"], "value": [1.5, float("nan")]}
    arrow = pa.table({**columns, "not_a_column": [0, 0]})
    assert to_arrow("metrics", columns).column_names == list(TABLES["metrics"])
    assert to_arrow("metrics", arrow).column_names == list(TABLES["metrics"])
    write_rows(db, {"metrics": columns})
    write_rows(db, {"metrics": [{"run_id": "r2", "step": 1, "name": "loss", "value": 2.0}]})
    values = sql(db, "SELECT value FROM metrics WHERE run_id = 'r' ORDER BY step")["value"].tolist()
    assert values[0] == 1.5 and math.isnan(values[1])
    assert counts(db)["metrics"] == 3


def test_a_failed_batch_writes_nothing_and_says_why(db):
    bad = {"documents": [{"doc_id": "d", "kind": "paper"}], "metrics": [{"run_id": "r", "step": "not a number"}]}
    # The error is the bad value's own, not the aborted transaction's that a later statement would raise.
    with pytest.raises(duckdb.ConversionException, match="not a number"):
        write_rows(db, bad)
    assert counts(db)["documents"] == 0


def test_a_transaction_lands_whole_or_not_at_all(db):
    with pytest.raises(RuntimeError, match="stop"), transaction(db) as tx:
        tx.insert("documents", [{"doc_id": "d1", "uri": "a.txt", "kind": "paper"}])
        tx.claim_units(["papers/d1"], "p1")
        raise RuntimeError("stop")
    assert counts(db)["documents"] == 0
    assert sql(db, "SELECT count(*) AS n FROM units_written")["n"][0] == 0
    with transaction(db) as tx:
        tx.insert("documents", [{"doc_id": "d1", "uri": "a.txt", "kind": "paper"}])
    assert counts(db)["documents"] == 1


def test_units_are_claimed_once_across_transactions(db):
    with transaction(db) as tx:
        assert tx.claim_units(["s/a", "s/b", "s/a"], "p1") == {"s/a", "s/b"}
    with transaction(db) as tx:
        assert tx.claim_units(["s/b", "s/c"], "p2") == {"s/c"}
    owners = sql(db, "SELECT unit_key, pipeline_run_id FROM units_written ORDER BY unit_key")
    assert owners.values.tolist() == [["s/a", "p1"], ["s/b", "p1"], ["s/c", "p2"]]


def test_a_rewind_drops_the_steps_to_train_again_and_writes_in_the_same_transaction(db):
    write_rows(db, {"metrics": {"run_id": ["r"] * 4, "step": [1, 2, 3, 4], "name": ["loss"] * 4,
                                "value": [4.0, 3.0, 2.0, 1.0]}})
    rewind_run(db, "r", 2, {"runs": [{"run_id": "r", "status": "restarting"}]}, upsert=["runs"])
    assert sql(db, "SELECT step FROM metrics ORDER BY step")["step"].tolist() == [1, 2]
    assert sql(db, "SELECT status FROM runs")["status"].tolist() == ["restarting"]


def test_a_state_moves_only_from_the_expected_one(db):
    write_rows(db, {"jobs": [{"job_id": "j", "state": "queued"}]})
    assert set_state_if(db, "j", "waiting", "queued") is True
    assert set_state_if(db, "j", "running", "queued") is False
    assert sql(db, "SELECT state FROM jobs")["state"].tolist() == ["waiting"]


def test_reader_waits_for_a_writer_in_another_process(db):
    write_rows(db, {"documents": [{"doc_id": "d0", "kind": "paper"}]})
    holder = textwrap.dedent(f"""
        import time, duckdb
        con = duckdb.connect({str(db)!r})
        print("locked", flush=True)
        time.sleep(1.5)
        con.execute("INSERT INTO documents (doc_id, kind) VALUES ('d1', 'paper')")
        con.close()
    """)
    proc = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "locked"
    # The other process holds the file read-write: our read retries until it lets go, then sees its row.
    assert counts(db)["documents"] == 2
    proc.wait(timeout=30)
