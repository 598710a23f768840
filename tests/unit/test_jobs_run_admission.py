"""`assay jobs run` applies the admission check of `jobs submit` (issue 27): a job the connected cluster can
never hold is refused at once with a one-line reason, and no job row is left behind (it used to wait for a
placement that never came and leave a `restarting` job). Ray is replaced by a fake one-node, 2-CPU cluster:
the check reads the cluster only through ``assay.jobs._gang``."""

from __future__ import annotations

import sys
import types

import pytest
from typer.testing import CliRunner

from assay.cli._jobs import app as jobs_app
from assay.jobs import _gang
from assay.store import queries_jobs as q

runner = CliRunner()


@pytest.fixture
def two_cpus(monkeypatch):
    """A connected cluster of one node with 2 CPUs; fails the test if a job gets as far as starting."""
    import assay.ray_session as session

    class NeverStarted:  # stands in for the supervisor (whose module imports torch): reaching it fails the test
        def __init__(self, *args, **kwargs):
            pytest.fail("the job was started")

    monkeypatch.setattr(session, "ensure_ray", lambda *a, **k: (False, 0.0))
    monkeypatch.setattr(_gang, "cluster_totals", lambda: {"CPU": 2.0})
    monkeypatch.setattr(_gang, "live_node_resources", lambda: [{"CPU": 2.0, "memory": 1e9}])
    monkeypatch.setitem(sys.modules, "assay.jobs._supervisor", types.SimpleNamespace(JobSupervisor=NeverStarted))


def _run(tmp_path, *args: str):
    db = tmp_path / "run.duckdb"
    result = runner.invoke(jobs_app, ["run", "tiny", "--db", str(db), "-q", *args])
    return result, (len(q.jobs(db)) if db.exists() else 0)


def test_sixteen_workers_of_two_cpus_on_two_cpus_are_refused_at_once(tmp_path, two_cpus):
    result, rows = _run(tmp_path, "--set", "parallel=auto", "--set", "min_workers=16",
                        "--set", "max_workers=16", "--worker-cpus", "2")
    assert result.exit_code == 2, result.output
    assert "min_workers" in result.output and "16 workers can never fit" in result.output
    assert "1 worker slot" in result.output and "2 CPUs per worker" in result.output
    assert rows == 0


def test_a_start_size_the_cluster_cannot_hold_names_the_workers_flag(tmp_path, two_cpus):
    result, rows = _run(tmp_path, "--set", "parallel=auto", "--workers", "4", "--worker-cpus", "1")
    assert result.exit_code == 2, result.output
    assert "--workers" in result.output and "4 workers can never start" in result.output
    assert "--workers <= 2" in result.output
    assert rows == 0
