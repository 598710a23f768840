"""Admission control at submit (issue 13, item 4): a spec that can never fit the cluster, or that has no
content, is refused with a one-line reason naming the field and the fix, and nothing is queued; in a file
of several specs each is refused or queued on its own. No Ray: capacities are given as slots."""

from __future__ import annotations

import sys

import pytest
from typer.testing import CliRunner

from assay.cli import main
from assay.cli._jobs import app as jobs_app
from assay.jobs import Capacity, SpecError, admit, capacity, load_spec, load_specs, submit, submit_all
from assay.store import queries_jobs as q

runner = CliRunner()
TWO = Capacity(2, "--workers 2")


@pytest.fixture
def db(tmp_path):
    return tmp_path / "admission.duckdb"


def _queued(db) -> int:
    return 0 if not db.exists() else len(q.jobs(db))


def _file(tmp_path, text: str, name: str = "job.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_job_that_can_never_fit_is_refused_and_not_queued(db):
    spec = load_spec("tiny", ["parallel=auto", "min_workers=32", "max_workers=32"])
    with pytest.raises(SpecError) as info:
        submit(spec, db, capacity=TWO)
    assert info.value.field == "min_workers"
    text = str(info.value)
    assert "32 workers can never fit" in text and "2 worker slots (--workers 2)" in text
    assert "min_workers <= 2" in text and "\n" not in text
    assert _queued(db) == 0


def test_a_minimum_with_no_runnable_layout_is_refused_with_the_size_that_runs(db):
    # tiny (batch 8, 4 heads, 2 layers) has no layout of 3 workers: min_workers=3 on 3 slots never runs
    spec = load_spec("tiny", ["parallel=auto", "min_workers=3", "max_workers=4"])
    with pytest.raises(SpecError, match=r"min_workers <= 2"):
        admit(spec, Capacity(3, "test"))
    assert "runs on 3 workers" not in admit(load_spec("tiny", ["parallel=auto", "min_workers=2",
                                                               "max_workers=4"]), Capacity(3, "test"))


def test_a_job_that_fits_is_queued_and_told_how_big_it_runs(db):
    spec = load_spec("gpt-3d")  # asks for 8 workers, runs on 1..8
    assert admit(spec, TWO) == "runs on 1..2 workers (asks for 8, at most 2 fit) of 2 worker slots (--workers 2)"
    job_id = submit(spec, db, capacity=2)
    assert q.job(db, job_id)["state"] == "queued"


def test_capacity_says_where_it_comes_from(monkeypatch):
    assert capacity(slots=3) == Capacity(3, "--workers 3")
    # Not connected to Ray (an earlier test in this process may have left the shared session up).
    monkeypatch.delitem(sys.modules, "ray", raising=False)
    local = capacity(worker_cpus=0.5)
    assert "this machine's" in local.source and local.slots >= 2


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        ("", "spec", "is empty"),
        ("# only a comment\n", "spec", "is empty"),
        ("[]\n", "spec", "empty list"),
        ("{}\n", "spec", "no fields"),
        ("steps: 5\n", "model", "model: gpt-tiny"),
        ("model: gpt-tiny\n", "steps", "steps: N"),
        ("model: gpt-tiny\nsteps: ten\n", "steps", "must be an integer"),
        ("model: gpt-tiny\nsteps: 5\nlr: true\n", "lr", "must be a number"),
        ("model: gpt-tiny\nsteps: 5\nname: [a, b]\n", "name", "must be a string"),
        ("model: 5\nsteps: 5\n", "model", "mapping of dims"),
        ("model: gpt-tiny\nsteps: 5\nparallel: 4\n", "parallel", "'auto' or a mapping"),
    ],
)
def test_a_spec_without_content_or_with_wrong_types_is_refused(tmp_path, db, capsys, text, field, words):
    path = _file(tmp_path, text)
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert info.value.field == field and words in str(info.value)
    with pytest.raises(SystemExit) as code:  # the real entry point: one line on stderr, exit 2
        main(["jobs", "submit", str(path), "--db", str(db), "--workers", "2"])
    assert code.value.code == 2
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(lines) == 1 and f"'{field}'" in lines[0] and words in lines[0] and "Fix:" in lines[0]
    assert _queued(db) == 0


def test_cli_refuses_an_impossible_job_naming_the_capacity_it_used(db):
    out = runner.invoke(jobs_app, ["submit", "tiny", "--set", "parallel=auto", "--set", "min_workers=32",
                                   "--set", "max_workers=32", "--workers", "2", "--db", str(db)])
    assert out.exit_code == 2
    assert "--set" in out.output and "min_workers" in out.output and "--workers 2" in out.output
    assert "[E060]" in out.output  # the catalogue's code for a spec that cannot run (docs/errors.md)
    assert _queued(db) == 0


def test_several_specs_in_one_file_are_judged_each_on_its_own(tmp_path, db):
    path = _file(tmp_path, """
- {name: fits, model: gpt-tiny, steps: 5}
- {name: huge, model: gpt-tiny, steps: 5, parallel: auto, min_workers: 32, max_workers: 32}
- {name: no-steps, model: gpt-tiny}
- {name: also-fits, model: gpt-tiny, steps: 7, parallel: auto, max_workers: 2}
""")
    results = load_specs(path)
    assert [type(r).__name__ for r in results] == ["JobSpec", "JobSpec", "SpecError", "JobSpec"]
    out = runner.invoke(jobs_app, ["submit", str(path), "--workers", "2", "--db", str(db)])
    assert out.exit_code == 1
    assert out.stdout.split() == [j for j in q.jobs(db).job_id]  # stdout: the queued ids only
    assert sorted(q.jobs(db).name) == ["also-fits", "fits"]
    assert "refused spec 2 of 4 (huge): job spec field 'min_workers'" in out.stderr
    assert "refused spec 3 of 4: job spec field 'steps'" in out.stderr
    assert "4 specs: 2 queued, 2 refused" in out.stderr


def test_yaml_documents_are_specs_too(tmp_path, db):
    path = _file(tmp_path, "model: gpt-tiny\nsteps: 5\n---\nmodel: gpt-tiny\nsteps: 6\n", "two.yaml")
    out = runner.invoke(jobs_app, ["submit", str(path), "--workers", "2", "--db", str(db)])
    assert out.exit_code == 0, out.output
    assert sorted(q.jobs(db).name) == ["two-1", "two-2"]
    assert "2 specs: 2 queued, 0 refused" in out.stderr
    with pytest.raises(SpecError, match="holds 2 specs"):
        load_spec(path)


def test_a_batch_of_specs_is_queued_or_refused_spec_by_spec(db):
    fits = load_spec("tiny")
    never = load_spec("tiny", ["parallel=auto", "min_workers=32", "max_workers=32"])
    broken = SpecError("steps", "must be at least 1")
    done = submit_all([fits, never, broken], db, capacity=TWO)
    assert [d.label for d in done] == [f"spec 1 of 3 ({fits.name})", f"spec 2 of 3 ({never.name})", "spec 3 of 3"]
    assert done[0].error is None and done[0].job_id and "worker" in done[0].note
    assert done[1].error.field == "min_workers" and done[2].error is broken
    assert list(q.jobs(db)["job_id"]) == [done[0].job_id]
