"""Stopping `assay dashboard` stops the server: no Streamlit child is left serving the port."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import urllib.request

import pytest
from waiting import wait_for

from assay.store import connect

pytestmark = pytest.mark.integration


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serving(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
            return r.read().strip() == b"ok"
    except OSError:
        return False


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["kill", "ctrl-c"])
def test_stopping_the_dashboard_command_by_its_pid_frees_the_port(tmp_path, sig):
    db = tmp_path / "kg.duckdb"
    with connect(db):
        pass
    port = free_port()
    # Not a session of its own: the pid a user sees is the only handle they have.
    proc = subprocess.Popen([sys.executable, "-c", "from assay.cli import main; main()", "dashboard",
                             "--db", str(db), "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: serving(port), 120, "the dashboard to come up", poll_s=0.3)
        proc.send_signal(sig)
        proc.wait(timeout=30)
        wait_for(lambda: not serving(port), 15, "the port to be free after the command stopped", poll_s=0.3)
    finally:
        if proc.poll() is None:
            proc.kill()
