"""The README as a new user follows it: its pipeline example runs as written, and every command of its
command-line block either runs here (on the bundled samples) or is listed below with the test that
covers it instead. A command added to the README without either fails this test."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
SAMPLES = ROOT / "pipelines" / "samples"

#: Paths in the README that stand for the user's own folders, and what this test gives instead.
USER_PATHS = {"~/papers": str(SAMPLES / "papers"), "~/experiments/": str(SAMPLES / "logs")}

#: Commands not run here, each with the reason (and where it is tested).
NOT_RUN_HERE = {
    "assay run ./my_pipeline.py": "run below from the README's own code block; on a cluster in test_runtime_clusters",
    "assay eval": "needs the user's gold file; tested in tests/unit/test_papers_eval.py",
    "assay check CLAIM_ID": "runs training jobs through the scheduler; tested in "
                            "tests/integration/test_checks_reproduce.py",
    "assay jobs": "trains models; tested in tests/integration/test_jobs_*.py and test_scheduler_live.py",
    "assay scheduler": "runs until stopped; tested in tests/integration/test_scheduler_live.py",
    "assay dashboard": "serves until stopped; tested in test_dashboard_lifecycle.py and tests/e2e",
    "assay demo": "what `make demo` runs",
}


def command_lines() -> list[str]:
    block = re.search(r"## Command line\n```\n(.*?)```", README, re.S).group(1)
    lines = []
    for line in block.splitlines():
        for command in line.split(" ; "):
            command = re.sub(r"\s+#.*$", "", command).strip()
            if command:
                lines.append(command)
    return lines


def as_user_would(command: str) -> list[str]:
    for path, sample in USER_PATHS.items():
        command = command.replace(path, sample)
    return shlex.split(command)


def assay(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from assay.cli import main; main()", *args[1:]],
                          capture_output=True, text=True, timeout=300, cwd=cwd)


def test_every_readme_command_runs_or_says_where_it_is_tested(tmp_path):
    ran = []
    for command in command_lines():
        if any(command.startswith(prefix) for prefix in NOT_RUN_HERE):
            continue
        out = assay(as_user_would(command), cwd=tmp_path)
        assert out.returncode == 0, f"{command}\n{out.stderr}"
        assert "Traceback" not in out.stderr, command
        ran.append(command)
    assert any(c.startswith("assay run papers") for c in ran) and any(c.startswith("assay query") for c in ran)
    assert (tmp_path / "assay.duckdb").exists()  # the default database, where the README says it is


def test_the_readme_pipeline_example_runs_as_written(tmp_path):
    (code,) = re.findall(r"```python\n(# my_pipeline\.py.*?)```", README, re.S)
    (tmp_path / "my_pipeline.py").write_text(code)
    out = assay(["assay", "run", "./my_pipeline.py", "--input", USER_PATHS["~/papers"]], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert re.search(r"my-papers: (\d+) in, \1 ok, 0 quarantined", out.stdout), out.stdout
    claims = assay(["assay", "query", "select count(*) as n from claims where metric = 'speedup'",
                    "--format", "csv"], cwd=tmp_path)
    assert int(claims.stdout.splitlines()[1]) > 0
