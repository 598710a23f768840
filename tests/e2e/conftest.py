"""A real dashboard server over a sample database, and a headless Chromium from the system's packages."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import dashboard_data as dd
import pytest
from waiting import wait_for

CHROMIUM = os.environ.get("ASSAY_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, log: Path, timeout: float = 90) -> None:
    def healthy() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"the dashboard exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                return r.read().strip() == b"ok"
        except OSError:
            return False

    try:
        wait_for(healthy, timeout, "the dashboard to come up", poll_s=0.3)
    except AssertionError as exc:
        raise RuntimeError(f"{exc}:\n{log.read_text()}") from None


@pytest.fixture(scope="session")
def dashboard_url(tmp_path_factory) -> Iterator[str]:
    """`assay dashboard --db <sample> --port <free>` as its own process group; stopped at the end.
    ``ASSAY_DASHBOARD_DB=FILE`` serves a copy of that file instead of the sample (only the tests that assert
    no particular content, test_dashboard_readable.py, are meant to run on it).

    Runs the CLI's entry point with this interpreter, so it works with or without the console script on PATH.
    """
    tmp = tmp_path_factory.mktemp("dashboard")
    db = tmp / "assay.duckdb"
    if os.environ.get("ASSAY_DASHBOARD_DB"):
        # Screenshots of another database (the demo's: `assay demo --db FILE`); a copy, never the file itself.
        shutil.copyfile(os.environ["ASSAY_DASHBOARD_DB"], db)
    else:
        dd.fill_sample(db)
    port = _free_port()
    log = tmp / "dashboard.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from assay.cli import main; main()", "dashboard", "--db", str(db),
             "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=tmp,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium, or set ASSAY_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (no state from another test) at the size the screenshots use."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture(scope="session")
def screenshot_dirs(tmp_path_factory) -> list[Path]:
    dirs = [tmp_path_factory.mktemp("screenshots")]
    if os.environ.get("ASSAY_SCREENSHOTS"):
        dirs.append(Path(os.environ["ASSAY_SCREENSHOTS"]))
        dirs[-1].mkdir(parents=True, exist_ok=True)
    return dirs
