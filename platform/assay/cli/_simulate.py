"""``assay simulate``: replay a workload under one or all scheduling policies on a simulated cluster."""

from __future__ import annotations

import json
import re
from pathlib import Path

import typer

POLICIES_ALL = ("fifo", "tiresias", "goodput")
SUMMARY_KEYS = ("avg_jct", "p50_jct", "p99_jct", "makespan", "utilization", "fairness")


def _load(workload: str, profiles: Path | None, seed: int):
    from assay.scheduler.workloads import WorkloadError, adaptdl_workload, load_workload, philly_workload

    m = re.fullmatch(r"philly:(\d+)", workload)
    if m:
        return philly_workload(int(m.group(1)), seed=seed)
    m = re.fullmatch(r"adaptdl:(\d+)", workload)
    if m:
        try:
            return adaptdl_workload(int(m.group(1)))
        except WorkloadError as exc:
            raise typer.BadParameter(str(exc), param_hint="--workload") from None
    if re.fullmatch(r"[a-z]+:.*", workload) and not Path(workload).exists():
        raise typer.BadParameter(f"{workload!r}: use a CSV path, philly:N (e.g. philly:160) or adaptdl:N (1..8)",
                                 param_hint="--workload")
    path = Path(workload)
    try:
        loaded = load_workload(path, profiles_dir=profiles)
    except WorkloadError as exc:
        raise typer.BadParameter(str(exc), param_hint="--workload") from None
    if loaded.kind == "adaptdl":
        loaded.name = f"adaptdl/{path.stem}"
    return loaded


def simulate(
    workload: str = typer.Option(..., "--workload", "-w",
                                 help="CSV file (job_id,submit_time,num_gpus,duration,model or AdaptDL's "
                                      "name,time,application,num_replicas,batch_size), philly:N for a generated "
                                      "Philly-shaped workload, or adaptdl:N for a packaged AdaptDL workload."),
    policy: str = typer.Option("goodput", "--policy", "-p", help="fifo, tiresias, goodput, any registered "
                                                                   "policy, or 'all' to compare the built-ins."),
    gpus: int = typer.Option(64, "--gpus", help="GPUs in the simulated cluster."),
    gpus_per_node: int = typer.Option(4, "--gpus-per-node", help="GPUs per node."),
    round_s: float = typer.Option(60.0, "--round", help="Seconds between scheduling rounds."),
    restart_s: float = typer.Option(30.0, "--restart", help="Seconds without progress after each change of "
                                                            "a job's workers."),
    profiles: Path | None = typer.Option(None, "--profiles", help="Folder of per-application profiles "
                                         "(placements.csv, scalability.csv, validation-<B>.csv); default: "
                                         "the packaged AdaptDL profiles."),
    seed: int = typer.Option(0, "--seed", help="Seed of a generated (philly:N) workload."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    db: Path | None = typer.Option(None, "--db", help="Database to record the runs in (default ./assay.duckdb "
                                                      "or $ASSAY_DB)."),
    store: bool = typer.Option(True, "--store/--no-store", help="Record runs in the database for the "
                                                                 "dashboards."),
) -> None:
    """Replay a workload under a scheduling policy and report JCT, makespan, utilization and fairness."""
    from assay.scheduler.policies import available_policies
    from assay.scheduler.simulator import published_rows, write_published, write_result
    from assay.scheduler.simulator import simulate as run_simulation

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
    names = list(POLICIES_ALL) if policy == "all" else [policy]
    for name in names:
        if name not in available_policies():
            raise typer.BadParameter(f"unknown policy {name!r}; choose from {', '.join(available_policies())} "
                                     "or all", param_hint="--policy")
    loaded = _load(workload, profiles, seed)
    for issue in loaded.issues:
        typer.echo(f"skipped: {issue}", err=True)
    if not loaded.jobs:
        raise typer.BadParameter("no readable job in the workload", param_hint="--workload")

    results = {}
    for name in names:
        result = run_simulation(loaded, name, gpus=gpus, gpus_per_node=gpus_per_node, round_s=round_s,
                                restart_s=restart_s)
        for issue in result.issues[len(loaded.issues):]:
            typer.echo(f"warning: {issue}", err=True)
        results[name] = result
        if store:
            write_result(result, db)
    references = published_rows([loaded.name]) if loaded.name.startswith("adaptdl/") else []
    if store and references and (gpus, gpus_per_node, round_s, restart_s) == (64, 4, 60.0, 30.0):
        write_published(db, [loaded.name])

    if as_json:
        def figures(r):
            return {**{k: r.summary.get(k) for k in SUMMARY_KEYS}, "n_jobs": r.summary.get("n_jobs"),
                    "unfinished": r.summary.get("unfinished"), "wall_s": round(r.wall_s, 3)}
        if len(results) == 1:
            (name, r), = results.items()
            typer.echo(json.dumps({"workload": loaded.name, "policy": name, **figures(r)}))
        else:
            typer.echo(json.dumps({"workload": loaded.name, "policies": {n: figures(r) for n, r in results.items()}}))
        return
    typer.echo(f"{loaded.name}: {len(loaded.jobs)} jobs on {gpus} GPUs ({gpus_per_node} per node), "
               f"{round_s:g} s rounds, {restart_s:g} s per restart")
    header = f"{'policy':<20} {'avg JCT':>9} {'p50 JCT':>9} {'p99 JCT':>9} {'makespan':>10} {'util':>6} {'FTF':>6} {'wall':>7}"
    typer.echo(header)
    for name, r in results.items():
        s = r.summary
        typer.echo(f"{name:<20} {_s(s['avg_jct']):>9} {_s(s['p50_jct']):>9} {_s(s['p99_jct']):>9} "
                   f"{_s(s['makespan']):>10} {_f(s['utilization']):>6} {_f(s['fairness']):>6} {r.wall_s:>6.1f}s")
    for row in references:
        typer.echo(f"{row['policy']:<20} {_s(row['avg_jct']):>9} {'-':>9} {_s(row['p99_jct']):>9} "
                   f"{_s(row['makespan']):>10} {'-':>6} {'-':>6} {'-':>7}")


def _s(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f}s"


def _f(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}"
