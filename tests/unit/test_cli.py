"""The command line: one-line errors that name the flag, read-only queries, every command documented."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from assay.cli import app
from assay.store import write_rows

ROOT = Path(__file__).resolve().parents[2]


def assay(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    code = "from assay.cli import main; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, env=env)


def test_a_missing_flag_is_one_line_naming_it():
    out = assay("run", "papers")
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "--input" in lines[0] and "--help" in lines[0]


def test_a_misspelt_flag_suggests_the_right_one():
    out = assay("run", "papers", "--inptu", "x")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert "--inptu" in out.stderr and "--input" in out.stderr


def test_unknown_pipeline_and_missing_input_explain_the_fix(tmp_path):
    out = assay("run", "no_such_pipeline", "--input", str(tmp_path))
    assert out.returncode == 2 and "no_such_pipeline" in out.stderr and "Fix:" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and out.stderr.startswith("assay: error [E021]: ")


#: A user's pipeline with four problems: a step before the reader it needs, a misspelt operator, more
#: actors than any machine here holds, and a combine step by an operator nobody registered.
BROKEN_PIPELINE = """
from assay import Pipeline, operator

@operator(requires=["words"], produces=["count"])
def count_words(record):
    return record

@operator(requires=["source_uri"], produces=["words"])
class Tokenizer:
    def __call__(self, record):
        return record

pipeline = (Pipeline("broken").then(count_words).then("read_papr").then(Tokenizer, concurrency=10_000)
            .combine("no_such_combiner"))
