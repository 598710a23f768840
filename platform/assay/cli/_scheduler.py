"""``assay scheduler``: the live scheduler over the job queue."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from assay.cli._options import DbOption, usage_error


def scheduler(
    policy: Annotated[str, typer.Option(help="fifo, tiresias or goodput (or a registered policy).")] = "goodput",
    db: DbOption = None,
    address: Annotated[str | None, typer.Option(help="Ray cluster address; default: embedded Ray.")] = None,
    workers: Annotated[int | None, typer.Option(help="Worker slots to hand out (default: one per CPU/GPU).",
                                                min=1)] = None,
    worker_cpus: Annotated[float | None, typer.Option(help="CPUs per worker (default: CPUs / slots, at most 1).",
                                                      min=0.01)] = None,
    interval: Annotated[float, typer.Option(help="Seconds between scheduling rounds.", min=0.1)] = 2.0,
    min_change: Annotated[float, typer.Option(help="Seconds a running job keeps a size before another change.",
                                              min=0.0)] = 10.0,
    min_run: Annotated[float, typer.Option(help="Seconds a job runs before a job of no higher priority may "
                                                "preempt it.", min=0.0)] = 60.0,
    knob: Annotated[list[str] | None, typer.Option(help="Policy setting, e.g. --knob fairness=0; repeatable.")] = None,
    until_idle: Annotated[bool, typer.Option(help="Exit once no job is queued or running.")] = False,
    timeout: Annotated[float | None, typer.Option(help="Exit after this many seconds.")] = None,
) -> None:
    """Run queued jobs on the Ray cluster: the policy decides each round who gets how many workers; jobs
    start, resize, get preempted and restart; every decision lands in `allocations` with its reason and is
    printed as it is taken. A job that cannot start waits with why (`wait: needs 4 workers, 2 free; 2 held
    by job-x`) and never blocks the jobs behind it that can run (fifo backfills unless
    --knob backfill=false)."""
    from assay.live.scheduler import LiveScheduler
    from assay.scheduler.policies import available_policies
    from assay.store.job_state import JobState

    if policy not in available_policies():
        raise typer.BadParameter(f"unknown policy {policy!r}; use one of: {', '.join(available_policies())}",
                                 param_hint="--policy")
    knobs = _knobs(knob or [])

    last: dict[str, Any] = {}

    def report(sched: Any, info: dict[str, Any]) -> None:
        """Each decision as it is taken: finish, start, resume, resize, preempt, wait (with why)."""
        last.update(info)
        for job_id, outcome in info.get("ended") or []:
            if outcome == JobState.PREEMPTED:
                typer.echo(f"round {sched.rounds}: preempted {job_id}: checkpointed, back in the queue")
            else:
                typer.echo(f"round {sched.rounds}: finish {job_id}: {outcome}")
        for line in info.get("applied") or []:
            typer.echo(f"round {sched.rounds}: {line}")

    try:
        sched = LiveScheduler(db, policy, slots=workers, address=address, interval_s=interval,
                              worker_cpus=worker_cpus, min_change_s=min_change, min_run_s=min_run, knobs=knobs, on_round=report)
    except TypeError as exc:
        raise usage_error(exc, "--knob") from None
    typer.echo(f"scheduler: policy {policy}, database {db or 'default'}; Ctrl-C preempts the running jobs "
               "(checkpointed) and exits")
    try:
        sched.run(until_idle=until_idle, timeout_s=timeout)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    waiting = last.get("waiting") or {}
    left = f"; {len(waiting)} job(s) still waiting" if waiting else ""
    typer.echo(f"scheduler: stopped after {sched.rounds} rounds{left}")
    for job_id, why in waiting.items():
        typer.echo(f"  {job_id}: {why}")


def _knobs(items: list[str]) -> dict[str, Any]:
    import yaml

    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"{item!r} must look like key=value", param_hint="--knob")
        out[key.strip()] = yaml.safe_load(value)
    return out
