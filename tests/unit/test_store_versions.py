"""Document versions: a file read again after it changed replaces what the store shows of it, through the
pipeline's writer (``Sink``) into a real DuckDB file and out through the read queries, the dashboards'
query functions and the claim checks. The old version's rows are kept, marked superseded."""

from __future__ import annotations

import itertools
import random
from datetime import datetime

import pytest

from assay.checks import Check, check_claims
from assay.ids import content_id
from assay.runtime._sink import Sink
from assay.store import SCHEMA_VERSION, connect, transaction, write_rows
from assay.store._schema import SETTING_COLUMNS
from assay.store.queries import counts, sql
from assay.store.queries_checks import claim_verdict_counts, claims_to_check, measured_runs, verdict_counts
from assay.store.queries_claims import ClaimFilter, claim_facets, claims, claims_count, claims_of_texts
from assay.store.queries_costmodel import runs_for_fit
from assay.store.queries_knowledge import entity_neighbours, search_entities, table_counts
from assay.store.queries_runs import metric_curves, run_summaries, runs

_runs = itertools.count(1)


def paper(uri: str, text: str, subject: str = "FooServe") -> dict:
    """A paper record as the papers pipeline hands it to the writer: its id is its content's hash, and
    its claim, mention and relation carry that id."""
    doc_id = content_id(text.encode())
    claim = {"claim_id": f"{doc_id}-c", "doc_id": doc_id, "subject": subject, "metric": "throughput",
             "value": 1.5, "unit": "x", "versus": "BarRT", "text": text, "start": 0, "end": len(text)}
    return {
        "source_uri": uri, "doc_id": doc_id, "uri": uri, "kind": "paper", "title": uri, "text": text,
        "claims": [claim],
        "entities": [{"entity_id": f"e-{subject}", "name": subject, "type": "system"},
                     {"entity_id": "e-BarRT", "name": "BarRT", "type": "system"}],
        "mentions": [{"entity_id": f"e-{subject}", "doc_id": doc_id, "start": 0, "end": 3, "text": subject}],
        "relations": [{"relation_id": f"{doc_id}-r", "subject_id": f"e-{subject}", "predicate": "outperforms",
                       "object_id": "e-BarRT", "doc_id": doc_id}],
    }


def log(uri: str, steps: int) -> dict:
    """A log record: its run's id follows from its content's id, as the logs pipeline makes it."""
    doc_id = f"log-{uri}-{steps}"
    run_id = f"run-{doc_id}"
    return {
        "source_uri": uri, "doc_id": doc_id, "uri": uri, "kind": "log", "title": uri,
        "runs": [{"run_id": run_id, "source_uri": uri, "framework": "megatron", "status": "completed",
                  "doc_id": doc_id, "world_size": 8, "dp": 8, "tp": 1, "pp": 1}],
        "metrics": {"run_id": [run_id] * steps, "step": list(range(1, steps + 1)),
                    "name": ["step_time_ms"] * steps, "value": [100.0] * steps},
        "events": [{"run_id": run_id, "step": steps, "kind": "checkpoint"}],
    }


