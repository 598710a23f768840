"""Evaluating abstracts or a corpus: the documents the gold names, their predicted claims, and the report.

Predictions come from the database when it holds the documents (matched by ``doc_id``, or by finding the
abstract's text inside a stored document), otherwise they are extracted in-process with the papers
operators, and the report says which.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.evaluation._gold import find_by_stem, load_gold, split_abstracts
from assay.evaluation._report import Report
from assay.evaluation._scoring import score
from assay.ids import content_id


@dataclass
class _Doc:
    key: int
    doc_id: str
    text: str
    uri: str


def evaluate_abstracts(
    gold_path: str | os.PathLike[str],
    abstracts_path: str | os.PathLike[str],
    db: str | os.PathLike[str] | None = None,
    model: str = "blank",
) -> Report:
    """Score claims for a file of abstracts separated by blank lines (paragraph i = gold index i)."""
    gold, docs, notes = _abstract_docs(gold_path, abstracts_path)
    report = _evaluate(gold, docs, db, model, notes)
    report.names = {key: f"#{key}" for key in gold}
    return report


def _abstract_docs(
    gold_path: str | os.PathLike[str], abstracts_path: str | os.PathLike[str]
) -> tuple[dict[int, list[dict[str, Any]]], list[_Doc], list[str]]:
    gold = load_gold(gold_path)
    paragraphs = split_abstracts(Path(abstracts_path).read_text("utf-8", errors="replace"))
    notes = []
    if len(paragraphs) != len(gold):
        notes.append(
            f"{len(paragraphs)} abstracts but {len(gold)} gold lines: scoring the first "
            f"{min(len(paragraphs), len(gold))}"
        )
    n = min(len(paragraphs), len(gold))
    docs = [
        _Doc(gold[i].index, content_id(p), p, f"{abstracts_path}#{i}") for i, p in enumerate(paragraphs[:n])
    ]
    return {g.index: g.claims for g in gold[:n]}, docs, notes


def evaluate_corpus(
    gold_path: str | os.PathLike[str],
    corpus_dir: str | os.PathLike[str],
    db: str | os.PathLike[str] | None = None,
    model: str = "blank",
) -> Report:
    """Score claims for a folder of papers whose gold lines name their ``source`` file (and ``row``)."""
    gold, docs, notes, names = corpus_documents(gold_path, corpus_dir)
    report = _evaluate(gold, docs, db, model, notes)
    report.names = names
    return report


def _corpus_docs(
    gold_path: str | os.PathLike[str], corpus_dir: str | os.PathLike[str]
) -> tuple[dict[int, list[dict[str, Any]]], list[_Doc], list[str]]:
    gold, docs, notes, _ = corpus_documents(gold_path, corpus_dir)
    return gold, docs, notes


def corpus_documents(
    gold_path: str | os.PathLike[str], corpus_dir: str | os.PathLike[str]
) -> tuple[dict[int, list[dict[str, Any]]], list[_Doc], list[str], dict[int, str]]:
    """The gold claims, the documents read from ``corpus_dir`` (by ``source``, or by the ``doc`` stem), notes
    on files that could not be read, and each document's name, all by gold key."""
    from assay.dsl import get_operator

    gold = load_gold(gold_path)
    missing = [g for g in gold if not g.source and not g.doc]
    if missing:
        raise ValueError(
            f"{gold_path}: gold line {missing[0].index} has no 'source' file name or 'doc' stem; "
            "use --abstracts for gold keyed by paragraph"
        )
    notes: list[str] = []
    for g in gold:
        if not g.source:
            g.source = find_by_stem(corpus_dir, g.doc or "")
            if g.source is None:
                notes.append(f"{g.doc}: no file with this stem in {corpus_dir}")
    read = get_operator("read_paper")
    docs: list[_Doc] = []
    by_source: dict[str, list[dict[str, Any]]] = {}
    for source in sorted({g.source for g in gold if g.source}):
        path = Path(corpus_dir) / source
        records, failures = read.run([{"source_uri": str(path)}])
        if failures:
            notes.append(f"{source}: {failures[0].error}")
        by_source[source] = records
    for g in gold:
        records = by_source.get(g.source or "", [])
        row = g.row if g.row is not None else 0
        if row < len(records):
            r = records[row]
            docs.append(_Doc(g.index, r["doc_id"], r["text"], r["uri"]))
    return {g.index: g.claims for g in gold}, docs, notes, {g.index: g.name for g in gold}


