"""The ready pipelines report through the store's query functions, never through SQL of their own: a query
lives in ``store/queries_*.py`` by domain (one place to change when the schema moves), and a pipeline only
calls it. A lint-level rule over ``pipelines/*.py`` (read as source, not imported) and the logs pipeline's
per-file report read back from a real DuckDB file through those functions."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from assay.pipelines.logs import file_report
from assay.store import write_rows
from assay.store.queries_pipelines import files_given_nothing, runs_of_pipeline_run

ROOT = Path(__file__).resolve().parents[2]

#: Calls that run SQL directly: ``sql(...)`` (``assay.store.queries.sql``, under any import form) and a
#: connection's or a module's ``.execute(...)`` / ``.sql(...)``.
RAW_SQL_CALLS = frozenset({"sql", "execute"})


def raw_sql_calls(folder: Path) -> list[str]:
    """``file:line name`` for every call of ``sql(`` or ``.execute(`` in the modules under ``folder``,
    function-local ones included."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in RAW_SQL_CALLS:
                found.append(f"{path.relative_to(folder).as_posix()}:{node.lineno} {name}")
    return found


def test_no_pipeline_runs_sql_of_its_own():
    assert raw_sql_calls(ROOT / "pipelines") == [], "move the query into store/queries_*.py and call it"


def test_the_rule_catches_sql_in_a_scratch_pipeline(tmp_path):
    (tmp_path / "scratch.py").write_text(
        "from assay.store.queries import sql as run_it\n"
        "import assay.store.queries as q\n\n"
        "def report(db, con, pid):\n"
        "    from assay.store.queries import sql\n"
        "    sql(db, 'SELECT 1')\n"
        "    q.sql(db, 'SELECT 2')\n"
        "    return con.execute('SELECT * FROM runs WHERE x = ?', [pid]).df()\n"
    )
    (tmp_path / "clean.py").write_text(
        "from assay.store.queries_pipelines import files_given_nothing\n\n"
        "def report(db, pid):\n    return files_given_nothing(db, pid)\n"
    )
    assert raw_sql_calls(tmp_path) == ["scratch.py:6 sql", "scratch.py:7 sql", "scratch.py:8 execute"]


def _config(steps: int) -> str:
    summary = {"status": "finished", "steps": steps, "first_step": 1, "last_step": steps, "metrics": ["loss"],
               "events": {}, "lines": steps, "unrecognised_lines": 0}
    return json.dumps({"format": "generic", "summary": summary})


def _two_pipeline_runs(db: Path) -> None:
    """Pipeline run ``p1`` read two logs (one gave a run, one nothing) and a record it dropped; ``p2`` read
    another log. Only ``p1``'s rows belong in ``p1``'s table."""
    write_rows(db, {
        "documents": [{"doc_id": "d1", "uri": "/x/good.log", "pipeline_run_id": "p1"},
                      {"doc_id": "d2", "uri": "/x/quiet.log", "pipeline_run_id": "p1"},
                      {"doc_id": "d3", "uri": "/y/other.log", "pipeline_run_id": "p2"}],
        "runs": [{"run_id": "r1", "doc_id": "d1", "source_uri": "/x/good.log", "framework": "generic",
                  "config": _config(30)},
                 {"run_id": "r3", "doc_id": "d3", "source_uri": "/y/other.log", "framework": "generic",
                  "config": _config(5)}],
        "quarantine": [
            {"pipeline_run_id": "p1", "source_uri": "/x/quiet.log", "operator": "log_parse",
             "error": "no metric series read", "level": "file"},
            {"pipeline_run_id": "p1", "source_uri": "/x/good.log", "operator": "log_parse",
             "error": "one bad line", "level": "line"},
            {"pipeline_run_id": "p2", "source_uri": "/y/broken.log", "operator": "log_split",
             "error": "ValueError: empty file", "level": "input"},
        ],
    })


def test_the_store_queries_return_one_pipeline_runs_logs_and_silent_files(tmp_path):
    db = tmp_path / "kg.duckdb"
    _two_pipeline_runs(db)
    assert runs_of_pipeline_run(db, "p1")["source_uri"].tolist() == ["/x/good.log"]
    assert files_given_nothing(db, "p1").values.tolist() == [["/x/quiet.log", "no metric series read"]]
    assert files_given_nothing(db, "p2")["source_uri"].tolist() == ["/y/broken.log"]
    assert runs_of_pipeline_run(db, "nobody").empty and files_given_nothing(db, "nobody").empty


def test_the_logs_report_reads_its_pipeline_run_through_the_store(tmp_path):
    db = tmp_path / "kg.duckdb"
    _two_pipeline_runs(db)
    table = file_report(db, "p1")
    lines = table.splitlines()
    assert lines[0].split()[:3] == ["file", "framework", "status"]
    assert "good.log" in table and "other.log" not in table and "broken.log" not in table
    assert "1 file(s) gave no metric series" in table and "/x/quiet.log: no metric series read" in table
    assert "one bad line" not in table  # a line's quarantine is not a silent file
