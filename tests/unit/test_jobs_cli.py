"""``assay jobs`` and ``assay scheduler`` without a cluster: queueing, listing, steering, and one-line errors
that name the flag and the fix."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from assay.cli._jobs import app as jobs_app
from assay.cli._scheduler import scheduler
from assay.jobs import get_job

runner = CliRunner()


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "cli.duckdb")


def _jobs(*args: str):
    return runner.invoke(jobs_app, list(args))


def test_specs_lists_the_builtin_examples():
    out = _jobs("specs")
    assert out.exit_code == 0
    assert "gpt-dp" in out.output and "gpt-3d" in out.output and "dp=2 tp=2 pp=2" in out.output


def test_submit_list_show_and_cancel(db):
    out = _jobs("submit", "gpt-dp", "--set", "steps=60", "--set", "checkpoint_every=10", "--db", db)
    assert out.exit_code == 0, out.output
    job_id = out.stdout.strip()
    assert job_id.startswith("gpt-dp-")
    job = get_job(db, job_id)
    assert job["state"] == "queued" and json.loads(job["spec"])["steps"] == 60

    listed = _jobs("list", "--db", db, "--format", "json")
    assert [j["job_id"] for j in json.loads(listed.output)] == [job_id]
    assert job_id in _jobs("list", "--db", db).output
    assert _jobs("show", job_id[:10], "--db", db).exit_code == 0

    assert _jobs("resize", job_id, "3", "--db", db).exit_code == 0
    assert "cancelled" in _jobs("cancel", job_id, "--db", db).output
    assert get_job(db, job_id)["state"] == "cancelled"
    waited = _jobs("wait", job_id, "--db", db)
    assert waited.exit_code == 1 and "cancelled" in waited.output


@pytest.mark.parametrize(
    ("args", "flag", "words"),
    [
        (["submit", "gpt-dp", "--set", "tp=3"], "--set", "parallel.tp"),
        (["submit", "no-such-spec"], "SPEC", "gpt-dp"),
        (["submit", "gpt-dp", "--set", "steps"], "--set", "key=value"),
        (["cancel", "nope"], "JOB_ID", "assay jobs list"),
        (["list", "--format", "xml"], "--format", "table or json"),
        (["list", "--state", "waitng"], "--state", "queued, waiting, starting"),
    ],
)
def test_wrong_arguments_name_the_flag(db, args, flag, words):
    out = _jobs(*args, "--db", db)
    assert out.exit_code == 2
    assert flag in out.output and words in out.output


def test_resize_outside_the_job_bounds_names_the_argument(db):
    job_id = _jobs("submit", "tiny", "--db", db).stdout.strip()
    out = _jobs("resize", job_id, "9", "--db", db)
    assert out.exit_code == 2 and "WORKERS" in out.output and "max_workers" in out.output


def test_wait_times_out_on_a_queued_job(db):
    job_id = _jobs("submit", "tiny", "--db", db).stdout.strip()
    out = _jobs("wait", job_id, "--db", db, "--timeout", "0.2")
    assert out.exit_code == 3 and "queued" in out.output


def test_scheduler_rejects_an_unknown_policy(db):
    app = typer.Typer()
    app.command()(scheduler)
    out = runner.invoke(app, ["--policy", "nope", "--db", db])
    assert out.exit_code == 2 and "--policy" in out.output and "goodput" in out.output
    out = runner.invoke(app, ["--policy", "fifo", "--knob", "oops", "--db", db])
    assert out.exit_code == 2 and "--knob" in out.output


def test_scheduler_prints_each_decision_and_what_is_left_waiting(db, monkeypatch):
    from assay.live.scheduler import LiveScheduler

    def two_rounds(self, **kwargs):  # what a round reports, without a cluster
        self.rounds = 1
        self.on_round(self, {"ended": [], "applied": ["start a-1 on 2 workers: fifo: starts",
                                                      "wait b-2: needs 4 workers, 0 free; 2 held by a-1 (fifo)"],
                             "waiting": {"b-2": "needs 4 workers, 0 free; 2 held by a-1"}})
        self.rounds = 2
        self.on_round(self, {"ended": [("a-1", "completed"), ("c-3", "preempted")], "applied": [],
                             "waiting": {"b-2": "needs 4 workers, the cluster has 2: cannot start until it grows"}})

    monkeypatch.setattr(LiveScheduler, "run", two_rounds)
    app = typer.Typer()
    app.command()(scheduler)
    out = runner.invoke(app, ["--policy", "fifo", "--db", db])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[1:] == [
        "round 1: start a-1 on 2 workers: fifo: starts",
        "round 1: wait b-2: needs 4 workers, 0 free; 2 held by a-1 (fifo)",
        "round 2: finish a-1: completed",
        "round 2: preempted c-3: checkpointed, back in the queue",
        "scheduler: stopped after 2 rounds; 1 job(s) still waiting",
        "  b-2: needs 4 workers, the cluster has 2: cannot start until it grows",
    ]


def test_show_prints_the_last_metrics_checkpoints_and_events(db):
    from datetime import datetime

    from assay.store import write_rows

    job_id = _jobs("submit", "tiny", "--db", db).stdout.strip()
    at = datetime(2026, 1, 1)
    write_rows(db, {
        "runs": [{"run_id": "r1", "job_id": job_id, "framework": "assay"}],
        "metrics": [{"run_id": "r1", "step": s, "name": "loss", "value": 2.0 / s, "rank": 0, "ts": at}
                    for s in (1, 2, 3)],
        "events": [{"run_id": "r1", "step": 2, "kind": "checkpoint", "detail": "", "line_no": 1, "ts": at},
                   {"run_id": "r1", "step": 3, "kind": "failure", "detail": "rank 1 died", "line_no": 2, "ts": at}],
    })
    out = _jobs("show", job_id, "--db", db)
    assert out.exit_code == 0, out.output
    tail = out.output.split("\n}\n", 1)[1].splitlines()  # after the job's row (JSON)
    assert tail == ["last: loss=0.6667 @ step 3", "1 checkpoints, the last at step 2",
                    "event step 3: failure rank 1 died"]
