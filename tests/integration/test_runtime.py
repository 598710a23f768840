"""The Ray runtime for real: counts reconcile, re-runs and retried tasks write each row once, a killed
worker changes nothing, a user's operator file runs on a two-node cluster, readers work during writes."""

from __future__ import annotations

import os
import pickle
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from waiting import wait_for

from assay.dsl import load_pipeline
from assay.ray_session import shutdown_ray
from assay.runtime import run_pipeline
from assay.store.queries import counts, sql

pytestmark = pytest.mark.integration

USER_PIPELINE = '''
import os, time
from pathlib import Path
from assay import Pipeline, operator
from assay.ids import content_id, stable_id

@operator(requires=["source_uri"], produces=["doc_id", "text", "kind", "title"])
def read_words(record):
    data = Path(record["source_uri"]).read_bytes()
    if data.startswith(b"BAD"):
        raise ValueError("unreadable: starts with BAD")
    return {**record, "doc_id": content_id(data), "text": data.decode(), "kind": "paper", "title": ""}

@operator(requires=["text"], produces=["entities", "mentions"], delay=0.0)
class TagWords:
    """Stateful: one instance per worker. Records which node did the work in the title."""
    def __init__(self, delay=0.0):
        self.delay = delay
        self.node = os.environ.get("ASSAY_TEST_NODE_TAG") or ""
        try:
            import ray
            self.node = ray.get_runtime_context().get_node_id()
        except Exception:
            pass
        pid_dir = os.environ.get("ASSAY_TEST_PID_DIR")
        if pid_dir:
            Path(pid_dir, f"{os.getpid()}.pid").write_text(str(os.getpid()))

    def __call__(self, record):
        pid_dir = os.environ.get("ASSAY_TEST_PID_DIR")
        if pid_dir:  # a test kills a worker that is at work
            Path(pid_dir, f"{os.getpid()}.working").touch()
        time.sleep(self.delay)
        words = record["text"].split()
        ents = [{"entity_id": stable_id("word", w), "name": w, "type": "word"} for w in words]
        mentions = [{"entity_id": e["entity_id"], "doc_id": record["doc_id"], "start": i, "end": i + 1,
                     "text": e["name"], "operator": "tag_words"} for i, e in enumerate(ents)]
        return {**record, "entities": ents, "mentions": mentions, "title": self.node}

pipeline = Pipeline("words").then(read_words).then(TagWords, concurrency=2, batch_size=2)
'''


FAN_OUT_PIPELINE = '''
import os, time
from assay import Pipeline, operator

@operator(requires=["source_uri"], produces=["part", "unit_key"], planning=True)
def fan_out(record):
    """A planning step: one input file, eight heavy records (as one large log becomes its chunks)."""
    open(record["source_uri"]).close()
    return [{**record, "part": i, "unit_key": f"{record['source_uri']}#{i}"} for i in range(8)]

@operator(requires=["part"], produces=["runs"])
class Heavy:
    """Records which worker process took each record."""
    def __call__(self, record):
        time.sleep(0.3)
        run = {"run_id": f"part{record['part']}", "source_uri": record["source_uri"], "framework": str(os.getpid())}
        return {**record, "runs": [run]}

pipeline = Pipeline("fan-out").then(fan_out).then(Heavy, batch_size=1)
'''


def write_corpus(root: Path, n: int = 12, bad: int = 2) -> list[Path]:
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        p = root / f"doc{i:03d}.txt"
        p.write_text(f"alpha beta w{i} gamma{i % 3}")
        paths.append(p)
    for i in range(bad):
        p = root / f"bad{i}.txt"
        p.write_text(f"BAD file {i}")
        paths.append(p)
    return paths


@pytest.fixture
def user_pipeline(tmp_path):
    path = tmp_path / "user_code" / "words_pipeline.py"
    path.parent.mkdir()
    path.write_text(USER_PIPELINE)
    return load_pipeline(str(path))


def knowledge(db) -> dict[str, list]:
    """The content of the knowledge tables, without per-run bookkeeping columns, in a stable order."""
    return {
        "documents": sql(db, "SELECT doc_id, uri, kind, text FROM documents ORDER BY doc_id").values.tolist(),
        "entities": sql(db, "SELECT * FROM entities ORDER BY entity_id").values.tolist(),
        "mentions": sql(db, "SELECT * FROM mentions ORDER BY doc_id, start").values.tolist(),
    }


