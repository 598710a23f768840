"""``assay check`` as a user reads it: a claim asked for by id gets its reason even when no verdict could be
reached, and a decided verdict prints its interval beside the claimed figure."""

from __future__ import annotations

from typer.testing import CliRunner

from assay.cli import app
from assay.store import write_rows


def test_reproducing_a_system_against_a_system_says_why_it_cannot(tmp_path):
    db = tmp_path / "c.duckdb"
    write_rows(db, {"claims": [{"claim_id": "sys1", "doc_id": "d", "metric": "throughput", "measure": "throughput",
                                "direction": "higher", "unit": "x", "value": 1.8, "subject": "QuickTrain",
                                "versus": "SlowTrain", "text": "QuickTrain is 1.8x faster than SlowTrain"}]})
    out = CliRunner().invoke(app, ["check", "sys1", "--reproduce", "--db", str(db)])
    assert out.exit_code == 0, out.output
    line = next(x for x in out.output.splitlines() if "reproduction" in x and "sys1" in x)
    assert "untestable" in line and "not a parallel layout" in line
    runs = next(x for x in out.output.splitlines() if " runs " in x and "sys1" in x)
    assert "no runs in the database" in runs
