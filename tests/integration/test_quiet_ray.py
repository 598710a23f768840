"""Every command is quiet about Ray unless --verbose (issue 30): a real `assay jobs run` in a subprocess starts
embedded Ray (which, with a token file in ~/.ray, logs a token-auth WARNING and its C++ notes) and is then
refused by admission; stderr holds assay's one-line refusal and no line of Ray's. Needs a real Ray start:
the warnings come from Ray's own start-up, which no fake reproduces. About 10 s."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration


def test_jobs_run_prints_no_ray_warning(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    cmd = [sys.executable, "-c", "from assay.cli import main; main()", "jobs", "run", "tiny", "--db", str(tmp_path / "q.duckdb"),
           "--set", "parallel=auto", "--set", "min_workers=64", "--set", "max_workers=64", "--worker-cpus", "1"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "64 workers can never fit" in lines[0], out.stderr
    assert "WARNING" not in out.stderr and "Warning" not in out.stderr