def test_counts_reconcile_and_every_file_is_accounted_for(ray_local, tmp_path, db, user_pipeline):
    files = write_corpus(tmp_path / "corpus")
    summary = run_pipeline(user_pipeline, [tmp_path / "corpus"], db=db, progress=False)
    assert (summary.n_in, summary.n_ok, summary.n_quarantined) == (14, 12, 2)
    run = sql(db, "SELECT * FROM pipeline_runs").iloc[0]
    assert run.status == "completed" and run.n_in == run.n_ok + run.n_quarantined == len(files)
    documented = set(sql(db, "SELECT uri FROM documents")["uri"])
    quarantined = sql(db, "SELECT source_uri, operator, error FROM quarantine")
    assert documented | set(quarantined["source_uri"]) == {str(p) for p in files}
    assert set(quarantined["operator"]) == {"read_words"}
    assert all("unreadable: starts with BAD" in e for e in quarantined["error"])


def test_a_second_run_over_the_same_input_adds_no_rows(ray_local, tmp_path, db, user_pipeline):
    write_corpus(tmp_path / "corpus")
    run_pipeline(user_pipeline, [tmp_path / "corpus"], db=db, progress=False)
    before = knowledge(db)
    again = run_pipeline(user_pipeline, [tmp_path / "corpus"], db=db, progress=False)
    assert again.n_ok == 12 and knowledge(db) == before


def test_combine_assembles_one_record_per_group(ray_local, tmp_path, db):
    from assay import Pipeline, operator
    from assay.ids import content_id

    @operator(name="t_chunks", requires=["source_uri"], produces=["doc_id", "chunk", "n_words"], register=False)
    def chunks(record):
        words = Path(record["source_uri"]).read_text().split()
        doc = content_id(" ".join(words))
        return [{**record, "doc_id": doc, "chunk": i, "n_words": 1} for i, _ in enumerate(words)]

    @operator(name="t_assemble", requires=["n_words"], produces=["kind", "title"], batch=True, register=False)
    def assemble(parts):
        first = parts[0]
        return {"source_uri": first["source_uri"], "doc_id": first["doc_id"], "kind": "log",
                "title": f"{sum(p['n_words'] for p in parts)} words"}

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("one two three four five")
    pipe = Pipeline("chunked").then(chunks).combine(assemble, by="doc_id")
    summary = run_pipeline(pipe, [tmp_path / "in"], db=db, progress=False)
    assert summary.n_in == summary.n_ok == 1
    assert sql(db, "SELECT title FROM documents")["title"].tolist() == ["5 words"]


@pytest.mark.ends_shared_ray  # restarts Ray with the pid directory in its workers' environment
def test_a_killed_worker_leaves_the_same_database_as_a_clean_run(ray_local, tmp_path, user_pipeline, monkeypatch):
    write_corpus(tmp_path / "corpus", n=24, bad=1)
    clean_db, faulty_db = tmp_path / "clean.duckdb", tmp_path / "faulty.duckdb"
    slow = user_pipeline.__class__(
        user_pipeline.name,
        tuple(s if s.name != "tag_words" else s.__class__(s.op, {"delay": 0.25}, 1, 2) for s in user_pipeline.steps),
        source_module=user_pipeline.source_module,
    )
    # The clean database on the local runner (the same operators, the same rows: test_runners_conformance),
    # without the delay that only times the kill: the fault is judged on Ray below.
    run_pipeline(user_pipeline, [tmp_path / "corpus"], db=clean_db, progress=False, runner="local")

    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    monkeypatch.setenv("ASSAY_TEST_PID_DIR", str(pid_dir))
    # Workers inherit the driver's environment only through the runtime env.
    shutdown_ray()
    ray_local.init(address="local", num_cpus=4, include_dashboard=False, runtime_env={"env_vars": {"ASSAY_TEST_PID_DIR": str(pid_dir)}})
    killed: list[int] = []

    def kill_first_worker():
        """Kill a worker in the middle of a record (each takes 0.25 s)."""
        working = wait_for(lambda: sorted(pid_dir.glob("*.working")), 60, "a worker to take a record")
        pid = int(working[0].stem)
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    killer = threading.Thread(target=kill_first_worker)
    killer.start()
    summary = run_pipeline(slow, [tmp_path / "corpus"], db=faulty_db, progress=False, runner="ray")
    killer.join()
    shutdown_ray()
    assert killed, "no worker was killed"
    assert len(list(pid_dir.glob("*.pid"))) >= 2, "the killed worker was not replaced"
    assert (summary.n_in, summary.n_ok, summary.n_quarantined) == (25, 24, 1)
    assert knowledge(faulty_db) == knowledge(clean_db)


