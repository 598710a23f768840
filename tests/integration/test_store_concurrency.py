"""Design pitfall 1, tested as users hit it: a pipeline and the scheduler write the database while the
dashboard renders its pages from it, all at once, as separate processes. Nobody waits forever, nobody
fails, and every writer's rows arrive."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from assay.demo import samples_dir
from assay.store import connect
from assay.store.queries import counts, sql

pytestmark = pytest.mark.integration

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
VIEWS = ["overview", "knowledge", "claims", "runs", "scheduler", "pipelines"]


def assay(*args: str) -> subprocess.Popen:
    code = "from assay.cli import main; main()"
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def test_pipeline_scheduler_and_dashboard_share_the_database(tmp_path, monkeypatch):
    db = tmp_path / "shared.duckdb"
    with connect(db):
        pass
    writers = [
        # The local runner: the writer is the same sink on either runner, and Ray's start-up is not the subject.
        assay("run", "papers", "--input", str(samples_dir("papers")), "--db", str(db), "--no-progress",
              "--runner", "local"),
        assay("simulate", "--workload", "philly:60", "--policy", "all", "--gpus", "32", "--db", str(db)),
    ]
    monkeypatch.setenv("ASSAY_DB", str(db))
    monkeypatch.setenv("ASSAY_DASHBOARD_TTL", "0")
    renders = 0
    deadline = time.time() + 300
    while any(w.poll() is None for w in writers) and time.time() < deadline:
        for view in VIEWS:
            at = AppTest.from_file(APP, default_timeout=60).run()
            if view != "overview":
                at.switch_page(f"views/{view}.py").run()
            assert not at.exception, [e.value for e in at.exception]
            renders += 1
    outputs = [w.communicate(timeout=120)[0] for w in writers]
    assert all(w.returncode == 0 for w in writers), outputs
    assert renders >= len(VIEWS)
    table_counts = counts(db)
    assert table_counts["documents"] > 20 and table_counts["claims"] > 20
    assert set(sql(db, "SELECT DISTINCT policy FROM sim_runs")["policy"]) >= {"fifo", "tiresias", "goodput"}
    assert os.path.getsize(db) > 0
