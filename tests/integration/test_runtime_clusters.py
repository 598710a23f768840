"""The first hour on a laptop and on a small cluster: every built-in pipeline and the README's own example
complete on 1 CPU, 2 CPUs and two 1-CPU nodes (real `ray start` processes); an impossible `concurrency`
fails before the run with the step named; a stage that blocks trips the watchdog, which names it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assay.dsl import PipelineError, load_pipeline
from assay.ray_session import ensure_ray, own_autoscaler_monitors, shutdown_ray
from assay.runtime import StalledError, run_pipeline
from assay.store.queries import sql

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "pipelines" / "samples"


def readme_example(tmp_path: Path, **replace: str) -> Path:
    """The README's pipeline code block, written to a file as a user would save it."""
    (block,) = re.findall(r"```python\n(# my_pipeline\.py.*?)```", (ROOT / "README.md").read_text(), re.S)
    for old, new in replace.items():
        assert old in block
        block = block.replace(old, new)
    path = tmp_path / "user" / "my_pipeline.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(block)
    return path


def inputs(tmp_path: Path) -> tuple[Path, Path]:
    """A few papers, and a folder of logs that also holds a paper (which the logs pipeline must skip)."""
    papers, logs = tmp_path / "papers", tmp_path / "logs"
    papers.mkdir(parents=True)
    logs.mkdir(parents=True)
    for name in ("cinder.txt", "pylon.tex", "heron_zh.txt"):
        shutil.copy(SAMPLES / "papers" / name, papers)
    for name in ("megatron_gpt_tp2_pp2.log", "deepspeed_zero3.log", "nanogpt_shakespeare_char.log"):
        shutil.copy(SAMPLES / "logs" / name, logs)
    shutil.copy(SAMPLES / "papers" / "pylon.tex", logs)
    return papers, logs


def run_all(tmp_path: Path, address: str | None = None) -> dict[str, object]:
    papers, logs = inputs(tmp_path)
    db = tmp_path / "kg.duckdb"
    out = {}
    for name, pipe, src in (("papers", load_pipeline("papers"), papers),
                            ("logs", load_pipeline("logs"), logs),
                            ("readme", load_pipeline(str(readme_example(tmp_path))), papers)):
        out[name] = run_pipeline(pipe, [src], db=db, address=address, progress=False, stall_s=90, stall_fail=True)
    out["db"] = db
    return out


def assert_all_complete(results: dict[str, object]) -> None:
    for name in ("papers", "logs", "readme"):
        summary = results[name]
        assert summary.status == "completed", name
        assert summary.n_in == summary.n_ok + summary.n_quarantined == 3, (name, summary)
    runs = sql(results["db"], "SELECT source_uri FROM runs")["source_uri"]
    assert len(runs) == 3 and not any(u.endswith(".tex") for u in runs)  # the paper among the logs is skipped
    tagged = sql(results["db"], "SELECT name FROM entities WHERE entity_id LIKE 'system:%'")["name"]
    assert "Megatron-LM" in set(tagged)  # the README example's own tagger ran


@pytest.fixture(scope="module", params=[1, 2], ids=["1cpu", "2cpus"])
def ray_with_cpus(request):
    """An embedded Ray with exactly this many CPUs, started once for this module's tests of that size (pytest
    runs them one after the other); the shared session is stopped first and restarted by its next user."""
    import ray

    if ray.is_initialized():
        shutdown_ray()
    ray.init(address="local", num_cpus=request.param, include_dashboard=False, logging_level="ERROR")
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield request.param
    shutdown_ray()


