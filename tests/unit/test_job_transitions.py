"""A job's life as the typed Job carries it: legal moves change it, illegal ones are refused before anything
changes, and its row crosses the store's boundary unchanged both ways."""

import ast
import inspect
from datetime import datetime
from pathlib import Path

import pytest

from assay.domain import IllegalMove, Job, JobState
from assay.domain.job_state import FINAL_STATES, MOVES, check_move
from assay.jobs.runner import new_job
from assay.jobs.spec import load_spec
from assay.store import queries_jobs as q
from assay.store import write_rows
from assay.store.job_state import COLUMNS, job_from_row, job_to_row

AT = datetime(2026, 1, 2, 3, 4, 5)


def _job(state: str = "queued") -> Job:
    return new_job(load_spec("tiny", ["name=life"]), state=state)


def test_a_job_runs_through_its_whole_life_by_its_transitions():
    job = _job()
    job.start("host:1", AT)
    assert (job.state, job.owner, job.started_at) == (JobState.STARTING, "host:1", AT)
    job.wait()
    job.run(2, '{"dp": 2}')
    assert (job.state, job.workers, job.plan) == (JobState.RUNNING, 2, '{"dp": 2}')
    job.run()  # a chunk later: still running, same workers
    assert job.count_failure() == 1
    job.restart()
    job.run(1, '{"dp": 1}')
    job.resize()
    job.preempt()
    assert (job.state, job.workers, job.owner) == (JobState.PREEMPTED, 0, None)
    job.start("host:2", datetime(2026, 1, 3))
    assert job.started_at == AT and job.resumed  # a resume keeps the first start
    job.finish(JobState.COMPLETED, AT)
    assert (job.state, job.finished_at, job.error, job.attempts) == (JobState.COMPLETED, AT, None, 1)


@pytest.mark.parametrize("move", [
    lambda job: job.run(2, "{}"),            # a queued job nobody started cannot run
    lambda job: job.preempt(),               # ... nor be preempted
    lambda job: job.finish("completed", AT),  # ... nor complete
    lambda job: job.move("restarting"),
])
def test_a_queued_job_cannot_skip_its_start(move):
    job = _job()
    before = job_to_row(job)
    with pytest.raises(IllegalMove, match="cannot move from queued"):
        move(job)
    assert job_to_row(job) == before  # refused before anything changed


@pytest.mark.parametrize("end", FINAL_STATES)
def test_a_final_state_is_never_left(end):
    job = _job("running")
    job.finish(end, AT, "why")
    for move in (lambda: job.start("host:1", AT), lambda: job.run(), lambda: job.finish("failed", AT),
                 job.count_failure):
        with pytest.raises(IllegalMove, match=f"is {end}"):
            move()
    assert job.state == end and job.error == "why"


def test_finish_takes_only_an_end_and_nothing_goes_back_to_the_queue():
    job = _job("running")
    with pytest.raises(IllegalMove, match="not an end"):
        job.finish("preempted", AT)
    with pytest.raises(IllegalMove, match="from running: "):
        job.move("queued")
    assert not any(JobState.QUEUED in targets for targets in MOVES.values())


def test_every_state_has_its_moves_and_staying_put_is_allowed_unless_final():
    assert set(MOVES) == set(JobState)
    for state in JobState:
        if state in FINAL_STATES:
            with pytest.raises(IllegalMove):
                check_move(state, state)
        else:
            assert check_move(state, state) == state


def test_a_job_crosses_the_store_boundary_unchanged(tmp_path):
    db = tmp_path / "jobs.duckdb"
    job = _job()
    job.start("host:7", AT)
    job.run(2, '{"dp": 2}')
    job.gpu_type = "a100"  # not a column: never stored
    write_rows(db, {"jobs": [job_to_row(job)]}, upsert=["jobs"])
    row = q.job(db, job.job_id)
    assert set(row) == set(COLUMNS) and row["state"] == "running" and type(row["state"]) is str
    back = job_from_row(row)
    assert back == job and back.gpu_type is None
    assert back.spec_of() == job.spec_of()


def test_the_supervisor_owns_its_gang_driver_and_no_hook_is_left_unimplemented():
    from assay.jobs import _supervisor, _training

    assert _training.GangDriver not in _supervisor.JobSupervisor.__mro__
    for module in (_supervisor, _training):
        tree = ast.parse(Path(inspect.getfile(module)).read_text())
        raised = [n.exc for n in ast.walk(tree) if isinstance(n, ast.Raise) and n.exc is not None]
        names = {getattr(e, "id", None) or getattr(getattr(e, "func", None), "id", None) for e in raised}
        assert "NotImplementedError" not in names, module.__name__


def test_the_gang_driver_sizes_chunks_up_to_the_next_checkpoint_and_merges_ranks(tmp_path):
    from assay.jobs._training import GangDriver, merge_metrics

    spec = load_spec("tiny", ["steps=25", "checkpoint_every=10"])
    driver = GangDriver(spec, "j", tmp_path)
    assert driver.chunk(0) == (1, False)  # no step time yet: one step
    driver.step_ms = 10.0  # 50 steps fit in a chunk's half second
    assert driver.chunk(3) == (7, True) and driver.chunk(20) == (5, True)
    rank = {"loss": float("nan"), "grad_norm": 1.0, "lr": 0.1, "step_time_ms": 100.0, "memory_mb": 5.0}
    merged = merge_metrics(spec, [rank, {**rank, "loss": 2.5, "step_time_ms": 200.0, "memory_mb": 9.0}])
    assert merged["loss"] == 2.5 and merged["step_time_ms"] == 200.0 and merged["memory_mb"] == 9.0
    assert merged["samples_per_s"] == spec.global_batch / 0.2
