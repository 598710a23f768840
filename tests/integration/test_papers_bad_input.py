"""A corpus of broken files runs to the end: every file ends up in `documents` or in `quarantine` with a
readable reason, and the counts of the pipeline run reconcile. On the local runner (the operators' failures
become quarantine rows in the same stage code on Ray; test_runners_conformance holds Ray to the same rows)."""

from __future__ import annotations

import os

import pytest

from assay.dsl import load_pipeline
from assay.runtime import run_pipeline
from assay.store.queries import sql

pytestmark = pytest.mark.integration

GOOD = ("We present Zephyr, a pipeline-parallel training system. Zephyr trains GPT-3 175B on 1,024 A100 GPUs "
        "and achieves up to 1.8x higher throughput than Megatron-LM.")


def broken_corpus(root):
    root.mkdir()
    (root / "good.txt").write_text(GOOD)
    (root / "empty.txt").write_bytes(b"")
    (root / "random.pdf").write_bytes(os.urandom(4096))
    (root / "truncated.pdf").write_bytes(b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Ty")
    (root / "latin1.txt").write_bytes("Der Durchsatz steigt um 2,5x gegenüber DeepSpeed. \xff\xfe ok".encode("latin-1"))
    (root / "unbalanced.tex").write_text(
        r"\section{Results} We propose \textbf{Quill, which reaches 3.1$\times$ speedup over GPipe on 64 GPUs.")
    # A 4 MB single line: no sentence boundary a splitter can rely on, and past every per-document limit
    # (spaCy's 1 M characters a call, the claim scan's 1 M-character pieces, 10,000 claims, 50,000 mentions).
    # A longer line only takes longer here (docs/papers.md gives a 50 MB line's time and memory).
    (root / "huge_line.txt").write_text(("Orca reaches 1.5x over ZeRO on 8 GPUs and " * 100_000)[:4_000_000])
    return sorted(str(p) for p in root.iterdir())


def test_a_corpus_of_bad_files_completes_and_every_file_is_accounted_for(tmp_path, db):
    files = broken_corpus(tmp_path / "corpus")
    summary = run_pipeline(load_pipeline("papers"), [tmp_path / "corpus"], db=db, progress=False, runner="local")
    assert summary.status == "completed"
    documents = set(sql(db, "SELECT uri FROM documents")["uri"])
    quarantine = sql(db, "SELECT source_uri, operator, error FROM quarantine WHERE level = 'input'")
    assert documents | set(quarantine["source_uri"]) == set(files)
    assert not documents & set(quarantine["source_uri"])
    assert summary.n_in == summary.n_ok + summary.n_quarantined == len(files)
    by_file = {os.path.basename(u): e for u, e in zip(quarantine["source_uri"], quarantine["error"], strict=True)}
    assert {"empty.txt", "random.pdf", "truncated.pdf"} <= set(by_file)
    assert all(len(reason) > 10 for reason in by_file.values())
    assert {"good.txt", "latin1.txt", "unbalanced.tex", "huge_line.txt"} <= {os.path.basename(u) for u in documents}
    claims = sql(db, "SELECT d.uri, c.value, c.unit FROM claims c JOIN documents d USING (doc_id)")
    good = claims[claims["uri"].str.endswith("good.txt")]
    assert (good["value"] == 1.8).any()
