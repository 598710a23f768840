"""The pipeline DSL: operators, registration, checks before running, loading pipelines by path."""

from __future__ import annotations

import textwrap

import pytest

from assay import Pipeline, operator
from assay.dsl import PipelineError, get_operator, load_pipeline


@operator(name="t_read", requires=["source_uri"], produces=["text", "doc_id"], register=False)
def t_read(record):
    return {**record, "text": f"text of {record['source_uri']}", "doc_id": record["source_uri"]}


@operator(name="t_upper", requires=["text"], produces=["upper"], register=False)
def t_upper(record, suffix=""):
    if "boom" in record["text"]:
        raise ValueError("boom in text")
    return {**record, "upper": record["text"].upper() + suffix}


def test_function_operator_runs_on_a_plain_record():
    assert t_upper({"text": "abc"}) == {"text": "abc", "upper": "ABC"}
    assert t_upper({"text": "abc"}, suffix="!")["upper"] == "ABC!"


def test_operator_errors_are_isolated_per_record():
    ok, failed = t_upper.run([{"text": "a"}, {"text": "boom"}, {"text": "c"}])
    assert [r["upper"] for r in ok] == ["A", "C"]
    assert len(failed) == 1 and failed[0].operator == "t_upper" and "boom in text" in failed[0].error


def test_batch_operator_failure_is_narrowed_to_the_bad_record():
    @operator(name="t_batch", requires=["text"], produces=["n"], batch=True, register=False)
    def count_batch(records):
        if any(r["text"] == "bad" for r in records):
            raise RuntimeError("bad record in batch")
        return [{**r, "n": len(records)} for r in records]

    ok, failed = count_batch.run([{"text": "a"}, {"text": "bad"}, {"text": "b"}])
    assert [r["text"] for r in ok] == ["a", "b"]
    assert [f.record["text"] for f in failed] == ["bad"]


def test_class_operator_is_built_once_and_keeps_state():
    @operator(name="t_counter", requires=["text"], produces=["seen"], register=False)
    class Counter:
        def __init__(self, start=0):
            self.seen = start

        def __call__(self, record):
            self.seen += 1
            return {**record, "seen": self.seen}

    bound = Counter.bind(start=10)
    out, _ = bound.process([{"text": "a"}, {"text": "b"}])
    assert Counter.stateful and [r["seen"] for r in out] == [11, 12]


def test_flat_map_and_filter_results():
    @operator(name="t_split", requires=["text"], produces=["word"], register=False)
    def split(record):
        return [{"word": w} for w in record["text"].split()] or None

    out, failed = split.run([{"text": "a b"}, {"text": ""}])
    assert [r["word"] for r in out] == ["a", "b"] and not failed


def test_pipeline_is_immutable_and_checked_before_running():
    base = Pipeline("p").then(t_read)
    longer = base.then(t_upper, suffix="?")
    assert len(base.steps) == 1 and len(longer.steps) == 2
    assert longer.steps[1].config == {"suffix": "?"}
    longer.check()

    broken = Pipeline("p").then(t_upper)
    with pytest.raises(PipelineError) as err:
        broken.check()
    message = str(err.value)
    assert "E011" in message and "'t_upper'" in message and "'text'" in message and "Fix:" in message


def test_empty_pipeline_and_unknown_operator_name_explain_the_fix():
    with pytest.raises(PipelineError, match="E010"):
        Pipeline("empty").check()
    with pytest.raises(PipelineError, match="No operator named 'no_such_op'"):
        get_operator("no_such_op")


def test_registered_operator_is_found_by_name():
    @operator(name="t_registered_once", requires=["text"], produces=["x"])
    def registered(record):
        return record

    assert get_operator("t_registered_once") is registered
    assert Pipeline("p").then("t_registered_once").steps[0].op is registered


def test_load_pipeline_from_a_users_file(tmp_path):
    path = tmp_path / "my_pipeline.py"
    path.write_text(textwrap.dedent("""
        from assay import Pipeline, operator

        @operator(requires=["source_uri"], produces=["doc_id"])
        def mine(record):
            return {**record, "doc_id": "x"}

        pipeline = Pipeline("mine").then(mine)
    """))
    loaded = load_pipeline(str(path))
    assert loaded.name == "mine" and loaded.source_module and loaded.steps[0].name == "mine"


def test_load_pipeline_errors_name_the_problem(tmp_path):
    with pytest.raises(PipelineError, match="E021"):
        load_pipeline("definitely_not_a_pipeline")
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    with pytest.raises(PipelineError, match="E022"):
        load_pipeline(str(empty))
    with pytest.raises(PipelineError, match="E020"):
        load_pipeline(str(tmp_path / "missing.py"))


def test_importing_the_dsl_starts_no_ray():
    import subprocess
    import sys

    code = "import assay.dsl, sys; print('ray' in sys.modules, 'duckdb' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


@operator(name="t_tag", requires=["upper", "lang"], produces=["tags"], register=False)
class TTag:
    def __call__(self, record):
        return record


def test_analyze_reports_every_problem_at_once():
    pipeline = (Pipeline("many").then(t_upper).then("t_no_such_reader").then(TTag, concurrency=9)
                .combine(t_upper, by="doc_id"))
    problems = pipeline.analyze(nodes=[2])
    assert [(p.code, p.step) for p in problems] == [
        ("E011", "t_upper"),  # 'text': nothing reads it
        ("E001", "t_no_such_reader"),  # kept by .then(), reported here
        # no E011/E012 after an unknown operator: it may have produced them
        ("E032", "t_tag"),  # nine actors do not fit on 2 CPUs beside the reader
    ]
    assert all(p.fix for p in problems) and "'text'" in problems[0].message
    with pytest.raises(PipelineError, match="E011"):  # check() raises the first of them
        pipeline.check(nodes=[2])


def test_analyze_goes_on_after_a_missing_field_as_if_it_were_there():
    problems = Pipeline("fields").then(t_upper).then(TTag).combine(t_upper, by="doc_id").analyze()
    assert [(p.code, p.message.split("requires field ")[1].split(",")[0]) for p in problems] == [
        ("E011", "'text'"), ("E011", "'lang'"), ("E012", "'doc_id'")]  # 'text' is not reported twice
    assert "available: source_uri, text, upper" in problems[1].message  # 'text' assumed after its report
    assert Pipeline("none").analyze()[0].code == "E010"
    assert Pipeline("ok").then(t_read).then(t_upper).analyze(nodes=[1]) == []


def test_an_unknown_operator_name_is_kept_until_checked_and_cannot_run():
    pipeline = Pipeline("typo").then(t_read).then("t_uppr")
    (problem,) = pipeline.analyze()
    assert problem.code == "E001" and "Step 2" in problem.message and "No operator named 't_uppr'" in problem.message
    with pytest.raises(PipelineError, match="E001"):
        pipeline.check()
    with pytest.raises(PipelineError, match="E001"):
        pipeline.steps[1].op({"text": "x"})


def test_every_pool_that_cannot_fit_is_reported():
    @operator(name="t_pool", requires=["text"], produces=["pooled"], register=False)
    class TPool:
        def __call__(self, record):
            return record

    pipeline = Pipeline("pools").then(t_read).then(TPool, concurrency=0).then(TPool, num_cpus=3)
    assert [(p.code, p.step) for p in pipeline.analyze(nodes=[2])] == [("E030", "t_pool"), ("E031", "t_pool")]
