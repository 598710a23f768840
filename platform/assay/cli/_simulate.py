"""``assay simulate``: replay a workload under one or all scheduling policies on a simulated cluster."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from assay.cli._options import DbOption, usage_error


def simulate(
    workload: Annotated[str, typer.Option(
        "--workload", "-w", help="CSV file (job_id,submit_time,num_gpus,duration,model or AdaptDL's "
        "name,time,application,num_replicas,batch_size), philly:N for a generated Philly-shaped workload, "
        "or adaptdl:N for a packaged AdaptDL workload.")],
    policy: Annotated[str, typer.Option("--policy", "-p", help="fifo, tiresias, goodput, any registered "
                                                               "policy, or 'all' to compare the built-ins.")]
    = "goodput",
    gpus: Annotated[int, typer.Option("--gpus", help="GPUs in the simulated cluster.")] = 64,
    cluster: Annotated[str | None, typer.Option("--cluster", help="Node pools by GPU type, TYPE:NODESxGPUS "
                                                "comma-separated (aws:6x4,rtx:3x8,dgx-ext:2x8) or a preset "
                                                "(sia-64, sia-64-homogeneous, phoebe-44); replaces --gpus "
                                                "and --gpus-per-node.")] = None,
    calibration: Annotated[str | None, typer.Option("--calibration", help="sia (per-application restart "
                                                    "seconds and step-time slowdowns of Sia's simulator) or "
                                                    "none; default: sia with --cluster, else none.")] = None,
    gpus_per_node: Annotated[int, typer.Option("--gpus-per-node", help="GPUs per node.")] = 4,
    round_s: Annotated[float, typer.Option("--round", help="Seconds between scheduling rounds.")] = 60.0,
    restart_s: Annotated[float, typer.Option("--restart", help="Seconds without progress after each change "
                                                               "of a job's workers.")] = 30.0,
    profiles: Annotated[Path | None, typer.Option("--profiles", help="Folder of per-application profiles "
                                                  "(placements.csv, scalability.csv, validation-<B>.csv; "
                                                  "placements-<type>.csv per GPU type for --cluster); "
                                                  "default: the packaged AdaptDL profiles.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of a generated (philly:N) workload.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    db: DbOption = None,
    store: Annotated[bool, typer.Option("--store/--no-store", help="Record runs in the database for the "
                                                                   "dashboards.")] = True,
) -> None:
    """Replay a workload under a scheduling policy and report JCT, makespan, utilization and fairness.
    Columns: avg/p50/p99 JCT (job completion time: submission to finish), makespan (first submission to
    last finish), util (allocated GPU-seconds over GPUs x makespan), FTF (finish-time fairness: each job's
    JCT over its run time alone on the GPUs it asked for, averaged; 1.0 is as if alone, lower is better),
    wall (seconds this simulation took)."""
    from assay.scheduler.pools import ClusterSpec
    from assay.scheduler.simulator import compare_policies, policy_names
    from assay.scheduler.workloads import CALIBRATIONS, WorkloadError, named_workload

    if gpus < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--gpus")
    if gpus_per_node < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--gpus-per-node")
    if round_s <= 0:
        raise typer.BadParameter("must be positive", param_hint="--round")
    if restart_s < 0:
        raise typer.BadParameter("must not be negative", param_hint="--restart")
    if profiles is not None and not profiles.is_dir():
        raise typer.BadParameter(f"{profiles} is not a folder", param_hint="--profiles")
    spec = None
    if cluster is not None:
        try:
            spec = ClusterSpec.parse(cluster)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--cluster") from None
        gpus, gpus_per_node = spec.total, max(spec.capacity)
    if calibration is not None and calibration not in CALIBRATIONS:
        raise typer.BadParameter(f"choose {' or '.join(CALIBRATIONS)}", param_hint="--calibration")
    if calibration is None:
        calibration = "sia" if spec is not None else None
    try:
        policy_names(policy)
    except KeyError as exc:
        raise typer.BadParameter(exc.args[0], param_hint="--policy") from None
    try:
        loaded = named_workload(workload, profiles=profiles, seed=seed)
    except WorkloadError as exc:
        raise usage_error(exc, "--workload") from None
    for issue in loaded.issues:
        typer.echo(f"skipped: {issue}", err=True)
    if not loaded.jobs:
        raise typer.BadParameter("no readable job in the workload", param_hint="--workload")
    if spec is not None and Path(workload).is_file():  # not one of Pollux's: named by its folder and file
        loaded.name = f"{Path(workload).resolve().parent.name}/{Path(workload).stem}"

    stored = None
    if spec is not None and profiles is None:  # no measured per-type profiles: fit them from the store's runs
        from assay.scheduler.simulator import profiles_from_store

        stored = profiles_from_store(db, spec.types) or None
        if stored:
            typer.echo(f"per-type step times fitted from the store's runs for {', '.join(sorted(stored))}",
                       err=True)
    comparison = compare_policies(loaded, policy, gpus=gpus, gpus_per_node=gpus_per_node, round_s=round_s,
                                  restart_s=restart_s, db=db, store=store, cluster=spec,
                                  calibration=calibration, profiles=stored,
                                  on_issue=lambda issue: typer.echo(f"warning: {issue}", err=True))
    results = comparison.results
    where = {"cluster": str(spec), "calibration": calibration} if spec is not None else {}
    if as_json:
        if len(results) == 1:
            (name,) = results
            typer.echo(json.dumps({"workload": loaded.name, **where, "policy": name, **comparison.figures(name)}))
        else:
            typer.echo(json.dumps({"workload": loaded.name, **where,
                                   "policies": {n: comparison.figures(n) for n in results}}))
        return
    if spec is not None:
        typer.echo(f"{loaded.name}: {len(loaded.jobs)} jobs on {spec} ({gpus} GPUs), {round_s:g} s rounds, "
                   f"calibration {calibration}")
    else:
        typer.echo(f"{loaded.name}: {len(loaded.jobs)} jobs on {gpus} GPUs ({gpus_per_node} per node), "
                   f"{round_s:g} s rounds, {restart_s:g} s per restart")
    typer.echo(f"{'policy':<20} {'avg JCT':>9} {'p50 JCT':>9} {'p99 JCT':>9} {'makespan':>10} {'util':>6} "
               f"{'FTF':>6} {'wall':>7}")
    for name, r in results.items():
        s = r.summary
        typer.echo(f"{name:<20} {_s(s['avg_jct']):>9} {_s(s['p50_jct']):>9} {_s(s['p99_jct']):>9} "
                   f"{_s(s['makespan']):>10} {_f(s['utilization']):>6} {_f(s['fairness']):>6} {r.wall_s:>6.1f}s")
    for row in comparison.references:
        typer.echo(f"{row['policy']:<20} {_s(row['avg_jct']):>9} {'-':>9} {_s(row['p99_jct']):>9} "
                   f"{_s(row['makespan']):>10} {'-':>6} {'-':>6} {'-':>7}")


def _s(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f}s"


def _f(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}"