def gold_and_predictions(
    gold_path: str | os.PathLike[str], source: str | os.PathLike[str], model: str = "blank"
) -> tuple[dict[int, list[dict[str, Any]]], dict[int, list[dict[str, Any]]]]:
    """The gold claims and the claim rows extracted in-process, per document key, for a gold file and its
    ``source``: a folder of papers (``evaluate_corpus``) or a file of abstracts (``evaluate_abstracts``)."""
    if Path(source).is_dir():
        gold, docs, _ = _corpus_docs(gold_path, source)
    else:
        gold, docs, _ = _abstract_docs(gold_path, source)
    return gold, extract_claims(docs, model)


def _evaluate(
    gold: dict[int, list[dict[str, Any]]],
    docs: list[_Doc],
    db: str | os.PathLike[str] | None,
    model: str,
    notes: list[str],
) -> Report:
    predicted: dict[int, list[dict[str, Any]]] = {}
    from_db = 0
    if db is not None and Path(db).exists():
        found = claims_from_db(db, docs)
        predicted.update(found)
        from_db = len(found)
    rest = [d for d in docs if d.key not in predicted]
    if rest:
        predicted.update(extract_claims(rest, model))
        where = f" (not in {db})" if db is not None and Path(db).exists() else ""
        notes.append(f"extracted {len(rest)} document(s) in-process with the papers operators{where}")
    report = Report(
        score(gold, predicted, ratio=True),
        score(gold, predicted, ratio=False),
        len(docs),
        from_db,
        len(rest),
        str(db) if db is not None and Path(db).exists() else None,
        notes,
    )
    return report


def claims_from_db(db: str | os.PathLike[str], docs: Iterable[_Doc]) -> dict[int, list[dict[str, Any]]]:
    """Claims stored for these documents: by ``doc_id``, else by locating the text in a stored document
    (a file of abstracts ingested as one document)."""
    from assay.store.queries_claims import claims_of_texts

    docs = list(docs)
    found = claims_of_texts(db, [(d.doc_id, d.text) for d in docs])
    return {d.key: claims for d, claims in zip(docs, found, strict=True) if claims is not None}


def extract_claims(docs: Sequence[_Doc], model: str = "blank") -> dict[int, list[dict[str, Any]]]:
    """Claims from the papers operators run in this process (no Ray, no database)."""
    from assay.dsl import get_operator

    records = [{"source_uri": d.uri, "doc_id": d.doc_id, "text": d.text} for d in docs]
    segmented, _ = get_operator("segment_text").run(records)
    extracted, failures = get_operator("extract_knowledge").run(segmented, model=model)
    if failures:
        raise RuntimeError(f"extraction failed: {failures[0].error}")
    by_id: dict[str, list[dict[str, Any]]] = {r["doc_id"]: r["claims"] for r in extracted}
    return {d.key: _with_statements(by_id.get(d.doc_id, []), d.text) for d in docs}


def _with_statements(claims: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """Each claim with the sentence it was read from (``statement``), which pairs it with the gold claim that
    quotes that sentence where several state the same value (``_matching.one_to_one``)."""
    for claim in claims:
        lo, hi = claim.get("sentence_start"), claim.get("sentence_end")
        if isinstance(lo, int) and isinstance(hi, int) and 0 <= lo < hi <= len(text):
            claim["statement"] = text[lo:hi]
    return claims