def test_users_operator_file_runs_on_a_two_node_cluster(one_cpu_nodes, tmp_path, db):
    ray_nodes = one_cpu_nodes  # a head and a worker of 1 CPU each, real `ray start` processes
    # Enough work (40 x 0.3 s) that the second actor, which may come up seconds after the first, gets some.
    write_corpus(tmp_path / "corpus", n=40, bad=0)
    # The pipeline file lives outside any installed package: its operators must travel by value.
    path = tmp_path / "elsewhere" / "words_pipeline.py"
    path.parent.mkdir()
    # Each actor asks for 0.75 of a node's 1 CPU, so the two actors land on different nodes.
    path.write_text(USER_PIPELINE.replace("delay=0.0)", "delay=0.3)").replace("batch_size=2)", "batch_size=2, num_cpus=0.75)"))
    pipe = load_pipeline(str(path))
    summary = run_pipeline(pipe, [tmp_path / "corpus"], db=db, address=ray_nodes.address, progress=False)
    assert summary.n_ok == 40
    nodes = set(sql(db, "SELECT DISTINCT title FROM documents")["title"])
    assert len(nodes) == 2, f"work ran on {nodes}"


def test_queries_keep_working_while_a_pipeline_writes(ray_local, tmp_path, db, user_pipeline):
    write_corpus(tmp_path / "corpus", n=40, bad=0)
    errors: list[BaseException] = []
    reads = []
    done = threading.Event()

    def reader():
        while not done.is_set():
            try:
                reads.append(counts(db)["documents"])
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)
            time.sleep(0.02)

    from assay.store import connect

    with connect(db):
        pass
    thread = threading.Thread(target=reader)
    thread.start()
    try:
        run_pipeline(user_pipeline, [tmp_path / "corpus"], db=db, progress=False)
    finally:
        done.set()
        thread.join()
    assert not errors and len(reads) > 5
    assert reads == sorted(reads) and reads[-1] == 40


def test_the_sink_writes_rows_given_as_dicts_columns_and_dictionary_encoded_arrow_alike(db):
    import numpy as np
    import pyarrow as pa

    from assay.runtime._sink import Sink

    def metric_rows(run, n):
        return {"run_id": [run] * n, "step": np.arange(n), "name": ["loss"] * n,
                "value": np.linspace(1.0, 2.0, n), "line_no": np.arange(n) + 1}

    encoded = pa.table({
        "run_id": pa.array(["r3"] * 4).dictionary_encode(), "step": pa.array(range(4), pa.int64()),
        "name": pa.array(["lr"] * 4).dictionary_encode(), "value": pa.array([0.1] * 4),
        "line_no": pa.array(range(4), pa.int64()),
    })
    sink = Sink(db, "run-1")
    sink.add({"doc_id": "d1", "metrics": metric_rows("r1", 5)})
    sink.add({"doc_id": "d2", "metrics": [{"run_id": "r2", "step": i, "name": "loss", "value": float(i),
                                           "line_no": i} for i in range(3)]})
    sink.add({"doc_id": "d3", "metrics": encoded})
    sink.add({"doc_id": "d4", "entities": [{"entity_id": "e1", "name": "A", "type": "system"}]})
    sink.add({"doc_id": "d5", "entities": [{"entity_id": "e2", "name": "B", "type": "system"}]})
    sink.flush()
    rows = sql(db, "select run_id, name, count(*) as n, sum(step) as steps from metrics group by all order by 1")
    assert rows.values.tolist() == [["r1", "loss", 5, 10], ["r2", "loss", 3, 3], ["r3", "lr", 4, 6]]
    assert sorted(sql(db, "select name from entities")["name"]) == ["A", "B"]


