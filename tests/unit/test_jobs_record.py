"""Recording jobs: metric rows exactly once across a rewind, users' requests, driver liveness, and a log
that assay's own Megatron parser reads back. DuckDB files under tmp_path; no Ray, no torch."""

from __future__ import annotations

import os
import re
from datetime import timedelta

import pytest

from assay.clock import utc_now
from assay.jobs._record import MegatronLog, Recorder, owner_alive, owner_id
from assay.jobs.runner import get_job, load_job, new_job, request_cancel, request_resize, submit
from assay.jobs.spec import load_spec
from assay.store import queries_jobs as q
from assay.store.queries import sql


@pytest.fixture
def db(tmp_path):
    return tmp_path / "jobs.duckdb"


def _recorder(db, tmp_path):
    job = new_job(load_spec("tiny"), state="running")
    return Recorder(db, job, "run-1", tmp_path / "train.log")


def test_metrics_are_buffered_then_flushed_with_the_job_row(db, tmp_path):
    rec = _recorder(db, tmp_path)
    for step in range(1, 4):
        rec.metrics(step, {"loss": 4.0 - step / 10, "tokens_per_s": 100.0})
    rec.flush(force=True)
    rows = sql(db, "SELECT step, name, value FROM metrics ORDER BY name, step")
    assert len(rows) == 6
    assert rows[rows.name == "loss"].step.tolist() == [1, 2, 3]
    job = q.job(db, rec.job.job_id)
    assert job["state"] == "running" and job["heartbeat_at"] is not None


def test_rewind_keeps_each_step_once(db, tmp_path):
    rec = _recorder(db, tmp_path)
    for step in range(1, 8):
        rec.metrics(step, {"loss": float(step)})
    rec.flush(force=True)
    rec.metrics(8, {"loss": 8.0})  # buffered, not yet written, after the checkpoint too
    rec.rewind(5, "restart", "restarting from checkpoint at step 5")
    for step in range(6, 10):  # the steps after the checkpoint run again
        rec.metrics(step, {"loss": step + 0.5})
    rec.flush(force=True)
    loss = sql(db, "SELECT step, value FROM metrics WHERE name = 'loss' ORDER BY step")
    assert loss.step.tolist() == list(range(1, 10))
    assert loss.value.tolist()[4:] == [5.0, 6.5, 7.5, 8.5, 9.5]
    events = sql(db, "SELECT step, kind FROM events")
    assert events.to_dict("records") == [{"step": 5, "kind": "restart"}]


def test_user_requests_are_pending_until_answered(db):
    job_id = submit(load_spec("tiny"), db)
    assert request_resize(db, job_id, 2) == "queued"
    pending = q.user_requests(db, [job_id])
    assert [(r["request"], r["workers"]) for r in pending] == [("resize", 2)]
    rec = Recorder(db, load_job(db, job_id), "run-x", db.parent / "x.log")
    rec.allocation(2, {"dp": 2}, "resize: requested by user", "runner")
    rec.flush(force=True)
    assert q.user_requests(db, [job_id]) == []


def test_requests_are_checked_against_the_spec(db):
    job_id = submit(load_spec("tiny"), db)  # min 1, max 4 workers
    with pytest.raises(ValueError, match="max_workers=4"):
        request_resize(db, job_id, 9)
    with pytest.raises(KeyError, match="no such job"):
        request_resize(db, "nope", 2)


def test_cancelling_a_queued_job_is_immediate(db):
    job_id = submit(load_spec("tiny"), db)
    assert get_job(db, job_id[:8])["job_id"] == job_id  # a unique prefix finds it
    assert request_cancel(db, job_id) == "cancelled"
    job = get_job(db, job_id)
    assert job["state"] == "cancelled" and job["finished_at"] is not None
    assert request_cancel(db, job_id) == "cancelled"  # idempotent


def test_cancelling_a_running_job_goes_through_its_driver(db):
    job = new_job(load_spec("tiny"), state="running")
    job.owner = owner_id()  # this process: alive
    Recorder(db, job, "r", db.parent / "r.log").flush(force=True)
    assert request_cancel(db, job.job_id) == "cancelling"
    assert [r["request"] for r in q.user_requests(db, [job.job_id])] == ["cancel"]
    assert get_job(db, job.job_id)["state"] == "running"


