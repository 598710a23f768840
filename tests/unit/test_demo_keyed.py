"""``assay demo`` on a database that has its results already: what it would run again is found and reused
(samples with the same content, a training job of the very spec, the claim's stored reproduction)."""

from __future__ import annotations

import os
from pathlib import Path

from assay import demo
from assay.checks import Check
from assay.clock import utc_now
from assay.ids import content_id
from assay.jobs import load_spec
from assay.store import write_rows


def test_samples_already_ingested_with_the_same_content_are_not_run_again(tmp_path):
    folder = tmp_path / "samples"
    folder.mkdir()
    (folder / "a.txt").write_text("Quillon trains 1.3x faster than Baseline.")
    (folder / "b.log").write_text("step 1 loss 2.0\n")
    db = str(tmp_path / "d.duckdb")
    assert not demo._ingested(db, folder)  # no database yet
    write_rows(db, {"documents": [{"doc_id": content_id((folder / "a.txt").read_bytes()), "uri": "a", "kind": "paper"}]})
    assert not demo._ingested(db, folder)  # one of two
    write_rows(db, {"documents": [{"doc_id": content_id((folder / "b.log").read_bytes()), "uri": "b", "kind": "log"}]})
    assert demo._ingested(db, folder)
    (folder / "b.log").write_text("step 1 loss 1.5\n")  # changed since: run again
    assert not demo._ingested(db, folder)


def test_a_file_of_several_records_is_in_when_its_records_were_ingested_after_it_last_changed(tmp_path):
    folder = tmp_path / "samples"
    folder.mkdir()
    rows = folder / "c.jsonl"
    rows.write_text('{"text": "Tamarack is 2x faster."}\n{"text": "Ostrich is 3x faster."}\n')
    db = str(tmp_path / "d.duckdb")
    write_rows(db, {"documents": [{"doc_id": f"r{i}", "uri": f"{rows}#{i}", "kind": "paper", "ingested_at": utc_now()}
                                  for i in range(2)]})
    assert demo._ingested(db, folder)
    rows.write_text('{"text": "Tamarack is 2.5x faster."}\n')
    os.utime(rows, (rows.stat().st_atime, rows.stat().st_mtime + 3600))  # changed after the ingest
    assert not demo._ingested(db, folder)


def test_a_completed_job_of_the_very_spec_is_reused_and_another_spec_is_not(tmp_path):
    db = str(tmp_path / "d.duckdb")
    spec = load_spec("gpt-dp", ["steps=20", "checkpoint_every=10"])
    write_rows(db, {"jobs": [{"job_id": "j1", "name": spec.name, "spec": spec.to_json(), "state": "completed"}]})
    assert demo._completed_job(db, spec.to_json()) == "j1"
    other = load_spec("gpt-dp", ["steps=30", "checkpoint_every=15"])
    assert demo._completed_job(db, other.to_json()) is None
    assert demo._completed_job(str(Path(tmp_path) / "none.duckdb"), spec.to_json()) is None


def test_a_stored_reproduction_is_reused_with_its_interval_in_the_line(tmp_path):
    db = str(tmp_path / "d.duckdb")
    assert demo._stored_reproduction(db, "c1") is None
    check = Check("c1", "reproduction", "inconclusive", "two rounds disagree", claimed=1.7, observed=1.1,
                  low=0.7, high=1.9, unit="x")
    write_rows(db, {"claim_checks": [check.row()]})
    stored = demo._stored_reproduction(db, "c1")
    assert stored is not None
    line = demo._verdict_line(stored)
    assert line.startswith("inconclusive: measured 1.10x, 95% interval 0.70-1.90x, claimed 1.70x")
