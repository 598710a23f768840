"""Shared fixtures: one Ray session for the whole test run, a fresh database per test, a two-node cluster.

Ray start-up costs seconds on a 2-core machine, so tests share ``ray_local`` instead of starting their own.
A test that needs another cluster (``ray_nodes``, ``two_nodes``, ``ray_with_cpus``, ``one_cpu_nodes``, or one marked
``ends_shared_ray``) shuts the shared one down; the next user of ``ray_local`` would start it again, and its
workers would import their libraries again. So the collected tests are put in three groups, each in its
collected order: every other test, then those that leave the shared session busy (``spoils_shared_ray``),
then those that end it. The shared session starts once and every test that ends it comes after its last user.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import wait_for

from assay.ray_session import ensure_ray, shutdown_ray

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("RAY_DEDUP_LOGS", "1")
# Ray reads its auth settings when first imported: give the test run a token of its own (the default one in
# ~/.ray is shared with every other Ray on the machine), before anything imports ray.
os.environ.setdefault("RAY_AUTH_MODE", "token")
os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

#: Logical CPUs of the shared test cluster: more than the machine's cores, so multi-worker training jobs
#: (e.g. dp*tp*pp = 8) can be placed; tests keep the real work tiny.
RAY_TEST_CPUS = int(os.environ.get("ASSAY_TEST_RAY_CPUS", "8"))
#: What the pipelines in that cluster are planned for: the machine's cores, as a user's embedded run is.
#: Planned for the eight logical CPUs, one run started eight parse or spaCy actors on two cores (a run of
#: the 18 sample logs took 41 s instead of 6 s).
PIPELINE_TEST_CPUS = min(RAY_TEST_CPUS, os.cpu_count() or 1)


#: Fixtures that shut the shared Ray session down for a cluster of their own.
ENDS_SHARED_RAY = frozenset({"ray_nodes", "two_nodes", "ray_with_cpus", "one_cpu_nodes"})


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "ends_shared_ray: the test shuts the shared Ray session down (it "
                                       "restarts it, or starts an instance of its own); it runs after its users")
    config.addinivalue_line("markers", "spoils_shared_ray: the test leaves the shared Ray session busy (a task "
                                       "that never returns); it runs after its other users, before the enders")


def shared_ray_rank(item: pytest.Item) -> tuple[int, bool]:
    """0: a test that leaves the shared Ray session as it found it (or never uses it); 1: one that leaves it
    busy; 2: one that ends it. Then: whether it uses the two 1-CPU nodes that its users share (last, together)."""
    pair = "one_cpu_nodes" in getattr(item, "fixturenames", ())
    if item.get_closest_marker("ends_shared_ray") or ENDS_SHARED_RAY & set(getattr(item, "fixturenames", ())):
        return 2, pair
    return (1 if item.get_closest_marker("spoils_shared_ray") else 0), pair


@pytest.hookimpl(trylast=True)  # after pytest's own reordering by fixture parameters, which the sort keeps
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every user of the shared Ray session before any test that spoils or ends it, and the users of the
    shared two 1-CPU nodes one after the other at the end (a stable sort)."""
    items.sort(key=shared_ray_rank)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "assay.duckdb"


