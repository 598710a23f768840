"""``assay jobs``: run, queue and steer parallel-training jobs."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from assay.cli._options import DbOption, usage_error

app = typer.Typer(help="Run, queue and steer parallel-training jobs (GPT with dp/tp/pp on Ray).",
                  no_args_is_help=True, add_completion=False, rich_markup_mode=None)

SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override a spec field, e.g. --set steps=60 --set dp=2; repeatable."),
]
AddressOption = Annotated[
    str | None, typer.Option("--address", help="Ray cluster address (e.g. auto); default: embedded Ray.")
]


@app.callback()
def _jobs(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also show Ray's own log lines and warnings "
                                          "(e.g. `assay jobs --verbose run gpt-3d`).")] = False,
) -> None:
    """Run, queue and steer parallel-training jobs (GPT with dp/tp/pp on Ray)."""
    from assay.ray_session import quiet_ray

    quiet_ray(not verbose)


VerboseOption = Annotated[bool, typer.Option("--verbose", "-v", help="Also show Ray's own log lines and warnings.")]
JobId = Annotated[str, typer.Argument(help="Job id (or a unique prefix of it), as `assay jobs list` shows.")]


def _spec(spec: str, overrides: list[str] | None) -> Any:
    from assay.jobs.spec import SpecError, load_spec

    try:
        return load_spec(spec, overrides or [])
    except SpecError as exc:
        raise usage_error(exc, _hint(exc, overrides)) from None


def _job(db: Path | None, job_id: str) -> dict[str, Any]:
    from assay.jobs import get_job

    try:
        return get_job(db, job_id)
    except KeyError as exc:
        raise typer.BadParameter(f"{exc.args[0]}; see `assay jobs list`", param_hint="JOB_ID") from None


@app.command("run")
def run_cmd(
    spec: Annotated[str, typer.Argument(help="A built-in spec name (see `assay jobs specs`) or a YAML file.")],
    set_: SetOption = None,
    db: DbOption = None,
    address: AddressOption = None,
    workers: Annotated[int | None, typer.Option(help="Start on this many workers (re-plans the layout).",
                                                min=1)] = None,
    worker_cpus: Annotated[float | None, typer.Option(help="CPUs per worker (default: an equal share).",
                                                      min=0.01)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
    verbose: VerboseOption = False,
) -> None:
    """Run a job in the foreground until it ends, showing progress and loss. A job that can never run on the
    cluster (the check of `jobs submit`, and a --workers the cluster cannot hold) is refused at once."""
    _verbose(verbose)
    from assay.jobs import SpecError, outcome_line, progress_printer, run
    from assay.store.job_state import JobState

    job_spec = _spec(spec, set_)
    started = time.monotonic()
    try:
        sup = run(job_spec, db, address=address, workers=workers, worker_cpus=worker_cpus,
                  on_progress=None if quiet else progress_printer(typer.echo),
                  on_event=None if quiet else _show_event)
    except SpecError as exc:  # refused before it starts: the same check as `jobs submit`
        raise usage_error(exc, "--workers" if exc.field == "workers" else _hint(exc, set_)) from None
    except KeyboardInterrupt:
        typer.echo("interrupted: the job is checkpointed; resume with `assay jobs resume ID`", err=True)
        raise typer.Exit(130) from None
    typer.echo(outcome_line(sup, time.monotonic() - started))
    if sup.outcome != JobState.COMPLETED:
        if sup.job.error:
            typer.echo(f"error: {sup.job.error}", err=True)
        raise typer.Exit(1)


def _verbose(on: bool) -> None:
    if on:
        from assay.ray_session import quiet_ray

        quiet_ray(False)


def _show_event(sup: Any, kind: str, step: int, detail: str) -> None:
    if kind != "checkpoint":
        typer.echo(f"[{sup.job_id}] {kind} at step {step}: {detail}")


@app.command()
def submit(
    spec: Annotated[str, typer.Argument(help="A built-in spec name or a YAML file (one spec, a list of specs, "
                                             "or several YAML documents).")],
    set_: SetOption = None,
    db: DbOption = None,
    address: Annotated[str | None, typer.Option(
        "--address", help="Check the job against this Ray cluster (default: this machine's CPUs).")] = None,
    workers: Annotated[int | None, typer.Option(
        help="Check against this many worker slots (as `assay scheduler --workers`).", min=1)] = None,
    worker_cpus: Annotated[float | None, typer.Option(
        help="CPUs per worker (as `assay scheduler --worker-cpus`).", min=0.01)] = None,
) -> None:
    """Queue jobs for `assay scheduler`; prints each queued job's id. A spec that can never fit the cluster
    the scheduler will have, or that has no content, is refused with the reason and not queued; in a file
    of several specs each is refused or queued on its own."""
    from assay.jobs import SpecError, capacity, load_specs, submit_all

    try:
        specs = load_specs(spec, set_ or [])
    except SpecError as exc:
        raise usage_error(exc, "SPEC") from None
    done = submit_all(specs, db, capacity=capacity(workers, address, worker_cpus))
    if len(done) == 1 and done[0].error is not None:  # one spec: refused as a bad argument, as `jobs run` does
        raise usage_error(done[0].error, _hint(done[0].error, set_))
    label = {d.label: f" {d.label}" if d.label else "" for d in done}
    for d in done:
        if d.error is not None:
            typer.echo(f"refused{label[d.label]}: {d.error}", err=True)
        else:
            typer.echo(d.job_id)
            typer.echo(f"queued{label[d.label]}: {d.job_id} {d.note}", err=True)
    queued = sum(d.error is None for d in done)
    if len(done) > 1:
        typer.echo(f"{len(done)} specs: {queued} queued, {len(done) - queued} refused", err=True)
        if queued < len(done):
            raise typer.Exit(1)


def _hint(exc: Any, overrides: list[str] | None) -> str:
    return "--set" if overrides and exc.field not in ("spec",) else "SPEC"


#: The columns of `assay jobs list`, each with what it says (the command's help is written from this).
LIST_COLUMNS: dict[str, str] = {
    "job_id": "the id other commands take (a unique prefix will do)",
    "name": "the spec's name",
    "state": "queued, waiting, starting, running, restarting, resizing, preempted, completed, failed or "
             "cancelled",
    "progress": "steps done of the steps the spec asks for, e.g. 60/200 (the last step with a metric)",
    "priority": "higher runs first under the priority policies",
    "workers": "workers it runs on now (0 when not running)",
    "min_workers": "fewest workers it runs on",
    "max_workers": "most workers it may get",
    "attempts": "times it was started (restarts after a failure or a resize count)",
    "submitted_at": "when it was queued (UTC)",
    "error": "why it failed (failed jobs only)",
}


@app.command("list", help="Jobs with their state, workers and progress, oldest first. Columns: "
                          + "; ".join(f"{k}: {v}" for k, v in LIST_COLUMNS.items()) + ".")
def list_cmd(
    db: DbOption = None,
    state: Annotated[str | None, typer.Option(
        help="Only jobs in this state (queued, waiting, running, preempted, completed, ...).")] = None,
    format: Annotated[str, typer.Option("--format", help="table or json.")] = "table",
) -> None:
    from assay.jobs.spec import SpecError, from_json
    from assay.store import queries_jobs as q
    from assay.store.job_state import ALL_STATES, JobState

    if format not in ("table", "json"):
        raise typer.BadParameter(f"{format!r}; use table or json", param_hint="--format")
    if state and state not in ALL_STATES:
        raise typer.BadParameter(f"{state!r}; use one of: {', '.join(ALL_STATES)}", param_hint="--state")
    df = q.jobs(db, [state] if state else None)
    steps = q.job_last_steps(db) if not df.empty else {}

    def progress(row: Any) -> str:
        try:
            total = from_json(row.spec).steps
        except (SpecError, ValueError, TypeError):
            return ""
        done = total if row.state == JobState.COMPLETED else min(steps.get(row.job_id, 0), total)
        return f"{done}/{total}"

    df["progress"] = [progress(r) for r in df.itertuples()]
    df["error"] = df["error"].where(df["state"] == JobState.FAILED, None)
    df = df[list(LIST_COLUMNS)]
    if format == "json":
        typer.echo(df.to_json(orient="records", date_format="iso"))
    elif df.empty:
        typer.echo("no jobs")
    else:
        typer.echo(df.astype(object).where(df.notna(), "").to_string(index=False))


@app.command()
def show(job_id: JobId, db: DbOption = None) -> None:
    """One job: its state, layout, last metrics and events."""
    from assay.jobs import describe_job

    try:
        described = describe_job(db, job_id)
    except KeyError as exc:
        raise typer.BadParameter(f"{exc.args[0]}; see `assay jobs list`", param_hint="JOB_ID") from None
    typer.echo(json.dumps(described.job, default=str, indent=2))
    for line in described.lines():
        typer.echo(line)


@app.command()
def wait(
    job_id: JobId,
    db: DbOption = None,
    timeout: Annotated[float | None, typer.Option(help="Give up after this many seconds (exit 3).")] = None,
) -> None:
    """Wait until a job ends; exit 0 if it completed, 1 if it failed or was cancelled."""
    from assay.jobs import wait as wait_job
    from assay.store.job_state import FINAL_STATES, JobState

    job = _job(db, job_id)
    state = wait_job(db, job["job_id"], timeout)
    typer.echo(f"{job['job_id']}: {state}")
    if state not in FINAL_STATES:
        raise typer.Exit(3)
    if state != JobState.COMPLETED:
        raise typer.Exit(1)


@app.command()
def cancel(job_id: JobId, db: DbOption = None) -> None:
    """Cancel a job (a running one is checkpointed and stopped by its driver)."""
    from assay.jobs import request_cancel

    job = _job(db, job_id)
    typer.echo(f"{job['job_id']}: {request_cancel(db, job['job_id'])}")


@app.command()
def resize(
    job_id: JobId,
    workers: Annotated[int, typer.Argument(help="The new number of workers.")],
    db: DbOption = None,
) -> None:
    """Move a job to WORKERS workers: checkpoint, re-plan the layout, restart (same global batch)."""
    from assay.jobs import request_resize

    job = _job(db, job_id)
    try:
        state = request_resize(db, job["job_id"], workers)
    except ValueError as exc:
        raise usage_error(exc, "WORKERS") from None
    typer.echo(f"{job['job_id']}: resize to {workers} requested ({state})")


@app.command()
def resume(
    job_id: JobId,
    db: DbOption = None,
    address: AddressOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
    verbose: VerboseOption = False,
) -> None:
    """Run an interrupted job (preempted, or whose driver died) in the foreground from its checkpoint."""
    _verbose(verbose)
    from assay.jobs import resume as resume_job
    from assay.store.job_state import JobState

    job = _job(db, job_id)

    def progress(sup: Any, step: int, m: dict[str, float]) -> None:
        if not quiet and (step % sup.spec.checkpoint_every == 0 or step == sup.spec.steps):
            typer.echo(f"[{sup.job_id}] step {step}/{sup.spec.steps}  loss {m['loss']:.4f}")

    try:
        sup = resume_job(job["job_id"], db, address=address, on_progress=progress,
                         on_event=None if quiet else _show_event)
    except ValueError as exc:
        raise usage_error(exc, "JOB_ID") from None
    typer.echo(f"{sup.job_id}: {sup.outcome} at step {sup.step}/{sup.spec.steps}")
    if sup.outcome != JobState.COMPLETED:
        raise typer.Exit(1)


@app.command()
def specs() -> None:
    """The built-in example specs (pipelines/jobs/*.yaml)."""
    from assay.jobs.spec import builtin_names, load_spec

    for name in builtin_names():
        s = load_spec(name)
        lay = "auto" if s.parallel is None else str(s.parallel)
        m = s.model
        typer.echo(f"{name:<14} {lay:<18} layers={m.layers} hidden={m.hidden} heads={m.heads} "
                   f"seq={m.seq_len} steps={s.steps} batch={s.global_batch} workers={s.min_workers}..{s.max_workers}")
