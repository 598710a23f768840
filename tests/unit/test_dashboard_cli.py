"""``assay dashboard``: the command line it runs, and one-line errors for wrong arguments."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from assay.cli import _dashboard
from assay.store import connect


@pytest.fixture
def cli(monkeypatch):
    """The command mounted as the lead mounts it, with the server start recorded instead of run."""
    calls: list[tuple[list[str], dict[str, str]]] = []
    monkeypatch.setattr(_dashboard, "serve", lambda cmd, env: calls.append((cmd, env)))
    app = typer.Typer()
    app.command("dashboard")(_dashboard.dashboard)
    app.command("other")(lambda: None)  # two commands, so the group keeps the command name
    return app, calls


def invoke(app, *args: str):
    return CliRunner().invoke(app, ["dashboard", *args])


def test_serves_the_installed_app_on_loopback_over_the_given_database(cli, tmp_path):
    app, calls = cli
    db = tmp_path / "a.duckdb"
    with connect(db):
        pass
    result = invoke(app, "--db", str(db), "--port", "8611")
    assert result.exit_code == 0, result.output
    cmd, env = calls[0]
    assert cmd[1:4] == ["-m", "streamlit", "run"] and Path(cmd[4]) == _dashboard.app_path()
    assert Path(cmd[4]).is_file()
    flags = dict(zip(cmd[5::2], cmd[6::2], strict=True))
    assert flags["--server.address"] == "127.0.0.1" and flags["--server.port"] == "8611"
    assert flags["--server.headless"] == "true" and flags["--browser.gatherUsageStats"] == "false"
    assert env["ASSAY_DB"] == str(db.resolve())
    assert "http://localhost:8611" in result.output


def test_default_database_comes_from_the_environment(cli, tmp_path, monkeypatch):
    app, calls = cli
    monkeypatch.setenv("ASSAY_DB", str(tmp_path / "env.duckdb"))
    assert invoke(app).exit_code == 0  # a default path that does not exist yet shows first steps
    assert calls[0][1]["ASSAY_DB"] == str((tmp_path / "env.duckdb").resolve())


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["--port", "0"], "--port"),
        (["--port", "70000"], "--port"),
        (["--host", "not a host"], "--host"),
        (["--db", "/nonexistent/assay.duckdb"], "--db"),
    ],
)
def test_wrong_arguments_name_the_flag(cli, args, flag):
    app, calls = cli
    result = invoke(app, *args)
    assert result.exit_code == 2 and not calls
    assert flag in result.output


def test_serving_beyond_this_machine_warns(cli, tmp_path):
    app, calls = cli
    with connect(tmp_path / "a.duckdb"):
        pass
    result = invoke(app, "--db", str(tmp_path / "a.duckdb"), "--host", "0.0.0.0")
    assert result.exit_code == 0 and "anyone who can reach this machine" in result.output
    assert dict(zip(calls[0][0][5::2], calls[0][0][6::2], strict=True))["--server.address"] == "0.0.0.0"