"""


def run_check(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``assay run ... --check`` in ``cwd``; the last line of stderr says whether Ray or DuckDB was imported."""
    code = ("import sys\nfrom assay.cli import main\ntry:\n    main()\nfinally:\n"
            "    print('ray' in sys.modules, 'duckdb' in sys.modules, file=sys.stderr)")
    return subprocess.run([sys.executable, "-c", code, "run", *args, "--check"], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def test_run_check_prints_every_problem_with_its_code_and_fix(tmp_path):
    (tmp_path / "broken.py").write_text(BROKEN_PIPELINE)
    out = run_check("broken.py", "--input", str(tmp_path), "--input", "missing-folder", cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "pipeline broken: 3 steps, 5 problems"
    problems = [line.strip() for line in lines[1:6]]
    assert [re.match(r"error \[(E\d+)\]: ", p).group(1) for p in problems] == ["E011", "E001", "E001", "E032",
                                                                                "E040"]
    assert all(" Fix: " in p for p in problems)
    assert "Did you mean read_paper?" in problems[1] and "missing-folder" in problems[4]
    assert out.stderr.split() == ["False", "False"]  # no Ray, no database
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.py"]


def test_run_check_of_a_sound_pipeline_says_so(tmp_path):
    out = run_check("logs", "--input", str(tmp_path), cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[0] == "pipeline logs: 2 steps, no problems"
    assert out.stderr.split() == ["False", "False"] and list(tmp_path.iterdir()) == []
    unknown = run_check("no_such_pipeline", "--input", str(tmp_path), cwd=tmp_path)
    assert unknown.returncode == 1 and "error [E021]: " in unknown.stdout


def test_query_formats(tmp_path):
    db = tmp_path / "kg.duckdb"
    write_rows(db, {"claims": [{"claim_id": "c1", "subject": "Merak", "value": 1.42, "unit": "x"},
                               {"claim_id": "c2", "subject": "O'Brien \"quoted\"", "value": 3.0, "unit": "%"}]})
    as_json = assay("query", "select subject, value from claims order by value", "--db", str(db), "--format", "json")
    assert json.loads(as_json.stdout) == [{"subject": "Merak", "value": 1.42},
                                          {"subject": "O'Brien \"quoted\"", "value": 3.0}]
    as_csv = assay("query", "select claim_id, unit from claims order by claim_id", "--db", str(db), "-f", "csv")
    assert as_csv.stdout.splitlines() == ["claim_id,unit", "c1,x", "c2,%"]
    bad = assay("query", "select * from nope", "--db", str(db))
    assert bad.returncode == 2 and "nope" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_query_prints_sql_null_text_as_null(tmp_path):
    """A NULL in a text column reads NULL in the table (pandas would print NaN or None); NaN numbers stay."""
    db = tmp_path / "kg.duckdb"
    write_rows(db, {"claims": [{"claim_id": "c1", "subject": "Merak", "value": 1.42, "versus": None},
                               {"claim_id": "c2", "subject": None, "value": float("nan"), "versus": "GPipe"}]})
    out = assay("query", "select subject, versus, value from claims order by claim_id", "--db", str(db)).stdout
    rows = [line.split() for line in out.splitlines()]
    assert rows == [["subject", "versus", "value"], ["Merak", "NULL", "1.42"], ["NULL", "GPipe", "NaN"]]


def test_query_refuses_writes(tmp_path):
    db = tmp_path / "kg.duckdb"
    write_rows(db, {"documents": [{"doc_id": "d", "kind": "paper"}]})
    out = assay("query", "delete from documents", "--db", str(db))
    assert out.returncode == 2 and "read-only" in out.stderr.lower()


def test_query_on_a_missing_database_names_the_flag(tmp_path):
    out = assay("query", "select 1", "--db", str(tmp_path / "missing.duckdb"))
    assert out.returncode == 2 and "--db" in out.stderr


def _commands():
    """Every command, groups walked (``assay jobs run`` as ``assay run``), as (path, command)."""
    import typer.main

    from assay.cli.reference import walk

    root = typer.main.get_command(app)
    top = root.context_class(root, info_name="assay")
    return [(tuple(ctx.command_path.split()[1:]), cmd) for cmd, ctx in walk(root, top) if cmd is not root]


@pytest.mark.parametrize("path_and_cmd", _commands(), ids=lambda pc: " ".join(pc[0]))
def test_every_command_is_in_the_readme_and_every_option_has_help(path_and_cmd):
    """Top-level commands are in the README (a group's own commands in docs/cli.md, generated); every command
    at any depth says what it does and what each of its options means."""
    path, cmd = path_and_cmd
    readme = (ROOT / "README.md").read_text()
    assert re.search(rf"assay {re.escape(path[0])}\b", readme), f"`assay {path[0]}` not in README"
    assert (cmd.help or "").strip(), f"assay {' '.join(path)} has no help text"
    for param in cmd.params:
        if getattr(param, "opts", None) and param.opts[0].startswith("--") and param.name != "help":
            assert getattr(param, "help", None), f"assay {' '.join(path)} {param.opts[0]} has no help text"


def test_version_is_one_line():
    from assay import __version__

    out = assay("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"assay {__version__}"


def test_an_empty_query_is_one_line_with_an_example(tmp_path):
    out = assay("query", "", "--db", str(tmp_path / "kg.duckdb"))
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert "empty" in out.stderr and "assay query \"select" in out.stderr


def test_a_bare_keyword_column_gets_the_hint_to_quote_it(tmp_path):
    db = tmp_path / "kg.duckdb"
    write_rows(db, {"claims": [{"claim_id": "c1", "start": 3, "end": 9}]})
    out = assay("query", "select start, end from claims", "--db", str(db))
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert 'quote the column: "end"' in out.stderr
    quoted = assay("query", 'select start, "end" from claims', "--db", str(db), "-f", "csv")
    assert quoted.stdout.splitlines() == ["start,end", "3,9"]
    other = assay("query", "select case when start > 1 then 1 else 0 end as x from claimz", "--db", str(db))
    assert other.returncode == 2 and "hint" not in other.stderr


def test_check_names_an_unknown_claim_and_a_missing_database(tmp_path):
    db = tmp_path / "c.duckdb"
    write_rows(db, {"claims": [{"claim_id": "c1", "metric": "speedup", "measure": "throughput", "unit": "x",
                                "value": 2.0, "subject": "X", "versus": "Y"}]})
    out = assay("check", "nope", "--db", str(db))
    assert out.returncode == 2 and "nope" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    out = assay("check", "--db", str(tmp_path / "missing.duckdb"))
    assert out.returncode == 2 and "--db" in out.stderr and "assay run papers" in out.stderr
    out = assay("check", "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert "checked 1 of 1 claims" in out.stdout and "untestable" in out.stdout