def ingest(db, *records: dict, flushes: int = 1) -> None:
    """One pipeline run over ``records``, its flushes cutting them into ``flushes`` parts in order."""
    sink = Sink(db, f"pipeline-run-{next(_runs)}", scope="papers")
    per = max(1, -(-len(records) // flushes))
    for i, record in enumerate(records):
        sink.add(dict(record))
        if (i + 1) % per == 0:
            sink.flush()
    sink.flush()


def visible_texts(db) -> list[str]:
    return sorted(claims(db, limit=None)["text"])


@pytest.fixture
def edited(db):
    """A paper read, then read again after a one-word edit."""
    ingest(db, paper("/papers/foo.md", "FooServe is 1.5x faster than BarRT."))
    ingest(db, paper("/papers/foo.md", "FooServe is 1.5x quicker than BarRT."))
    return db


def test_a_changed_file_replaces_its_claims_and_keeps_the_old_rows_superseded(edited):
    db = edited
    assert visible_texts(db) == ["FooServe is 1.5x quicker than BarRT."]
    assert claims_count(db) == 1 and counts(db)["claims"] == 1 and table_counts(db)["claims"] == 1
    kept = sql(db, "SELECT c.text, d.superseded_by, d.superseded_at FROM claims c JOIN documents d USING (doc_id) "
                   "ORDER BY d.superseded_by NULLS LAST")
    assert len(kept) == 2
    old, new = kept.iloc[0], kept.iloc[1]
    assert old["text"] == "FooServe is 1.5x faster than BarRT." and old["superseded_at"] is not None
    assert new["superseded_by"] is None or new["superseded_by"] != new["superseded_by"]  # NULL
    current_doc = sql(db, "SELECT doc_id FROM current_documents")["doc_id"].tolist()
    assert [old["superseded_by"]] == current_doc
    # The old version's mention and relation are kept too, and left out of what is shown.
    assert len(sql(db, "SELECT * FROM mentions")) == 2 and len(sql(db, "SELECT * FROM relations")) == 2
    assert table_counts(db)["mentions"] == 1 and table_counts(db)["relations"] == 1
    found = search_entities(db, "FooServe")
    assert found["mentions"].tolist() == [1] and found["documents"].tolist() == [1]
    assert entity_neighbours(db, "e-FooServe").query("kind == 'relation'")["weight"].tolist() == [1]
    assert claim_facets(db)["systems"] == ["FooServe"]


def test_a_name_only_the_old_version_mentioned_leaves_the_entity_list(db):
    ingest(db, paper("/papers/foo.md", "OldName is 1.5x faster than BarRT.", subject="OldName"))
    assert "OldName" in set(search_entities(db)["name"])
    ingest(db, paper("/papers/foo.md", "FooServe is 1.5x faster than BarRT."))
    assert set(search_entities(db)["name"]) == {"FooServe", "BarRT"}
    write_rows(db, {"entities": [{"entity_id": "e-Listed", "name": "Listed", "type": "system"}]})
    assert "Listed" in set(search_entities(db)["name"])  # mentioned nowhere: listed as before


def test_an_unchanged_file_changes_nothing(edited):
    db = edited
    before = sql(db, "SELECT doc_id, superseded_by, superseded_at, ingested_at FROM documents ORDER BY doc_id")
    ingest(db, paper("/papers/foo.md", "FooServe is 1.5x quicker than BarRT."))
    after = sql(db, "SELECT doc_id, superseded_by, superseded_at, ingested_at FROM documents ORDER BY doc_id")
    assert before.equals(after)
    assert len(sql(db, "SELECT * FROM claims")) == 2 and visible_texts(db) == ["FooServe is 1.5x quicker than BarRT."]


def test_a_file_moved_back_brings_its_earlier_version_back_without_new_rows(edited):
    db = edited
    ingest(db, paper("/papers/foo.md", "FooServe is 1.5x faster than BarRT."))
    assert visible_texts(db) == ["FooServe is 1.5x faster than BarRT."]
    assert len(sql(db, "SELECT * FROM claims")) == 2 and len(sql(db, "SELECT * FROM documents")) == 2
    states = sql(db, "SELECT text, superseded_by IS NULL AS current FROM documents ORDER BY text")
    assert states["current"].tolist() == [True, False]


def test_the_same_content_in_another_file_stays_while_one_file_holds_it(db):
    text = "FooServe is 1.5x faster than BarRT."
    ingest(db, paper("/a/foo.md", text), paper("/b/foo-copy.md", text))
    ingest(db, paper("/a/foo.md", "FooServe is 2x faster than BarRT."), paper("/b/foo-copy.md", text))
    assert visible_texts(db) == ["FooServe is 1.5x faster than BarRT.", "FooServe is 2x faster than BarRT."]
    ingest(db, paper("/b/foo-copy.md", "FooServe is 3x faster than BarRT."))
    assert visible_texts(db) == ["FooServe is 2x faster than BarRT.", "FooServe is 3x faster than BarRT."]


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (3, 2, 1, 0), (2, 0, 3, 1)])
def test_abstracts_that_moved_in_their_collection_stay_whatever_the_order_of_the_flushes(db, order):
    abstracts = [f"Abstract {i}: FooServe{i} is {i + 2}x faster than BarRT." for i in range(3)]
    ingest(db, *[paper(f"/c/set.jsonl#{i}", t) for i, t in enumerate(abstracts)])
    # A new abstract at the top: every earlier one is now one row further down.
    moved = ["Abstract new: BazNet is 9x faster than BarRT.", *abstracts]
    records = [paper(f"/c/set.jsonl#{i}", t) for i, t in enumerate(moved)]
    ingest(db, *[records[i] for i in order], flushes=len(order))
    assert visible_texts(db) == sorted(moved)
    assert len(sql(db, "SELECT * FROM claims")) == 4


def test_a_log_that_grew_replaces_its_run_metrics_and_events(db):
    ingest(db, log("/logs/train.log", 3))
    write_rows(db, {"runs": [{"run_id": "job-run", "framework": "assay", "status": "completed", "world_size": 8,
                              "dp": 8, "tp": 1, "pp": 1}]})  # a run a job recorded: no document, never superseded
    ingest(db, log("/logs/train.log", 5))
    assert sorted(runs(db)["run_id"]) == ["job-run", "run-log-/logs/train.log-5"]
    assert len(sql(db, "SELECT * FROM runs")) == 3 and len(sql(db, "SELECT * FROM metrics")) == 8
    curves = metric_curves(db, ["run-log-/logs/train.log-3", "run-log-/logs/train.log-5"], "step_time_ms")
    assert set(curves["run_id"]) == {"run-log-/logs/train.log-5"} and curves["n"].sum() == 5
    assert set(run_summaries(db, None)["run_id"]) == {"job-run", "run-log-/logs/train.log-5"}
    assert set(measured_runs(db)["run_id"]) == {"job-run", "run-log-/logs/train.log-5"}
    assert set(runs_for_fit(db)["run_id"]) == {"job-run", "run-log-/logs/train.log-5"}
    assert table_counts(db)["events"] == 1 and table_counts(db)["metrics"] == 5


