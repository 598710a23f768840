"""The papers pipeline: the demo corpus into DuckDB, scored from the database, re-run exactly once, and a
user's pipeline file with its own gazetteer. On the local runner: these tests are about what the pipeline
extracts; test_runners_conformance holds the Ray runner to the same rows (a user's file shipped to Ray's
workers included)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.dsl import load_pipeline
from assay.evaluation import evaluate_corpus
from assay.runtime import run_pipeline
from assay.store.queries import counts, sql

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "pipelines" / "samples" / "papers"
GOLD = SAMPLES.parent / "papers_gold.jsonl"


def corpus_files() -> list[Path]:
    return [p for p in sorted(SAMPLES.iterdir()) if p.name != GOLD.name]


def test_demo_corpus_through_the_pipeline_scores_from_the_database(db):
    n_docs = sum(1 for _ in GOLD.open())
    summary = run_pipeline(load_pipeline("papers"), corpus_files(), db=db, progress=False, runner="local")
    assert summary.status == "completed"
    assert (summary.n_in, summary.n_ok, summary.n_quarantined) == (n_docs, n_docs, 0)
    docs = sql(db, "SELECT kind, lang, title, n_bytes FROM documents")
    assert len(docs) == n_docs and set(docs["kind"]) == {"paper"} and {"en", "zh"} <= set(docs["lang"])
    assert docs["title"].notna().all() and (docs["n_bytes"] > 0).all()

    report = evaluate_corpus(GOLD, SAMPLES, db=db)
    assert report.from_db == n_docs and report.extracted == 0
    assert report.headline.precision >= 0.95 and report.headline.recall >= 0.95

    edges = sql(
        db,
        """SELECT s.name AS subject, r.predicate, o.name AS object
                       FROM relations r JOIN entities s ON s.entity_id = r.subject_id
                       JOIN entities o ON o.entity_id = r.object_id""",
    )
    pairs = set(zip(edges["subject"], edges["predicate"], edges["object"], strict=True))
    assert ("Strata", "compared_with", "GPipe") in pairs
    assert ("Heron", "evaluated_on", "64 A100 GPUs") in pairs
    proposed = sql(
        db,
        """SELECT e.name FROM relations r JOIN entities e ON e.entity_id = r.object_id
                          WHERE r.predicate = 'proposes'""",
    )["name"]
    assert {"Strata", "Heron", "Pylon", "Brook", "Larch", "Kiln"} <= set(proposed)
    mentions = sql(
        db,
        """SELECT m.text, substr(d.text, m.start + 1, m."end" - m.start) AS span
                          FROM mentions m JOIN documents d USING (doc_id)""",
    )
    assert (mentions["text"] == mentions["span"]).all()  # offsets index the stored text

    before = counts(db)
    again = run_pipeline(load_pipeline("papers"), corpus_files(), db=db, progress=False, runner="local")
    assert again.n_ok == n_docs
    after = counts(db)
    assert {t: after[t] for t in ("documents", "entities", "mentions", "claims", "relations")} == {
        t: before[t] for t in ("documents", "entities", "mentions", "claims", "relations")
    }


def test_a_user_pipeline_file_with_its_own_gazetteer(db, tmp_path):
    terms = tmp_path / "terms.tsv"
    terms.write_text("Hyperion\tsystem\tHyp-1\n", "utf-8")
    user = tmp_path / "my_papers.py"
    user.write_text(
        "from assay.pipelines.papers import build\n"
        f"pipeline = build(gazetteer={str(terms)!r}, name='my-papers')\n",
        "utf-8",
    )
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.jsonl").write_text(
        json.dumps({"title": "T", "abstract": "Hyp-1 beats GPipe by 2.5x on 16 GPUs."}) + "\n" + "{broken\n",
        "utf-8",
    )
    summary = run_pipeline(load_pipeline(str(user)), [tmp_path / "in"], db=db, progress=False, runner="local")
    assert (summary.n_ok, summary.n_quarantined) == (1, 0)
    names = set(sql(db, "SELECT name FROM entities")["name"])
    assert {"Hyperion", "GPipe", "16 GPUs"} <= names
    issues = sql(db, "SELECT operator, error FROM quarantine WHERE level = 'line'")
    assert list(issues["operator"]) == ["read_paper"] and "line 2" in issues["error"][0]
