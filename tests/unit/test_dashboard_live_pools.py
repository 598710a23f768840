"""The Scheduler page on a database whose live jobs ran on a cluster of two GPU types (issue 31): the
allocations carry their pool (``allocations.gpu_type``), and the page draws the workers per type beside
the timeline and the usage. A one-type database draws no such chart (see test_dashboard_views)."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from streamlit.testing.v1 import AppTest

from assay.dashboards import _ui
from assay.store import write_rows

APP = str(Path(_ui.__file__).resolve().parent / "app.py")


def test_the_scheduler_page_shows_live_allocation_per_gpu_type(monkeypatch, tmp_path):
    db = tmp_path / "pools.duckdb"
    t0 = datetime(2026, 1, 5, 9, 0)
    at = [t0 + timedelta(minutes=m) for m in range(4)]
    jobs = [{"job_id": "job-mover", "name": "mover", "state": "completed", "priority": 0, "workers": 0,
             "submitted_at": at[0], "started_at": at[0], "finished_at": at[3]},
            {"job_id": "job-stays", "name": "stays", "state": "running", "priority": 0, "workers": 1,
             "submitted_at": at[0], "started_at": at[1], "heartbeat_at": at[3]}]
    allocations = [
        {"job_id": "job-mover", "at": at[0], "workers": 2, "reason": "start: p", "source": "scheduler",
         "gpu_type": "a"},
        {"job_id": "job-mover", "at": at[2], "workers": 2, "reason": "move: GPU type a -> b: p",
         "source": "scheduler", "gpu_type": "b"},
        {"job_id": "job-stays", "at": at[1], "workers": 1, "reason": "start: p", "source": "scheduler",
         "gpu_type": "a"},
    ]
    write_rows(db, {"jobs": jobs, "allocations": allocations})
    monkeypatch.setenv("ASSAY_DB", str(db))
    page = AppTest.from_file(APP, default_timeout=60).run()
    page.switch_page("views/scheduler.py").run()
    assert not page.exception, [e.value for e in page.exception]
    assert "Allocation per GPU type" in [h.value for h in page.subheader]
    figures = [c.proto.spec for c in page.get("plotly_chart")]
    live = [f for f in figures if "workers per GPU type (live)" in f]
    assert len(live) == 1 and '"name":"a"' in live[0] and '"name":"b"' in live[0]


def test_a_file_from_before_the_gpu_type_column_reads_as_one_type(tmp_path):
    """A database written before schema 6 (no ``allocations.gpu_type``), read as it is: no type, no chart."""
    import duckdb

    from assay.dashboards import _frames
    from assay.store import queries_scheduler

    db = tmp_path / "old.duckdb"
    at = datetime(2026, 1, 5, 9, 0)
    write_rows(db, {"jobs": [{"job_id": "j", "name": "j", "state": "running", "submitted_at": at}],
                    "allocations": [{"job_id": "j", "at": at, "workers": 2, "reason": "start: p"}]})
    with duckdb.connect(str(db)) as con:
        con.execute("ALTER TABLE allocations DROP COLUMN gpu_type")
    segments = queries_scheduler.allocation_segments(db, ["j"])
    assert segments["workers"].tolist() == [2] and segments["gpu_type"].isna().all()
    assert _frames.segments_by_gpu_type(segments).empty