def test_checks_read_and_count_only_current_claims(edited):
    db = edited
    old, new = sql(db, "SELECT claim_id FROM claims c JOIN documents d USING (doc_id) "
                       "ORDER BY d.superseded_by NULLS LAST")["claim_id"]
    assert claims_to_check(db)["claim_id"].tolist() == [new]
    write_rows(db, {"claim_checks": [Check(old, "runs", "contradicted", "an old verdict").row(),
                                     Check(new, "runs", "consistent", "a new verdict").row()]})
    assert claim_verdict_counts(db).to_dict("records") == [{"verdict": "consistent", "claims": 1}]
    assert verdict_counts(db)["n"].tolist() == [1]
    assert claims(db, ClaimFilter(verdicts=("contradicted",))).empty
    report = check_claims(db)
    assert report.n_claims == 1
    with pytest.raises(Exception, match="superseded"):
        check_claims(db, [old])


def test_eval_finds_the_current_document_holding_a_text_and_any_version_by_its_id(edited):
    db = edited
    old_id = sql(db, "SELECT doc_id FROM documents WHERE superseded_by IS NOT NULL")["doc_id"][0]
    by_id, by_text = claims_of_texts(db, [(old_id, ""), ("unknown", "FooServe is 1.5x quicker than BarRT.")])
    assert [c["text"] for c in by_id] == ["FooServe is 1.5x faster than BarRT."]
    assert [c["text"] for c in by_text] == ["FooServe is 1.5x quicker than BarRT."]


def _as_schema_2(db) -> None:
    """The file as schema 2 left it: no version columns, table or views, no claim settings or checks."""
    with connect(db) as con:
        for table in ("documents", "claims", "mentions", "relations", "runs", "metrics", "events"):
            con.execute(f"DROP VIEW current_{table}")
        con.execute("DROP TABLE document_versions")
        con.execute("ALTER TABLE documents DROP COLUMN superseded_by")
        con.execute("ALTER TABLE documents DROP COLUMN superseded_at")
        con.execute("DROP TABLE claim_checks")
        for column, _ in SETTING_COLUMNS:
            con.execute(f"ALTER TABLE claims DROP COLUMN {column}")
        con.execute("DELETE FROM schema_version WHERE version > 2")


def test_a_file_from_before_versions_reads_as_it_is_and_is_brought_forward_when_written(db):
    write_rows(db, {"documents": [{"doc_id": "v1", "uri": "/p.md", "kind": "paper", "pipeline_run_id": "r1",
                                   "ingested_at": datetime(2025, 1, 1)}],
                    "claims": [{"claim_id": "c1", "doc_id": "v1", "subject": "FooServe", "text": "old"}]})
    write_rows(db, {"documents": [{"doc_id": "v2", "uri": "/p.md", "kind": "paper", "pipeline_run_id": "r2",
                                   "ingested_at": datetime(2025, 2, 1)}],
                    "claims": [{"claim_id": "c2", "doc_id": "v2", "subject": "FooServe", "text": "new"}]})
    _as_schema_2(db)
    # Read-only, never migrated: both versions show, as they did before versions existed.
    assert visible_texts(db) == ["new", "old"] and table_counts(db)["claims"] == 2 and counts(db)["claims"] == 2
    assert len(runs(db)) == 0 and len(claims_to_check(db)) == 2 and claim_verdict_counts(db).empty
    assert sql(db, "SELECT max(version) AS v FROM schema_version")["v"][0] == 2
    # Opened for writing: migrated, and the older document of the uri is marked superseded.
    with connect(db):
        pass
    assert sql(db, "SELECT max(version) AS v FROM schema_version")["v"][0] == SCHEMA_VERSION
    assert visible_texts(db) == ["new"]
    assert sql(db, "SELECT superseded_by FROM documents WHERE doc_id = 'v1'")["superseded_by"][0] == "v2"


def test_the_current_documents_follow_the_rule_for_any_history_of_runs(db):
    """Random histories (files edited, moved back, copied, left out of a run; sightings in any order over
    several flushes) against the rule written out plainly: current are the documents that the latest run
    reading a uri saw there. Many histories share the file, each on its own uris."""
    rng = random.Random(7)
    histories = 25
    latest: dict[str, tuple[int, set[str]]] = {}
    for run in range(5):
        flushes: list[list[tuple[str, str]]] = [[], [], []]
        for h in range(histories):
            uris = rng.sample([f"/h{h}/{name}" for name in "abc"], rng.randint(1, 3))
            for uri in uris:
                doc = f"h{h}-v{rng.randint(0, 3)}"
                latest[uri] = (run, (latest[uri][1] if uri in latest and latest[uri][0] == run else set()) | {doc})
                rng.choice(flushes).append((doc, uri))
        with transaction(db) as tx:
            for seen in flushes:
                rng.shuffle(seen)
                tx.insert("documents", [{"doc_id": d, "uri": u, "kind": "paper"} for d, u in seen])
                tx.see_documents(seen, f"run-{run}")
        expected = set().union(*(docs for _, docs in latest.values()))
        assert set(sql(db, "SELECT doc_id FROM current_documents")["doc_id"]) == expected, run
