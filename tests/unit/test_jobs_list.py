"""`assay jobs list` (issue 30): a progress column (step of steps) and the error column for failed jobs only
(a running job used to show the message it had while queued); every column explained in --help."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from assay.cli._jobs import LIST_COLUMNS
from assay.cli._jobs import app as jobs_app
from assay.jobs import load_spec
from assay.jobs.runner import new_job
from assay.store import write_rows
from assay.store.job_state import job_to_row

runner = CliRunner()


def _job(state: str, steps: int, error: str | None) -> dict:
    """A ``jobs`` row in ``state`` as a listing meets it (written as is, not moved there by a driver)."""
    return {**job_to_row(new_job(load_spec("tiny", [f"steps={steps}"]))), "state": state, "error": error}


def test_progress_is_step_of_steps_and_only_failed_jobs_show_an_error(tmp_path):
    db = tmp_path / "list.duckdb"
    running = _job("running", 40, "waiting for 2 workers (queued message)")
    failed = _job("failed", 40, "worker 1 died: out of memory")
    done = _job("completed", 12, None)
    queued = _job("queued", 30, "no room yet")
    run_id = f"job-run-{running['job_id']}"
    write_rows(db, {
        "jobs": [running, failed, done, queued],
        "runs": [{"run_id": run_id, "job_id": running["job_id"], "status": "running"},
                 {"run_id": "r-failed", "job_id": failed["job_id"], "status": "failed"}],
        "metrics": [{"run_id": run_id, "step": s, "name": "loss", "value": 4.0 - s / 10, "rank": 0}
                    for s in (1, 5, 17)] + [{"run_id": "r-failed", "step": 9, "name": "loss", "value": 3.0,
                                              "rank": 0}],
    }, upsert=["jobs"])
    out = runner.invoke(jobs_app, ["list", "--db", str(db), "--format", "json"])
    assert out.exit_code == 0, out.output
    rows = {r["job_id"]: r for r in json.loads(out.output)}
    assert list(next(iter(rows.values()))) == list(LIST_COLUMNS)
    assert rows[running["job_id"]]["progress"] == "17/40" and rows[running["job_id"]]["error"] is None
    assert rows[failed["job_id"]]["progress"] == "9/40"
    assert rows[failed["job_id"]]["error"] == "worker 1 died: out of memory"
    assert rows[done["job_id"]]["progress"] == "12/12"
    assert rows[queued["job_id"]]["progress"] == "0/30" and rows[queued["job_id"]]["error"] is None
    table = runner.invoke(jobs_app, ["list", "--db", str(db)]).output
    assert "progress" in table.splitlines()[0] and "queued message" not in table and "17/40" in table


def test_the_help_explains_every_column():
    out = runner.invoke(jobs_app, ["list", "--help"], terminal_width=200)
    text = " ".join(out.output.split())
    for column in LIST_COLUMNS:
        assert f"{column}:" in text, column