def test_a_stage_before_another_yields_blocks_of_the_next_stages_batch_size():
    from assay.dsl import Pipeline, operator
    from assay.runtime._stages import StageRunner, decode

    @operator(requires=["source_uri"], produces=["part"])
    def split_in_five(record):
        return [{**record, "part": i} for i in range(5)]

    steps = Pipeline("p").then(split_in_five).steps
    batch = {"payload": np.array([pickle.dumps({"source_uri": "/x"})], dtype=object)}
    blocks = [decode(b) for b in StageRunner(steps, block_records=1)(batch)]
    assert [[r["part"] for r in b] for b in blocks] == [[0], [1], [2], [3], [4]]
    assert len(list(StageRunner(steps)(batch))) == 1


def test_the_records_one_input_fans_out_to_are_spread_over_the_pool(ray_local, tmp_path, db):
    """Ray Data would merge the eight records of one upstream call into one block for one actor; a
    one-record-per-call step gets them one per block, on a pool that starts with every actor."""
    path = tmp_path / "fan_out_pipeline.py"
    path.write_text(FAN_OUT_PIPELINE)
    source = tmp_path / "input.txt"
    source.write_text("one input")
    summary = run_pipeline(load_pipeline(str(path)), [source], db=db, progress=False)
    assert summary.status == "completed"
    workers = sql(db, "select framework, count(*) as n from runs group by 1")
    assert workers["n"].sum() == 8
    assert len(workers) >= 2, f"every record went to one worker: {workers.to_dict('records')}"


@pytest.mark.parametrize("planned_early", ["every file", "one of three files"])
def test_records_planned_in_the_driver_reach_the_pool_as_those_planned_by_ray(ray_local, tmp_path, planned_early):
    """The driver plans what it can (``EarlyPlanner``; before a one-record-per-call stage such as this one,
    every file); Ray plans any files left. Either way every record, failures included, reaches the next
    stage, and the records the driver planned (cut one per block there) spread over the pool."""
    from assay.ray_session import node_cpus, ship_by_value
    from assay.runtime._early import Planned, planning_stage
    from assay.runtime._run import _batches
    from assay.runtime._stages import StageRunner, decode

    path = tmp_path / "fan_out_pipeline.py"
    path.write_text(FAN_OUT_PIPELINE)
    pipeline = load_pipeline(str(path))
    ship_by_value(pipeline.source_module)
    files = [str(tmp_path / "first.txt"), str(tmp_path / "gone.txt"), str(tmp_path / "second.txt")]
    for f in (files[0], files[2]):
        Path(f).write_text("one input")
    early_files = files if planned_early == "every file" else files[:1]
    runner = StageRunner(planning_stage(pipeline).steps)
    early = Planned([r for f in early_files for r in runner.process([{"source_uri": f}])],
                    [f for f in files if f not in early_files])

    out = [r for batch in _batches(pipeline, files, node_cpus(), early) for r in decode(batch)]
    parts = sorted((Path(r["source_uri"]).name, r["part"]) for r in out if "_failure" not in r)
    assert parts == sorted((name, i) for name in ("first.txt", "second.txt") for i in range(8))
    failures = [r["_failure"] for r in out if "_failure" in r]
    assert [(Path(f["source_uri"]).name, f["operator"]) for f in failures] == [("gone.txt", "fan_out")]
    assert len({r["runs"][0]["framework"] for r in out if "runs" in r}) >= 2, "one worker took every record"


def test_pipelines_are_planned_for_ray_datas_cpu_limit(ray_local):
    """A dataset kept to part of the cluster by Ray Data's own limit gets pools for that part only."""
    from ray.data import DataContext

    from assay.ray_session import node_cpus

    options = DataContext.get_current().execution_options
    kept = options.resource_limits
    try:
        options.resource_limits = kept.copy(cpu=float("inf"))
        whole = node_cpus()
        options.resource_limits = kept.copy(cpu=1.5)
        assert sum(node_cpus()) == pytest.approx(1.5) and len(node_cpus()) == len(whole)
        options.resource_limits = kept.copy(cpu=sum(whole) * 4)  # a limit above the cluster changes nothing
        assert node_cpus() == whole
    finally:
        options.resource_limits = kept
