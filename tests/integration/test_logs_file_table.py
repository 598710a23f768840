"""`assay run logs` on real Ray into a real DuckDB file ends with the per-file table and names the files that
gave nothing; those are `quarantine` rows at the file level."""

from __future__ import annotations

import duckdb
import pytest
from typer.testing import CliRunner

from assay.cli import app

pytestmark = pytest.mark.integration


def test_run_logs_prints_a_table_and_names_silent_files(ray_local, tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "train.log").write_text(
        "".join(f"step {s} | loss {4 - s / 10:.2f} | lr 1e-4\n" for s in range(1, 21))
    )
    (logs / "heartbeat.log").write_text("".join(f"host{i % 2} alive, {i} ticks\n" for i in range(10)))
    db = tmp_path / "assay.duckdb"
    result = CliRunner().invoke(app, ["run", "logs", "--input", str(logs), "--db", str(db), "--no-progress"])
    assert result.exit_code == 0, result.output
    table = result.output[result.output.index("file ") :].splitlines()
    assert table[0].split() == ["file", "framework", "steps", "series", "events", "unrecognised"]
    rows = {line.split()[0]: line.split() for line in table[1:3]}
    assert rows["train.log"][2:4] == ["20", "2"] and rows["heartbeat.log"][2] == "0"
    assert (
        "1 file(s) gave no metric series" in result.output
        and "heartbeat.log: no metric series" in result.output
    )
    with duckdb.connect(str(db), read_only=True) as con:
        quarantined = con.execute("select source_uri, level from quarantine where level = 'file'").fetchall()
    assert [(uri.rsplit("/", 1)[-1], level) for uri, level in quarantined] == [("heartbeat.log", "file")]
