"""The papers pipeline on Ray over a folder whose paper changed by one word: the second run replaces the
paper's claims (the first version's rows kept, superseded), and a third run over the unchanged folder
writes nothing."""

from __future__ import annotations

import pytest

from assay.dsl import load_pipeline
from assay.runtime import run_pipeline
from assay.store.queries import sql
from assay.store.queries_claims import claims

pytestmark = pytest.mark.integration

PAPER = """# Quill: pipelined serving for long prompts

## Abstract
We present Quill, a serving system for long prompts. Quill reaches 2.4x higher throughput than vLLM
and cuts the median latency by 35% compared to TGI on 8 A100 GPUs.

## Evaluation
On the chat workload Quill is 1.8x faster than SGLang.
"""


def test_a_paper_edited_by_one_word_replaces_its_claims_and_an_unchanged_one_is_skipped(ray_local, db, tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    paper = folder / "quill.md"
    paper.write_text(PAPER, "utf-8")
    first = run_pipeline(load_pipeline("papers"), [folder], db=db, progress=False)
    assert first.status == "completed" and first.n_ok == 1
    before = claims(db, limit=None)
    assert len(before) >= 3 and "SGLang" in set(before["baseline"])

    paper.write_text(PAPER.replace("SGLang", "Orca"), "utf-8")  # one word
    second = run_pipeline(load_pipeline("papers"), [folder], db=db, progress=False)
    assert second.status == "completed" and second.n_ok == 1
    visible = claims(db, limit=None)
    # One version visible: as many claims as before, the edited one with its new baseline, none twice.
    assert len(visible) == len(before) and visible["doc_id"].nunique() == 1
    assert "Orca" in set(visible["baseline"]) and "SGLang" not in set(visible["baseline"])
    assert sorted(visible["value"].dropna()) == sorted(before["value"].dropna())
    # The first version is kept, marked superseded by the second.
    docs = sql(db, "SELECT doc_id, uri, superseded_by FROM documents ORDER BY superseded_by NULLS FIRST")
    assert len(docs) == 2 and docs["uri"].nunique() == 1
    current_id, old_id = docs["doc_id"]
    assert docs["superseded_by"].tolist()[1] == current_id and set(visible["doc_id"]) == {current_id}
    kept = sql(db, "SELECT count(*) AS n FROM claims WHERE doc_id = ?", [old_id])["n"][0]
    assert kept == len(before)

    table = sql(db, "SELECT count(*) AS n FROM claims")["n"][0]
    third = run_pipeline(load_pipeline("papers"), [folder], db=db, progress=False)
    assert third.status == "completed" and third.n_ok == 1
    assert sql(db, "SELECT count(*) AS n FROM claims")["n"][0] == table
    assert sql(db, "SELECT count(*) AS n FROM units_written WHERE pipeline_run_id = ?", [third.pipeline_run_id])["n"][0] == 0
    assert sql(db, "SELECT doc_id FROM current_documents")["doc_id"].tolist() == [current_id]
