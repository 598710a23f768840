"""The dashboard keeps working while another process writes the database in short transactions."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import dashboard_data as dd
import pytest
from streamlit.testing.v1 import AppTest

from assay.dashboards import _ui
from assay.store import queries_claims, queries_knowledge, queries_runs

# A writer like the pipelines' and the scheduler's: many short transactions, each opening and closing
# the file.
WRITER = """
import sys, time
from datetime import datetime
from assay.store import write_rows
db, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    write_rows(db, {
        "metrics": {"run_id": ["live"] * 200, "step": list(range(i * 200, (i + 1) * 200)),
                    "name": ["loss"] * 200, "value": [1.0 / (1 + i)] * 200, "rank": [0] * 200,
                    "ts": [datetime.now()] * 200},
        "claims": [{"claim_id": f"live-{i}", "subject": "Live", "metric": "throughput", "value": float(i)}],
        "runs": [{"run_id": "live", "framework": "live", "model": "m", "status": "running"}],
    })
    time.sleep(0.01)
print("wrote", n, flush=True)
"""


@pytest.mark.integration
def test_queries_and_pages_work_while_another_process_writes(tmp_path: Path, monkeypatch):
    db = tmp_path / "assay.duckdb"
    dd.fill_sample(db, steps=40)
    base = queries_knowledge.table_counts(db)
    n_writes = 60
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db), str(n_writes)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    monkeypatch.setenv("ASSAY_DB", str(db))
    seen: list[int] = []
    pages = 0
    try:
        deadline = time.monotonic() + 60
        while writer.poll() is None and time.monotonic() < deadline:
            seen.append(queries_claims.claims_count(db, queries_claims.ClaimFilter(systems=("Live",))))
            queries_runs.metric_curves(db, ["live", dd.run_id("meg-gpt-8")], "loss", buckets=50)
            queries_claims.claims(db, queries_claims.ClaimFilter(text="'; DROP TABLE claims; --"))
            # the pages render once two reads are in: a cold first render can outlast the writer on a loaded machine
            if pages < 2 and len(seen) >= 2:
                _ui.refresh()  # render from the database, not from the cache
                at = AppTest.from_file(str(Path(_ui.__file__).parent / "app.py"), default_timeout=60).run()
                at.switch_page("views/runs.py").run()
                assert not at.exception, [e.value for e in at.exception]
                pages += 1
        out, err = writer.communicate(timeout=60)
    finally:
        if writer.poll() is None:
            writer.kill()
    assert writer.returncode == 0, err
    assert out.strip() == f"wrote {n_writes}"
    # How many reads fit depends on the machine's load (two full page renders share the loop); that reads
    # went through while the writer ran at all is the point.
    assert len(seen) >= 2, "the reader should get queries in while the writer runs"
    assert pages, "a page should render while the writer runs"
    assert seen == sorted(seen), "committed rows never disappear from a reader's view"
    after = queries_knowledge.table_counts(db)
    assert after["claims"] == base["claims"] + n_writes
    assert after["metrics"] == base["metrics"] + 200 * n_writes
