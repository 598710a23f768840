"""The local runner: the same stages, sink and accounting as the Ray runner, in this process; and how
``auto`` chooses between the two. The runs here read a few small files with operators defined in the test
(no spaCy, no Ray), so each takes a fraction of a second."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from assay import Pipeline, operator
from assay.ids import content_id
from assay.runtime import StalledError, run_pipeline
from assay.runtime import _runners as runners
from assay.runtime._runners import choose_runner
from assay.store.queries import sql


@operator(name="t_local_read", requires=["source_uri"], produces=["doc_id", "kind", "text"], register=False)
def read_words(record):
    text = Path(record["source_uri"]).read_text()
    if text.startswith("BAD"):
        raise ValueError("unreadable: starts with BAD")
    return {**record, "doc_id": content_id(text), "kind": "paper", "text": text, "title": text.split()[0]}


BUILDS: list[int] = []


@operator(name="t_local_tag", requires=["text"], produces=["entities"], register=False)
class TagCaps:
    """Stateful (built once per actor on Ray, once per run locally): counts its builds."""

    def __init__(self):
        BUILDS.append(1)

    def __call__(self, record):
        names = sorted({w for w in record["text"].split() if w[:1].isupper()})
        return {**record, "entities": [{"entity_id": f"system:{n.lower()}", "name": n, "type": "system"}
                                       for n in names]}


def corpus(root: Path, good: int = 5, bad: int = 2) -> list[Path]:
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(good):
        paths.append(root / f"p{i}.txt")
        paths[-1].write_text(f"Paper{i} compares Falcon and Osprey{i} on eight GPUs")
    for i in range(bad):
        paths.append(root / f"bad{i}.txt")
        paths[-1].write_text(f"BAD {i}")
    return paths


@pytest.fixture
def no_ray_connected(monkeypatch):
    """As in a fresh process: the whole suite runs in one process, where an earlier test may have left this
    process connected to Ray (and auto then rightly picks Ray)."""
    monkeypatch.setattr(runners, "ray_connected", lambda: False)


def test_auto_runs_small_inputs_locally_and_names_why(tmp_path, no_ray_connected):
    files = [str(p) for p in corpus(tmp_path / "in")]
    choice = choose_runner("auto", None, files)
    assert choice.name == "local" and "7 file(s)" in choice.reason
    assert choose_runner("auto", "auto", files).name == "ray"  # an address is a request for that cluster
    assert choose_runner("ray", None, files).name == "ray"
    local = choose_runner("local", "10.0.0.1:6379", files)
    assert local.name == "local" and "10.0.0.1:6379 is not used" in local.reason
    with pytest.raises(ValueError, match="choose one of auto, local, ray"):
        choose_runner("spark", None, files)


def test_auto_sends_inputs_over_the_limits_to_ray(tmp_path, monkeypatch, no_ray_connected):
    files = [str(p) for p in corpus(tmp_path / "in")]
    monkeypatch.setattr(runners, "LOCAL_MAX_FILES", 3)
    assert choose_runner("auto", None, files).name == "ray"
    monkeypatch.setattr(runners, "LOCAL_MAX_FILES", 100)
    monkeypatch.setattr(runners, "LOCAL_MAX_BYTES", 100)  # the corpus is some 300 bytes
    choice = choose_runner("auto", None, files)
    assert choice.name == "ray" and "over the local runner's" in choice.reason


def test_a_local_run_writes_rows_quarantine_and_its_runner(tmp_path, capsys):
    corpus(tmp_path / "in")
    db = tmp_path / "kg.duckdb"
    pipe = Pipeline("t_local").then(read_words).then(TagCaps, batch_size=2)
    BUILDS.clear()
    summary = run_pipeline(pipe, [tmp_path / "in"], db=db, runner="local")
    assert (summary.status, summary.n_in, summary.n_ok, summary.n_quarantined) == ("completed", 7, 5, 2)
    assert summary.runner == "local" and summary.where == "local runner" and summary.startup_s == 0
    assert len(BUILDS) == 1  # a stateful step is built once, as one actor would be
    first = capsys.readouterr().err.splitlines()[0]
    assert first == "t_local: runner local (asked for)"
    run = sql(db, "SELECT address, status, n_in, n_ok, n_quarantined FROM pipeline_runs").iloc[0].tolist()
    assert run == ["local", "completed", 7, 5, 2]
    assert sorted(sql(db, "SELECT name FROM entities WHERE name LIKE 'Osprey%'")["name"]) == [
        f"Osprey{i}" for i in range(5)]
    quarantine = sql(db, "SELECT source_uri, operator, error FROM quarantine ORDER BY source_uri")
    assert [Path(u).name for u in quarantine["source_uri"]] == ["bad0.txt", "bad1.txt"]
    assert set(quarantine["operator"]) == {"t_local_read"}
    assert all("unreadable: starts with BAD" in e for e in quarantine["error"])
    again = run_pipeline(pipe, [tmp_path / "in"], db=db, runner="local", progress=False)
    assert again.n_ok == 5  # exactly once: the second run writes no row twice
    assert sql(db, "SELECT count(*) AS n FROM documents")["n"][0] == 5
    assert sql(db, "SELECT count(*) AS n FROM entities WHERE name LIKE 'Osprey%'")["n"][0] == 5


def test_a_local_run_combines_groups_like_the_ray_runner(tmp_path):
    @operator(name="t_local_chunks", requires=["source_uri"], produces=["doc_id", "chunk", "n_words"],
              register=False)
    def chunks(record):
        words = Path(record["source_uri"]).read_text().split()
        doc = content_id(" ".join(words))
        return [{**record, "doc_id": doc, "chunk": i, "n_words": 1} for i, _ in enumerate(words)]

    @operator(name="t_local_assemble", requires=["n_words"], produces=["kind", "title"], batch=True,
              register=False)
    def assemble(parts):
        first = parts[0]
        return {"source_uri": first["source_uri"], "doc_id": first["doc_id"], "kind": "log",
                "title": f"{sum(p['n_words'] for p in parts)} words"}

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("one two three four five")
    (tmp_path / "in" / "b.txt").write_text("six seven")
    pipe = Pipeline("t_chunked").then(chunks, batch_size=1).combine(assemble, by="doc_id")
    summary = run_pipeline(pipe, [tmp_path / "in"], db=tmp_path / "kg.duckdb", progress=False, runner="local")
    assert summary.n_in == summary.n_ok == 2
    titles = sql(tmp_path / "kg.duckdb", "SELECT title FROM documents ORDER BY title")["title"].tolist()
    assert titles == ["2 words", "5 words"]


def test_a_stuck_local_stage_trips_the_watchdog_which_names_it(tmp_path):
    @operator(name="t_local_stuck", requires=["source_uri"], produces=["doc_id"], register=False)
    def stuck(record):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # short sleeps: the watchdog's interrupt lands between them
            time.sleep(0.02)
        return record

    corpus(tmp_path / "in", good=1, bad=0)
    started = time.monotonic()
    with pytest.raises(StalledError, match=r"(?s)local runner.*stage t_local_stuck"):
        run_pipeline(Pipeline("t_stuck").then(stuck), [tmp_path / "in"], db=tmp_path / "kg.duckdb",
                     progress=False, runner="local", stall_s=0.5, stall_fail=True)
    assert time.monotonic() - started < 10
    assert sql(tmp_path / "kg.duckdb", "SELECT status FROM pipeline_runs")["status"].tolist() == ["failed"]


def test_assay_runner_in_the_environment_is_the_default_runner(tmp_path, monkeypatch):
    corpus(tmp_path / "in", good=2, bad=0)
    monkeypatch.setattr(runners, "LOCAL_MAX_FILES", 0)  # auto would choose Ray for this input
    monkeypatch.setenv("ASSAY_RUNNER", "local")
    summary = run_pipeline(Pipeline("t_env").then(read_words), [tmp_path / "in"], db=tmp_path / "kg.duckdb",
                           progress=False)
    assert summary.runner == "local" and summary.n_ok == 2


def test_the_summary_line_says_which_runner_ran_and_whether_it_joined_a_running_ray():
    from assay.runtime import RunSummary

    base = dict(pipeline_run_id="r", pipeline="p", status="completed", n_in=1, n_ok=1, n_quarantined=0,
                n_records=1, seconds=1.0, db="x.duckdb")
    assert RunSummary(**base, startup_s=0.0, runner="local", address="local").where == "local runner"
    assert RunSummary(**base, startup_s=5.14).where == "embedded Ray, start-up 5.1s"
    joined = RunSummary(**base, startup_s=0.8, address="auto", joined=True)
    assert joined.where == "joined Ray at auto"


def test_a_stuck_local_stage_trips_even_where_a_library_left_a_sigint_handler_that_swallows(tmp_path):
    @operator(name="t_local_stuck_handler", requires=["source_uri"], produces=["doc_id"], register=False)
    def stuck(record):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            time.sleep(0.02)
        return record

    corpus(tmp_path / "in", good=1, bad=0)
    swallow = signal.signal(signal.SIGINT, lambda *_: None)  # as a training library's "press again" handler
    try:
        started = time.monotonic()
        with pytest.raises(StalledError, match=r"(?s)local runner.*stage t_local_stuck_handler"):
            run_pipeline(Pipeline("t_stuck2").then(stuck), [tmp_path / "in"], db=tmp_path / "kg.duckdb",
                         progress=False, runner="local", stall_s=0.5, stall_fail=True)
        assert time.monotonic() - started < 10
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler  # the library's is back
    finally:
        signal.signal(signal.SIGINT, swallow)
