"""``assay plan``: the best parallel layout of a model on a number of workers, as the cost model sees it."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from assay.scheduler.cluster import Cluster, get_cluster
from assay.scheduler.cluster import preset_names as cluster_names
from assay.scheduler.cost_model import CostModel
from assay.scheduler.model_spec import get_model
from assay.scheduler.model_spec import preset_names as model_names
from assay.scheduler.planner import NoFeasibleLayout, Plan, plan_layout


def _fail(flag: str, message: str) -> None:
    typer.echo(f"Error: {flag}: {message}", err=True)
    raise typer.Exit(2)


def plan(
    model: str = typer.Option(..., "--model", help=f"model preset: {', '.join(model_names())}"),
    workers: int = typer.Option(..., "--workers", help="number of devices (GPUs, or CPU worker slots)"),
    gpu: str = typer.Option("a100-80g", "--gpu", help=f"device/cluster preset: {', '.join(cluster_names())}"),
    global_batch: int | None = typer.Option(None, "--global-batch",
                                            help="sequences per step (default: the model preset's)"),
    recompute: bool | None = typer.Option(None, "--recompute/--no-recompute",
                                          help="force activation recomputation on or off (default: try both)"),
    max_tp: int | None = typer.Option(None, "--max-tp", help="largest tensor-parallel size to consider"),
    cluster_file: Path | None = typer.Option(None, "--cluster-file",
                                             help="YAML/JSON cluster description (replaces --gpu)"),
    fitted: bool = typer.Option(False, "--fitted", help="use the latest cost-model fit stored in --db"),
    db: Path | None = typer.Option(None, "--db", help="database for --fitted (default ./assay.duckdb or ASSAY_DB)"),
    as_json: bool = typer.Option(False, "--json", help="print the plan as JSON"),
) -> None:
    """Plan the parallel layout (dp, tp, pp, micro-batch, recomputation, pipeline stages) of a model."""
    try:
        spec = get_model(model)
    except KeyError:
        _fail("--model", f"unknown model {model!r}; valid: {', '.join(model_names())}")
    if cluster_file is not None:
        try:
            cluster: Cluster = Cluster.from_file(cluster_file)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            _fail("--cluster-file", f"{cluster_file}: {exc}")
    else:
        try:
            cluster = get_cluster(gpu)
        except KeyError:
            _fail("--gpu", f"unknown gpu {gpu!r}; valid: {', '.join(cluster_names())}")
    if workers < 1:
        _fail("--workers", f"must be at least 1, got {workers}")
    batch = global_batch or spec.default_global_batch
    if batch < 1:
        _fail("--global-batch", f"must be at least 1, got {batch}")
    cost_model = CostModel.from_db(db) if fitted else CostModel.default()
    try:
        result = plan_layout(spec, workers, cluster, batch, recompute=recompute, max_tp=max_tp,
                             cost_model=cost_model)
    except NoFeasibleLayout as exc:
        _fail("--workers", str(exc))
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        typer.echo(render(result, cost_model))


def render(p: Plan, cost_model: CostModel | None = None) -> str:
    """The plan as the text ``assay plan`` prints."""
    e = p.estimate
    source = f"fit {cost_model.fit_id}" if cost_model is not None and cost_model.fit_id else "analytic defaults"
    lines = [
        f"{p.model} on {p.workers} x {p.cluster}, global batch {p.layout.global_batch} "
        f"({p.candidates} layouts evaluated, cost model: {source})",
        f"best: dp={p.dp} tp={p.tp} pp={p.pp}, micro-batch {p.micro_batch_size} x {p.num_micro_batches}, "
        f"recompute {'on' if p.recompute else 'off'}",
        f"  step time {_seconds(e.step_time_s)}, {e.tokens_per_s:,.0f} tokens/s "
        f"({e.tokens_per_s / p.workers:,.1f} per device), {e.tflops_per_device:.1f} TFLOP/s per device",
        f"  memory {p.memory_gb:.1f} of {e.memory_limit_bytes / 1e9:.1f} GB per device",
        f"  stages (layers): {_stages(p.stage_layers)}",
        f"  time: compute {_seconds(e.compute_s)}, bubble {_seconds(e.bubble_s)}, tp comm {_seconds(e.tp_comm_s)}, "
        f"pp comm {_seconds(e.pp_comm_s)}, dp comm {_seconds(e.dp_comm_s)}, optimizer {_seconds(e.optimizer_s)}",
    ]
    if p.runner_ups:
        lines.append("runner-ups:")
        lines.append(f"  {'dp':>5} {'tp':>3} {'pp':>4} {'mb':>3} {'recompute':>9} {'step':>10} {'TFLOP/s':>8} "
                     f"{'memory GB':>9}")
        for r in p.runner_ups:
            lines.append(f"  {r.dp:>5} {r.tp:>3} {r.pp:>4} {r.micro_batch_size:>3} "
                         f"{'on' if r.recompute else 'off':>9} {_seconds(r.step_time_s):>10} "
                         f"{r.tflops_per_device:>8.1f} {r.memory_gb:>9.1f}")
    return "\n".join(lines)


def _seconds(s: float) -> str:
    return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"


def _stages(sizes: tuple[int, ...]) -> str:
    """Run-length: ``6 7 8x5 7``."""
    out: list[str] = []
    i = 0
    while i < len(sizes):
        j = i
        while j < len(sizes) and sizes[j] == sizes[i]:
            j += 1
        out.append(f"{sizes[i]}x{j - i}" if j - i > 1 else str(sizes[i]))
        i = j
    return " ".join(out)