@pytest.fixture(scope="session")
def _ray_tmp(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("ray")


@pytest.fixture
def ray_local():
    """A Ray session shared by the tests that use it (started on first use, stopped at the end)."""
    import ray

    if not ray.is_initialized():
        # Through the Ray boundary, as every assay run connects (it notes that this instance has no dashboard,
        # so a stall's message does not wait 40 s on the state API looking for one).
        ensure_ray(num_cpus=RAY_TEST_CPUS, log_to_driver=True)
    options = ray.data.DataContext.get_current().execution_options
    kept = options.resource_limits
    options.resource_limits = kept.copy(cpu=PIPELINE_TEST_CPUS)
    yield ray
    options.resource_limits = kept  # a process-wide setting: a test on its own cluster plans for all of it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RayNodes:
    """A real multi-node Ray cluster on this machine: a head plus worker nodes, each its own processes."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.procs: list[subprocess.Popen] = []
        self.ray_bin = str(Path(sys.executable).with_name("ray"))
        self.env = {k: os.environ[k] for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN")}

    def _start(self, args: list[str], name: str) -> subprocess.Popen:
        log = open(self.tmp / f"{name}.log", "w")  # noqa: SIM115 -- lives as long as the node
        proc = subprocess.Popen([self.ray_bin, "start", "--block", "--disable-usage-stats", *args],
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                env={**os.environ, **self.env})
        self.procs.append(proc)
        self._wait_started(proc, self.tmp / f"{name}.log")
        return proc

    @staticmethod
    def _wait_started(proc: subprocess.Popen, log: Path, timeout: float = 30) -> None:
        """Until the node's own ``ray start`` says it is up, read from its log (a file read), before the
        cluster is asked whether it counts the node (``ray status``: about a second of CPU a call, taken from
        the node's own start on two cores). No such line (another Ray release's wording): ask anyway."""

        def said() -> bool:
            return proc.poll() is not None or "Ray runtime started" in log.read_text(errors="replace")

        with contextlib.suppress(AssertionError):
            wait_for(said, timeout, "the node's 'Ray runtime started'", poll_s=0.2)

    def start_head(self, num_cpus: int, resources: str | None = None) -> None:
        """The head, up once its ``ray start`` says so (its GCS and raylet started). The cluster is asked
        for its nodes (``ray status``, about 3 s on two busy cores) once every node has joined: ``add_worker``
        counts the head with the rest."""
        args = ["--head", f"--port={self.port}", f"--num-cpus={num_cpus}", "--include-dashboard=false",
                f"--temp-dir={self.tmp / 'ray'}"]
        head = self._start([*args, f"--resources={resources}"] if resources else args, "head")
        if head.poll() is not None:
            raise RuntimeError(f"the Ray head at {self.address} exited: "
                               f"{(self.tmp / 'head.log').read_text(errors='replace')[-2000:]}")

    def add_worker(self, num_cpus: int, resources: str | None = None) -> subprocess.Popen:
        args = [f"--address={self.address}", f"--num-cpus={num_cpus}"]
        if resources:
            args.append(f"--resources={resources}")
        proc = self._start(args, f"worker{len(self.procs)}")
        self._wait_nodes(len(self.procs))
        return proc

    def _wait_nodes(self, n: int, timeout: float = 90) -> None:
        def status() -> subprocess.CompletedProcess:
            return subprocess.run([self.ray_bin, "status", f"--address={self.address}"], capture_output=True,
                                  text=True, env={**os.environ, **self.env})

        def reached() -> bool:
            out = status()
            return out.returncode == 0 and out.stdout.count("node_") >= n

        try:
            wait_for(reached, timeout, f"{n} nodes", poll_s=1.0)  # each `ray status` costs a second of CPU
        except AssertionError:
            out = status()
            raise RuntimeError(f"Ray cluster at {self.address} did not reach {n} nodes: {out.stdout} "
                               f"{out.stderr}") from None

    def stop_node(self, proc: subprocess.Popen) -> None:
        """Stop one node for real: its raylet and workers die with its process group."""
        import signal

        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)

    def stop(self) -> None:
        """Tear the test cluster down at once: its state is throwaway, so no graceful shutdown is owed."""
        import signal

        for proc in reversed(self.procs):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=30)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    pass


def _new_nodes() -> RayNodes:
    """A RayNodes in a short folder of its own (a Ray socket's path must stay under 108 characters)."""
    short = Path(os.environ.get("TMPDIR", "/tmp")) / f"assay-ray-{os.getpid()}-{free_port()}"
    short.mkdir(parents=True)
    return RayNodes(short)


def _stop_nodes(nodes: RayNodes) -> None:
    import ray

    if ray.is_initialized():
        shutdown_ray()
    nodes.stop()
    shutil.rmtree(nodes.tmp, ignore_errors=True)


#: The two 1-CPU nodes shared by the tests that ask for ``one_cpu_nodes``: started by the first of them,
#: stopped after the last (they run one after the other, at the end of the run).
_ONE_CPU_NODES: dict[str, RayNodes] = {}


@pytest.fixture
def one_cpu_nodes():
    """A real cluster of two 1-CPU nodes (a head and a worker, each its own ``ray start``), shared by the
    tests that use it, as the smallest multi-node cluster a user runs: starting one costs 10-15 s on two busy
    cores. Each node carries its GPU type as a custom resource (``gpu_type:a`` on the head, ``gpu_type:b`` on
    the worker), which only a job placed in a pool asks for. The shared session is shut down first; each
    test's driver disconnects at its end."""
    import ray

    if "nodes" not in _ONE_CPU_NODES:
        if ray.is_initialized():
            shutdown_ray()
        nodes = _new_nodes()
        try:
            nodes.start_head(num_cpus=1, resources='{"gpu_type:a": 1}')
            nodes.add_worker(num_cpus=1, resources='{"gpu_type:b": 1}')
        except BaseException:
            _stop_nodes(nodes)
            raise
        _ONE_CPU_NODES["nodes"] = nodes
    yield _ONE_CPU_NODES["nodes"]
    if ray.is_initialized():
        shutdown_ray()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """Stop the shared 1-CPU nodes once the test after this one does not use them."""
    yield
    if "nodes" in _ONE_CPU_NODES and "one_cpu_nodes" not in getattr(nextitem, "fixturenames", ()):
        _stop_nodes(_ONE_CPU_NODES.pop("nodes"))


@pytest.fixture
def ray_nodes(tmp_path: Path):
    """Start a real multi-node cluster (shutting down the shared session first); yields RayNodes."""
    import ray

    if ray.is_initialized():
        shutdown_ray()
    nodes = _new_nodes()
    try:
        yield nodes
    finally:
        _stop_nodes(nodes)


@pytest.fixture(scope="module", params=["none", "auto"])
def papers_bound(request):
    """``extract_knowledge`` bound once with the rules alone and once with the trained parse where installed:
    a papers test taking it runs both ways."""
    from assay.dsl import get_operator

    return get_operator("extract_knowledge").bind(parse=request.param)
