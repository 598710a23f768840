"""A record whose fields do not fit the contract's column types is a record error: it goes to the
quarantine with the column, the expected and the received type, and the rest of its batch is written."""

from __future__ import annotations

from assay.runtime._sink import Sink
from assay.store import connect, type_problem
from assay.store.queries import sql


def doc(i: int, **fields) -> dict:
    return {"source_uri": f"/in/{i}.txt", "doc_id": f"d{i}", "_unit": f"d{i}", "kind": "paper", "title": "",
            "text": "x", **fields}


def entity(name: str, **fields) -> dict:
    return {"entity_id": f"e-{name}", "name": name, "type": "system", **fields}


def test_a_wrong_typed_column_is_quarantined_and_the_batch_is_written(tmp_path):
    db = tmp_path / "kg.duckdb"
    with connect(db):
        pass
    sink = Sink(db, "run1")
    sink.add(doc(1, entities=[entity("Megatron-LM", aliases=["Megatron"])]))
    sink.add(doc(2, entities=[entity("DeepSpeed", aliases="")]))  # a string where a list belongs
    sink.add(doc(3, claims=[{"claim_id": "c3", "doc_id": "d3", "value": "fast"}]))
    sink.flush()
    assert sorted(sql(db, "SELECT name FROM entities")["name"]) == ["Megatron-LM"]
    assert list(sql(db, "SELECT doc_id FROM documents")["doc_id"]) == ["d1"]
    errors = sql(db, "SELECT source_uri, operator, error FROM quarantine ORDER BY source_uri")
    assert list(errors["source_uri"]) == ["/in/2.txt", "/in/3.txt"]
    assert set(errors["operator"]) == {"contract"}
    assert errors["error"][0] == "entities.aliases: expected VARCHAR[], received str ('')"
    assert errors["error"][1] == "claims.value: expected DOUBLE, received str ('fast')"
    assert (sink.n_in, sink.n_ok, sink.n_quarantined) == (3, 1, 2)


def test_a_field_that_is_not_rows_at_all_is_quarantined_at_once(tmp_path):
    db = tmp_path / "kg.duckdb"
    sink = Sink(db, "run1")
    sink.add(doc(1, claims=""))
    sink.add(doc(2))
    sink.flush()
    assert list(sql(db, "SELECT error FROM quarantine")["error"]) == ["claims: expected a list of rows, received str ('')"]
    assert (sink.n_ok, sink.n_quarantined) == (1, 1)


def test_rows_that_fit_have_no_type_problem():
    assert type_problem("metrics", {"run_id": ["r"] * 2, "step": [1, 2], "name": ["loss"] * 2,
                                    "value": [float("nan"), 2.5]}) is None
    assert type_problem("claims", [{"claim_id": "c", "value": 1, "start": 3}]) is None
    assert type_problem("runs", [{"run_id": "r", "world_size": "8x"}]) == \
        "runs.world_size: expected INTEGER, received str ('8x')"


def test_a_malformed_line_of_a_read_input_is_counted_apart_so_the_headline_matches_the_table(tmp_path):
    db = tmp_path / "kg.duckdb"
    sink = Sink(db, "run1")
    line_issue = {"operator": "log_parse", "line_no": 7, "error": "not a JSON object", "level": "line"}
    sink.add(doc(1, issues=[line_issue]))
    sink.add(doc(2))
    sink.flush()
    rows = sql(db, "SELECT level, error FROM quarantine WHERE pipeline_run_id = 'run1'")
    assert list(rows["error"]) == ["line 7: not a JSON object"]
    assert (sink.n_in, sink.n_ok, sink.n_quarantined, sink.n_line_issues) == (2, 2, 0, 1)
    sink.add(doc(1, issues=[line_issue]))  # the same input again (a retried task): nothing written twice
    sink.flush()
    assert sink.n_line_issues == 1 == len(sql(db, "SELECT * FROM quarantine"))


def test_the_headline_names_the_lines_in_quarantine_only_when_there_are_some():
    from assay.runtime import RunSummary

    base = dict(pipeline_run_id="r", pipeline="logs", status="completed", n_in=18, n_ok=18, n_quarantined=0,
                n_records=18, seconds=1.0, startup_s=0.5, db="kg.duckdb")
    assert RunSummary(**base).headline == "18 in, 18 ok, 0 quarantined"
    assert RunSummary(**base, n_line_issues=1).headline == (
        "18 in, 18 ok, 0 quarantined, 1 line(s) of read inputs in quarantine")
