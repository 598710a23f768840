"""``assay plan``: the best parallel layout of a model on a number of workers, as the cost model sees it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from assay.cli._options import DbOption, usage_error
from assay.scheduler.cluster import preset_names as cluster_names  # the presets' lists: no numpy, no torch
from assay.scheduler.model_spec import preset_names as model_names


def plan(
    model: Annotated[str, typer.Option("--model", help=f"Model preset: {', '.join(model_names())}.")],
    workers: Annotated[int, typer.Option("--workers", help="Number of devices (GPUs, or CPU worker slots).")],
    gpu: Annotated[str, typer.Option("--gpu", help=f"Device/cluster preset: {', '.join(cluster_names())}.")] = "a100-80g",
    global_batch: Annotated[int | None, typer.Option("--global-batch",
                                                     help="Sequences per step (default: the model preset's).")]
    = None,
    recompute: Annotated[bool | None, typer.Option("--recompute/--no-recompute",
                                                   help="Force activation recomputation on or off "
                                                        "(default: try both).")] = None,
    max_tp: Annotated[int | None, typer.Option("--max-tp", help="Largest tensor-parallel size to consider.")]
    = None,
    cluster_file: Annotated[Path | None, typer.Option("--cluster-file",
                                                      help="YAML/JSON cluster description (replaces --gpu).")]
    = None,
    fitted: Annotated[bool, typer.Option("--fitted", help="Use the latest cost-model fit stored in --db.")]
    = False,
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the plan as JSON.")] = False,
) -> None:
    """Plan the parallel layout (dp, tp, pp, micro-batch, recomputation, pipeline stages) of a model."""
    from assay.scheduler.planner import PlanInputError, plan_named

    try:
        report = plan_named(model, workers, gpu=gpu, cluster_file=cluster_file, global_batch=global_batch,
                            recompute=recompute, max_tp=max_tp, fitted=fitted, db=db)
    except PlanInputError as exc:
        raise usage_error(exc, "--" + exc.field.replace("_", "-")) from None
    typer.echo(json.dumps(report.to_dict(), indent=2) if as_json else report.render())
