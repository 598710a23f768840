"""`assay run logs --runner local` (the table is the pipeline's report, the same on either runner) into a real
DuckDB file ends with the per-file table and names the files that gave nothing; those are `quarantine` rows
at the file level."""

from __future__ import annotations

import duckdb
import pytest
from typer.testing import CliRunner

from assay.cli import app, main

pytestmark = pytest.mark.integration


def test_run_logs_prints_a_table_and_names_silent_files(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "train.log").write_text(
        "".join(f"step {s} | loss {4 - s / 10:.2f} | lr 1e-4\n" for s in range(1, 21))
    )
    (logs / "heartbeat.log").write_text("".join(f"host{i % 2} alive, {i} ticks\n" for i in range(10)))
    db = tmp_path / "assay.duckdb"
    result = CliRunner().invoke(app, ["run", "logs", "--input", str(logs), "--db", str(db), "--no-progress",
                                      "--runner", "local"])
    assert result.exit_code == 0, result.output
    table = result.output[result.output.index("file ") :].splitlines()
    assert table[0].split() == ["file", "framework", "status", "steps", "range", "series", "events", "unrecognised"]
    rows = {line.split()[0]: line.split() for line in table[1:3]}
    assert rows["train.log"][3:6] == ["20", "1-20", "2"] and rows["heartbeat.log"][3] == "0"
    assert "2 in, 1 ok, 1 quarantined" in result.output  # the headline counts the silent file
    assert (
        "1 file(s) gave no metric series" in result.output
        and "heartbeat.log: no metric series" in result.output
    )
    with duckdb.connect(str(db), read_only=True) as con:
        quarantined = con.execute("select source_uri, level from quarantine where level = 'file'").fetchall()
    assert [(uri.rsplit("/", 1)[-1], level) for uri, level in quarantined] == [("heartbeat.log", "file")]


def test_counts_reconcile_and_an_empty_file_is_quarantined_not_a_run(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "train.log").write_text("".join(f"step {s} | loss {4 - s / 10:.2f}\n" for s in range(1, 11)))
    (logs / "heartbeat.log").write_text("".join(f"host{i % 2} alive, {i} ticks\n" for i in range(10)))
    (logs / "empty.log").write_bytes(b"")
    db = tmp_path / "assay.duckdb"
    result = CliRunner().invoke(app, ["run", "logs", "--input", str(logs), "--db", str(db), "--no-progress",
                                      "--runner", "local"])
    assert result.exit_code == 0, result.output
    assert "3 in, 1 ok, 2 quarantined" in result.output
    assert "empty.log: ValueError: empty file" in result.output
    with duckdb.connect(str(db), read_only=True) as con:
        runs = {u.rsplit("/", 1)[-1] for (u,) in con.execute("select source_uri from runs").fetchall()}
        quarantined = con.execute(
            "select count(distinct source_uri) from quarantine where level in ('file', 'input')"
        ).fetchone()[0]
        n_ok, n_quarantined = con.execute("select n_ok, n_quarantined from pipeline_runs").fetchone()
    assert runs == {"train.log", "heartbeat.log"}
    assert (n_ok, n_quarantined) == (1, quarantined) == (1, 2)


def test_an_empty_folder_exits_non_zero_and_writes_no_pipeline_run(tmp_path, capsys):
    (tmp_path / "logs").mkdir()
    db = tmp_path / "assay.duckdb"
    with pytest.raises(SystemExit) as exited:
        main(["run", "logs", "--input", str(tmp_path / "logs"), "--db", str(db), "--no-progress"])
    assert exited.value.code != 0
    assert "no file to read" in capsys.readouterr().err
    assert not db.exists()  # no Ray started, no pipeline run written


def test_a_folder_where_every_file_gave_nothing_exits_non_zero(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "empty.log").write_bytes(b"")
    (logs / "notes.log").write_text("nothing here to read\nstill nothing\n")
    result = CliRunner().invoke(
        app, ["run", "logs", "--input", str(logs), "--db", str(tmp_path / "a.duckdb"), "--no-progress",
             "--runner", "local"]
    )
    assert result.exit_code == 1
    assert "none of the 2 file(s) gave anything" in result.output
