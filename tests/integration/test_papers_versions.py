"""The papers pipeline (on the local runner: document versions are the sink's, the same on Ray) over a folder whose paper changed by one word: the second run replaces the
paper's claims (the first version's rows kept, superseded), and a third run over the unchanged folder
writes nothing. The logs pipeline over a log that grew: its new run replaces the old one."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.dsl import load_pipeline
from assay.runtime import run_pipeline
from assay.store.queries import sql
from assay.store.queries_claims import claims

pytestmark = pytest.mark.integration

SAMPLES_LOGS = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"

PAPER = """# Quill: pipelined serving for long prompts

## Abstract
We present Quill, a serving system for long prompts. Quill reaches 2.4x higher throughput than vLLM
and cuts the median latency by 35% compared to TGI on 8 A100 GPUs.

## Evaluation
On the chat workload Quill is 1.8x faster than SGLang.
"""


def test_a_paper_edited_by_one_word_replaces_its_claims_and_an_unchanged_one_is_skipped(db, tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    paper = folder / "quill.md"
    paper.write_text(PAPER, "utf-8")
    first = run_pipeline(load_pipeline("papers"), [folder], db=db, progress=False, runner="local")
    assert first.status == "completed" and first.n_ok == 1
    before = claims(db, limit=None)
    assert len(before) >= 3 and "SGLang" in set(before["baseline"])

    paper.write_text(PAPER.replace("SGLang", "Orca"), "utf-8")  # one word
    second = run_pipeline(load_pipeline("papers"), [folder], db=db, progress=False, runner="local")
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
    third = run_pipeline(load_pipeline("papers"), [folder], db=db, progress=False, runner="local")
    assert third.status == "completed" and third.n_ok == 1
    assert sql(db, "SELECT count(*) AS n FROM claims")["n"][0] == table
    assert sql(db, "SELECT count(*) AS n FROM units_written WHERE pipeline_run_id = ?", [third.pipeline_run_id])["n"][0] == 0
    assert sql(db, "SELECT doc_id FROM current_documents")["doc_id"].tolist() == [current_id]


def test_a_log_that_grew_replaces_its_run_also_when_read_in_chunks(db, tmp_path):
    from assay.pipelines.logs import build
    from assay.store.queries_runs import metric_curves, runs

    lines = (SAMPLES_LOGS / "megatron_gpt_tp2_pp2.log").read_text("utf-8").splitlines(keepends=True)
    log = tmp_path / "logs" / "train.log"
    log.parent.mkdir()
    log.write_text("".join(lines[:70]), "utf-8")  # the run so far: its first iterations
    assert run_pipeline(load_pipeline("logs"), [log.parent], db=db, progress=False, runner="local").n_ok == 1
    first = runs(db)
    assert len(first) == 1

    log.write_text("".join(lines), "utf-8")  # the same file, grown: read in chunks this time (combine step)
    grown = run_pipeline(build(chunk_mb=4 / 1024), [log.parent], db=db, progress=False, runner="local")
    assert grown.status == "completed" and grown.n_ok == 1
    chunks = sql(db, "SELECT count(*) AS n FROM units_written WHERE pipeline_run_id = ? AND unit_key LIKE '%#%'",
                 [grown.pipeline_run_id])["n"][0]
    assert chunks > 1
    now = runs(db)
    assert len(now) == 1 and now["run_id"][0] != first["run_id"][0]
    assert sql(db, "SELECT count(*) AS n FROM runs")["n"][0] == 2  # the first version's run is kept
    both = [first["run_id"][0], now["run_id"][0]]
    curves = metric_curves(db, both, "loss")
    assert set(curves["run_id"]) == {now["run_id"][0]} and curves["step"].max() > 100
