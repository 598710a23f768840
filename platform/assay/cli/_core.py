"""The top-level typer app, the knowledge-pipeline commands (run, query, operators) and the list of every
other command, each in its own module.

Command modules import only typer and the library's light modules at their top; Ray, DuckDB, pandas and
torch are imported inside the command functions, so that ``assay --version`` and ``--help`` stay fast.
"""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from assay.cli import _check, _dashboard, _demo, _eval, _jobs, _plan, _scheduler, _simulate
from assay.cli._options import DbOption, resolve_db

app = typer.Typer(
    name="assay",
    help="Knowledge pipelines, an elastic scheduler and dashboards for parallel deep-learning training.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

def _show_version(value: bool) -> None:
    if value:
        from assay import __version__

        typer.echo(f"assay {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Knowledge pipelines, an elastic scheduler and dashboards for parallel deep-learning training."""


class Runner(StrEnum):
    auto = "auto"
    local = "local"
    ray = "ray"


@app.command()
def run(
    pipeline: Annotated[str, typer.Argument(help="A built-in pipeline (papers, logs) or a path to a .py file.")],
    input: Annotated[
        list[Path], typer.Option("--input", "-i", help="File or directory to read; repeat for more.")
    ],
    db: DbOption = None,
    address: Annotated[
        str | None, typer.Option("--address", envvar="RAY_ADDRESS",
                                 help="Ray cluster address (e.g. auto, or $RAY_ADDRESS); default: embedded Ray.")
    ] = None,
    runner: Annotated[
        Runner, typer.Option("--runner", envvar="ASSAY_RUNNER", help="Where the operators run: local (this process, no Ray), ray "
                             "(embedded Ray or --address), or auto: local for inputs up to 200 files and 8 MiB "
                             "when no --address/RAY_ADDRESS is given, Ray otherwise.")
    ] = "auto",
    progress: Annotated[bool, typer.Option(help="Show progress: one line per phase with counts and rates.")] = True,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also show Ray's own log lines.")] = False,
    stall_timeout: Annotated[
        float, typer.Option("--stall-timeout", help="Seconds without a record moving before the stages' state "
                            "is printed (0: never).", min=0)
    ] = 120.0,
    fail_on_stall: Annotated[
        bool, typer.Option("--fail-on-stall", help="Stop the run with that message instead of waiting on.")
    ] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Only check the pipeline and the inputs: print every problem (code "
                           "and fix) and exit 1 if there is one; starts no Ray, opens no database.")
    ] = False,
) -> None:
    """Run a pipeline over files and write the knowledge it extracts into the database."""
    if check:
        raise typer.Exit(_check_pipeline(pipeline, input, address))
    from assay.dsl import load_pipeline
    from assay.ray_session import cluster_address
    from assay.runtime import prefer_token_auth

    prefer_token_auth(cluster_address(address))  # before Ray is imported: Ray reads its auth mode then
    from assay.ray_session import quiet_ray
    from assay.runtime import run_pipeline

    quiet_ray(not verbose)
    loaded = load_pipeline(pipeline)
    summary = run_pipeline(loaded, list(input), db=resolve_db(db), address=address, progress=progress,
                           stall_s=stall_timeout, stall_fail=fail_on_stall, runner=str(runner))
    typer.echo(
        f"{summary.pipeline}: {summary.headline} "
        f"in {summary.seconds:.1f}s ({summary.docs_per_s:,.1f} docs/s; {summary.where}) "
        f"-> {summary.db} [pipeline run {summary.pipeline_run_id}]"
    )
    if summary.n_quarantined or summary.n_line_issues:
        typer.echo(f"see why: assay query \"select source_uri, operator, error from quarantine "
                   f"where pipeline_run_id = '{summary.pipeline_run_id}'\"")
    if loaded.report is not None:  # e.g. the logs pipeline's table of what each file gave
        typer.echo(loaded.report(summary.db, summary.pipeline_run_id))
    if summary.n_in and not summary.n_ok:
        typer.echo(f"{summary.pipeline}: none of the {summary.n_in} file(s) gave anything; each one's reason is in "
                   "`quarantine` (above)", err=True)
        raise typer.Exit(1)


def _check_pipeline(name: str, inputs: list[Path], address: str | None) -> int:
    """``assay run --check``: every problem of the pipeline and its inputs, one line each; the exit status."""
    from assay.dsl import PipelineError, load_pipeline
    from assay.errors import one_line
    from assay.runtime import InputError, expand_inputs

    try:
        loaded = load_pipeline(name)
    except PipelineError as exc:  # no pipeline to look into
        typer.echo(f"pipeline {name}: 1 problem\n  {one_line(exc)}")
        return 1
    # Resources are planned against this machine's CPUs, as embedded Ray gets them; a cluster's are known
    # only once connected, which --check does not do.
    nodes = None if address else [float(os.cpu_count() or 1)]
    problems = [one_line(p.error()) for p in loaded.analyze(nodes=nodes)]
    for item in inputs:
        try:
            expand_inputs([item])
        except InputError as exc:
            problems.append(one_line(exc))
    steps = f"{len(loaded.steps)} step{'s' * (len(loaded.steps) != 1)}"
    if not problems:
        typer.echo(f"pipeline {loaded.name}: {steps}, no problems")
    else:
        typer.echo(f"pipeline {loaded.name}: {steps}, {len(problems)} problem{'s' * (len(problems) != 1)}")
        for line in problems:
            typer.echo(f"  {line}")
    where = ("checked when it runs, against the cluster at --address" if nodes is None
             else f"planned for this machine's {nodes[0]:g} CPUs (embedded Ray)")
    typer.echo(f"resources: {where}")
    return 1 if problems else 0


class OutputFormat(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


@app.command()
def query(
    sql: Annotated[str, typer.Argument(help="A SQL query over the knowledge graph (read-only).")],
    db: DbOption = None,
    format: Annotated[OutputFormat, typer.Option("--format", "-f", help="Output format.")] = OutputFormat.table,
    limit: Annotated[int, typer.Option(help="Rows shown in table format (0: all).")] = 100,
) -> None:
    """Query the database read-only; works while a pipeline or the scheduler writes."""
    from assay.store.queries import QueryError, user_query

    path = resolve_db(db)
    if not sql.strip():
        raise typer.BadParameter('the query is empty; e.g. assay query "select count(*) from claims"',
                                 param_hint="SQL")
    if not path.exists():
        raise typer.BadParameter(f"{path} does not exist; run a pipeline first or pass --db FILE", param_hint="--db")
    try:
        frame = user_query(path, sql)
    except QueryError as exc:
        typer.echo(f"assay query: error: {exc}{_keyword_hint(sql, exc)}", err=True)
        raise typer.Exit(2) from None
    if format is OutputFormat.json:
        typer.echo(frame.to_json(orient="records", date_format="iso", default_handler=str))
    elif format is OutputFormat.csv:
        frame.to_csv(sys.stdout, index=False)
    else:
        shown = frame if limit <= 0 else frame.head(limit)
        # SQL NULL in a text column reads NULL (pandas would print NaN or None); numbers keep NaN, as stored.
        text = [c for c in shown.columns if shown[c].dtype.kind in "OSU"]  # object, and pandas 3's str
        shown = shown.assign(**{c: shown[c].where(shown[c].notna(), "NULL") for c in text})
        typer.echo(shown.to_string(index=False, max_colwidth=60) if len(shown) else "(no rows)")
        if limit > 0 and len(frame) > limit:
            typer.echo(f"... {len(frame) - limit} more rows (--limit 0 for all, or --format csv)")


#: Contract columns whose names are SQL keywords.
_KEYWORD_COLUMNS = ("end", "at")


def _keyword_hint(sql: str, exc: Exception) -> str:
    """The fix for the most common parser error on this schema: a bare ``end`` or ``at`` column."""
    import re

    if "syntax error" not in str(exc).lower() and "parser" not in str(exc).lower():
        return ""
    bare = [k for k in _KEYWORD_COLUMNS if re.search(rf'(?<!["\w]){k}(?!["\w])', sql, re.I)]
    if not bare or (bare == ["end"] and re.search(r"\bcase\b", sql, re.I)):
        return ""
    return f' (hint: {bare[0]!r} is an SQL keyword; quote the column: "{bare[0]}")'


@app.command()
def operators(as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False) -> None:
    """List the registered operators with the fields each requires and produces."""
    from assay.dsl import list_operators

    ops = list_operators()
    if as_json:
        typer.echo(json.dumps([{"name": o.name, "version": o.version, "requires": o.requires,
                                "produces": o.produces, "stateful": o.stateful, "description": o.description}
                               for o in ops], indent=2))
        return
    for o in ops:
        kind = "stateful" if o.stateful else "function"
        typer.echo(f"{o.qualified_name:32} {kind:8} {list(o.requires)} -> {list(o.produces)}  {o.description}")


#: The commands from the other areas of assay: (name, function), in the order ``assay --help`` lists them.
COMMANDS = (
    ("eval", _eval.evaluate),
    ("check", _check.check),
    ("plan", _plan.plan),
    ("simulate", _simulate.simulate),
    ("scheduler", _scheduler.scheduler),
    ("dashboard", _dashboard.dashboard),
    ("demo", _demo.demo),
)
for _name, _command in COMMANDS:
    app.command(name=_name)(_command)
app.add_typer(_jobs.app, name="jobs", help="Parallel-training jobs: run, submit, list, wait, cancel, resize.")
os.environ.setdefault("RAY_DEDUP_LOGS", "1")
