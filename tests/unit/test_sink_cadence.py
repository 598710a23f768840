"""How often the store writer flushes: every ``flush_every_s`` while flushes are quick, less often once a
flush takes long (a large log's millions of metric rows), so flushing keeps to a share of its time."""

from __future__ import annotations

import time

import numpy as np
import pyarrow as pa
from waiting import wait_for

from assay.runtime._sink import FLUSH_SHARE, Sink
from assay.store import connect
from assay.store.queries import sql


def chunk(i: int, n_rows: int) -> dict:
    metrics = pa.table({"run_id": ["r"] * n_rows, "step": np.arange(n_rows), "name": ["loss"] * n_rows,
                        "value": np.linspace(1, 2, n_rows)})
    return {"source_uri": "/big.log", "doc_id": "d", "chunk": i, "_unit": "d", "metrics": metrics}


def stored(db) -> int:
    return int(sql(db, "SELECT count(*) AS n FROM metrics")["n"][0])


def test_a_long_flush_spaces_out_the_next_and_a_quick_one_does_not(tmp_path):
    db = tmp_path / "kg.duckdb"
    with connect(db):
        pass
    every = 0.3
    sink = Sink(db, "run1", flush_every_s=every)
    sink.add(chunk(0, 10))
    sink.flush()
    sink.add(chunk(1, 10))
    sink.maybe_flush()
    assert stored(db) == 10, "a flush came before flush_every_s"
    wait_for(lambda: sink.maybe_flush() or stored(db) == 20, 5, "the next flush after a quick one")

    sink.add(chunk(2, 3_000_000))
    started = time.monotonic()
    sink.flush()
    took = time.monotonic() - started
    assert took / FLUSH_SHARE > 2 * every, f"a flush of 3M rows took only {took:.2f}s: use more rows"
    sink.add(chunk(3, 10))
    time.sleep(1.5 * every)
    sink.maybe_flush()
    assert stored(db) == 3_000_020, f"the flush after one of {took:.2f}s came after {1.5 * every:g}s"
    wait_for(lambda: sink.maybe_flush() or stored(db) == 3_000_030, took / FLUSH_SHARE + 5,
             "the next flush after a long one")
