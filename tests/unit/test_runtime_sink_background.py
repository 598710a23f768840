"""The store writer's background flushes (what ``run_pipeline`` uses): the caller goes on while a timed flush
commits in the writer thread, flushes commit in order and exactly once, a wrong-typed record is still
quarantined, and a background flush's error reaches the caller at the next flush."""

from __future__ import annotations

import threading

import pytest

from assay.runtime._sink import Sink
from assay.store import connect
from assay.store.queries import sql


def doc(i: int, **fields) -> dict:
    return {"source_uri": f"/in/{i}.txt", "doc_id": f"d{i}", "_unit": f"d{i}", "kind": "paper", "title": "",
            "text": f"text {i}", **fields}


def with_entity(i: int) -> dict:
    return doc(i, entities=[{"entity_id": f"system:s{i}", "name": f"S{i}", "type": "system"}])


def new_db(tmp_path):
    db = tmp_path / "kg.duckdb"
    with connect(db):
        pass
    return db


def test_a_timed_flush_commits_in_the_writer_thread_and_flush_waits_for_it(tmp_path, monkeypatch):
    db = new_db(tmp_path)
    # Due at every row, whatever the last flush took: each maybe_flush below flushes.
    sink = Sink(db, "run1", flush_rows=1, background=True)
    threads: list[str] = []
    commit = Sink._commit

    def record_thread(self, records, quarantine):
        threads.append(threading.current_thread().name)
        commit(self, records, quarantine)

    monkeypatch.setattr(Sink, "_commit", record_thread)
    sink.add(with_entity(1))
    sink.maybe_flush()  # handed to the writer thread
    sink.add(with_entity(2))
    sink.add(with_entity(1))  # the same unit again (a retried task): written once
    sink.maybe_flush()  # waits for the first, then hands on the second
    sink.add(with_entity(3))
    sink.flush()  # in this thread, after the one in flight: all three are in when it returns
    sink.close()
    assert sorted(sql(db, "SELECT doc_id FROM documents")["doc_id"]) == ["d1", "d2", "d3"]
    assert sorted(sql(db, "SELECT name FROM entities")["name"]) == ["S1", "S2", "S3"]
    assert threads[0].startswith("assay-sink") and threads[1].startswith("assay-sink")
    assert threads[2] == threading.current_thread().name
    assert (sink.n_in, sink.n_ok, sink.n_quarantined) == (3, 3, 0)


def test_a_wrong_typed_record_is_quarantined_by_a_background_flush(tmp_path):
    db = new_db(tmp_path)
    sink = Sink(db, "run1", flush_rows=1, background=True)
    sink.add(doc(1, claims=[{"claim_id": "c1", "doc_id": "d1", "value": "fast"}]))
    sink.add(doc(2))
    sink.maybe_flush()
    sink.close()
    assert list(sql(db, "SELECT doc_id FROM documents")["doc_id"]) == ["d2"]
    assert list(sql(db, "SELECT error FROM quarantine")["error"]) == [
        "claims.value: expected DOUBLE, received str ('fast')"]
    assert (sink.n_ok, sink.n_quarantined) == (1, 1)


def test_a_background_flush_that_fails_raises_at_the_next_flush(tmp_path):
    folder = tmp_path / "not-a-file.duckdb"
    folder.mkdir()  # DuckDB cannot open a directory
    sink = Sink(folder, "run1", flush_rows=1, background=True)
    sink.add(with_entity(1))
    sink.maybe_flush()  # returns at once; the error waits for the caller
    with pytest.raises(Exception):  # noqa: B017 -- DuckDB's own error, whichever its release raises
        sink.flush()
    sink.close()
