"""The demo corpus against its gold file: the papers operators find its claims and its systems."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.dsl import get_operator
from assay.evaluation import evaluate_abstracts, evaluate_corpus, load_gold

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "pipelines" / "samples" / "papers"
GOLD = SAMPLES.parent / "papers_gold.jsonl"
SHARED = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="module")
def documents() -> dict[tuple[str, int], dict]:
    read = get_operator("read_paper")
    files = [p for p in sorted(SAMPLES.iterdir()) if p.name != GOLD.name]
    records, failures = read.run([{"source_uri": str(p)} for p in files])
    assert not failures, failures
    out = {}
    for r in records:
        name = Path(r["source_uri"]).name
        row = int(r["uri"].rsplit("#", 1)[1]) if "#" in r["uri"] else 0
        out[(name, row)] = r
    return out


def test_corpus_is_large_mixed_and_every_gold_line_has_its_document(documents):
    gold = load_gold(GOLD)
    assert len(gold) >= 24 and len(documents) == len(gold)
    assert {(g.source, g.row or 0) for g in gold} == set(documents)
    suffixes = {Path(name).suffix for name, _ in documents}
    assert {".txt", ".md", ".tex", ".jsonl", ".pdf", ".csv"} <= suffixes
    segmented, _ = get_operator("segment_text").run(list(documents.values()))
    assert {r["lang"] for r in segmented} >= {"en", "zh"}


def test_gold_texts_are_exact_substrings_of_the_documents(documents):
    for line in GOLD.read_text("utf-8").splitlines():
        obj = json.loads(line)
        text = documents[(obj["source"], obj["row"] or 0)]["text"]
        for claim in obj["gold"]["claims"]:
            assert claim["text"] in text, (obj["source"], claim["text"])


def test_claims_reach_high_precision_and_recall_on_the_demo_corpus():
    report = evaluate_corpus(GOLD, SAMPLES)
    assert report.n_documents >= 24 and report.extracted == report.n_documents
    assert report.headline.n_gold >= 60
    assert report.headline.precision >= 0.95, [i.describe() for i in report.headline.false_positives]
    assert report.headline.recall >= 0.95, [i.describe() for i in report.headline.misses]
    assert report.other.recall >= 0.75


def test_proposed_systems_are_found(documents):
    gold = {
        (g["source"], g["row"] or 0): g["gold"] for g in map(json.loads, GOLD.read_text("utf-8").splitlines())
    }
    segmented, _ = get_operator("segment_text").run(list(documents.values()))
    extracted, failures = get_operator("extract_knowledge").run(segmented)
    assert not failures
    expected = found = 0
    for r in extracted:
        key = (Path(r["source_uri"]).name, int(r["uri"].rsplit("#", 1)[1]) if "#" in r["uri"] else 0)
        systems = gold[key]["systems"]
        if systems:
            expected += 1
            names = {e["name"].lower() for e in r["entities"] if e["type"] == "system"}
            found += systems[0].lower() in names
    assert found / expected >= 0.9


@pytest.mark.skipif(
    not (SHARED / "seed_gold.jsonl").exists(), reason="the shared development corpus is absent"
)
def test_seed_corpus_acceptance():
    report = evaluate_abstracts(SHARED / "seed_gold.jsonl", SHARED / "seed_abstracts.txt")
    assert report.headline.precision >= 0.90 and report.headline.recall >= 0.85