def test_every_builtin_pipeline_and_the_readme_example_complete(ray_with_cpus, tmp_path):
    assert_all_complete(run_all(tmp_path))


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def descendants() -> set[int]:
    """The processes this one started, and theirs, alive now."""
    parent = {}
    for entry in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    found, todo = set(), [os.getpid()]
    while todo:
        me = todo.pop()
        kids = {pid for pid, ppid in parent.items() if ppid == me and alive(pid)}
        todo += list(kids - found)
        found |= kids
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the monitor is found through /proc")
@pytest.mark.ends_shared_ray  # starts and stops an embedded instance of its own
def test_stopping_the_embedded_instance_stops_every_process_it_started():
    """``shutdown_ray`` kills the autoscaler monitor itself first (Ray's own order would give it a second's
    grace against a GCS already gone), found as a child of this process, and still stops everything the
    instance started."""
    import ray

    if ray.is_initialized():
        shutdown_ray()
    before = descendants()
    started, _ = ensure_ray(None, num_cpus=1)
    assert started
    monitors = own_autoscaler_monitors()
    assert len(monitors) == 1
    started_here = descendants() - before
    assert set(monitors) <= started_here
    t0 = time.perf_counter()
    shutdown_ray()
    took = time.perf_counter() - t0
    assert not ray.is_initialized()
    assert not alive(monitors[0])
    # Ray's own teardown gives the monitor a second's grace after the GCS is gone; killed first, it waits none.
    assert took < 5, took
    assert [pid for pid in started_here if alive(pid)] == []


def test_an_impossible_concurrency_fails_before_the_run_naming_the_step(ray_with_cpus, tmp_path):
    path = readme_example(tmp_path, **{"concurrency=2": "concurrency=16"})
    papers, _ = inputs(tmp_path)
    started = time.perf_counter()
    with pytest.raises(PipelineError, match=r"'system_tagger' asks for concurrency=16 .* lower concurrency to \d"):
        run_pipeline(load_pipeline(str(path)), [papers], db=tmp_path / "kg.duckdb", progress=False)
    assert time.perf_counter() - started < 15
    assert sql(tmp_path / "kg.duckdb", "SELECT status FROM pipeline_runs")["status"].tolist() == ["failed"]


BLOCKING_PIPELINE = '''
import time
from assay import Pipeline, operator

@operator(requires=["source_uri"], produces=["text"])
def stuck_reader(record):
    time.sleep(600)
    return record

pipeline = Pipeline("stuck").then(stuck_reader)
'''


@pytest.mark.spoils_shared_ray  # its task sleeps on after the run has failed
def test_a_stage_made_to_block_trips_the_watchdog_with_the_stage_named(ray_local, tmp_path):
    path = tmp_path / "stuck.py"
    path.write_text(BLOCKING_PIPELINE)
    papers, _ = inputs(tmp_path)
    started = time.perf_counter()
    with pytest.raises(StalledError) as err:
        run_pipeline(load_pipeline(str(path)), [papers], db=tmp_path / "kg.duckdb", progress=False,
                     stall_s=3, stall_fail=True)
    # Ray Data's guard stops it at 3 s; the message is composed at once (the state API, asked on a cluster
    # without a dashboard, looked for one for 40 s first: this took 43 s).
    assert time.perf_counter() - started < 30
    assert "no record has moved for" in str(err.value) and "stuck_reader" in str(err.value)
    assert sql(tmp_path / "kg.duckdb", "SELECT status FROM pipeline_runs")["status"].tolist() == ["failed"]


def test_two_one_cpu_nodes_run_every_pipeline_and_the_cli_handles_token_auth(one_cpu_nodes, tmp_path):
    ray_nodes = one_cpu_nodes  # a head and a worker of 1 CPU each, real `ray start` processes
    assert_all_complete(run_all(tmp_path, address=ray_nodes.address))

    # The CLI as a user runs it: the token at hand, RAY_AUTH_MODE not set. It connects, and stays quiet.
    env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}
    _, logs = inputs(tmp_path / "cli")
    out = subprocess.run(
        [sys.executable, "-c", "from assay.cli import main; main()", "run", "logs", "--input", str(logs),
         "--db", str(tmp_path / "cli.duckdb"), "--address", ray_nodes.address],
        capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    assert "logs: 3 in, 3 ok" in out.stdout
    assert "skipped 1 file(s) this pipeline does not read (.tex)" in out.stderr
    assert not re.search(r"WARNING|\] E |Traceback", out.stderr), out.stderr