def test_owner_liveness():
    assert owner_alive(owner_id(), None)
    host = owner_id().rsplit(":", 1)[0]
    dead_pid = 2**22 + 12345  # above the default pid_max
    assert not owner_alive(f"{host}:{dead_pid}", utc_now())
    assert owner_alive("elsewhere:1", utc_now())  # another host: trust a fresh heartbeat
    assert not owner_alive("elsewhere:1", utc_now() - timedelta(seconds=600))
    assert not owner_alive(None, utc_now())


def _write_log(path, spec):
    log = MegatronLog(path)
    log.header(8, 2, 2, 2, spec, 2)
    for step in range(1, 6):
        log.iteration(step, spec.steps, {"loss": 4.0 - step / 10, "lr": 1e-3, "step_time_ms": 12.5,
                                         "grad_norm": 0.5}, spec.global_batch)
    log.saved(path.parent / "ckpt", 5)
    log.restarting(5, "failure 1 of at most 3: rank 1 died")
    log.done()


def test_log_lines_follow_megatron(tmp_path):
    spec = load_spec("gpt-3d")
    path = tmp_path / "train.log"
    _write_log(path, spec)
    text = path.read_text()
    assert ("using world size: 8, data-parallel size: 2, context-parallel size: 1, "
            "tensor-model-parallel size: 2, pipeline-model-parallel size: 2") in text
    line = re.compile(
        r"^ iteration\s+(\d+)/\s*(\d+) \| consumed samples:\s+(\d+) \| elapsed time per iteration \(ms\): "
        r"[\d.]+ \| learning rate: [\d.E+-]+ \| global batch size:\s+16 \| lm loss: ([\d.E+-]+) \| "
        r"loss scale: 1.0 \| grad norm: [\d.]+ \| number of skipped iterations:\s+0 \| "
        r"number of nan iterations:\s+0 \|$", re.M)
    found = line.findall(text)
    assert [int(m[0]) for m in found] == [1, 2, 3, 4, 5]
    assert int(found[-1][2]) == 5 * 16
    assert float(found[0][3]) == pytest.approx(3.9)


def test_assays_log_parser_reads_the_log_back(tmp_path):
    logs = pytest.importorskip("assay.operators.logs")
    spec = load_spec("gpt-3d")
    path = tmp_path / "train.log"
    _write_log(path, spec)
    record = logs.log_split({"source_uri": str(path)})
    assert record["log_format"] == "megatron"
    out = logs.log_parse(record)
    run = out["runs"][0]
    assert (run["world_size"], run["dp"], run["tp"], run["pp"]) == (8, 2, 2, 2)
    assert run["global_batch_size"] == 16 and run["micro_batch_size"] == 2
    metrics = out["metrics"].to_pandas()
    assert sorted(metrics[metrics.name == "loss"].step) == [1, 2, 3, 4, 5]
    assert os.path.getsize(path) > 0


def test_a_jobs_final_rows_are_written_even_if_the_database_is_busy_for_a_while(db, tmp_path, monkeypatch):
    import assay.jobs._record as record
    from assay.store import DatabaseBusy

    rec = _recorder(db, tmp_path)
    rec.job.finish("completed", utc_now())
    real, calls = record.write_rows, []

    def busy_twice(*args, **kwargs):
        calls.append(1)
        if len(calls) <= 2:
            raise DatabaseBusy("held by another process")
        return real(*args, **kwargs)

    monkeypatch.setattr(record, "write_rows", busy_twice)
    assert rec.flush_final(timeout_s=10, wait_s=0.0)
    assert len(calls) == 3 and q.job(db, rec.job.job_id)["state"] == "completed"

    def always_busy(*args, **kwargs):
        raise DatabaseBusy("held by another process")

    monkeypatch.setattr(record, "write_rows", always_busy)
    assert not rec.flush_final(timeout_s=0.0, wait_s=0.0)  # gives up after the timeout, says so in the log
