"""``assay plan``: the best parallel layout of a model on a number of workers, as the cost model sees it.

The model is a preset (``--model``), a GPT-3-shaped model of a given size (``--params 7b``), or any shape
(``--layers --hidden --heads``, with ``--seq-len --vocab --ffn-hidden --kv-heads``); dims given beside
``--model`` or ``--params`` change that model (``--model llama3-8b --seq-len 4096``)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from assay.cli._options import DbOption, usage_error
from assay.scheduler.cluster import preset_names as cluster_names  # the presets' lists: no numpy, no torch
from assay.scheduler.model_spec import preset_names as model_names

_DIM = "A custom model's (or a change to --model's)"

#: The families of the preset table, for the help text (MoE: how the cost model counts a mixture of experts).
FAMILIES = ("GPT-3 (gpt-125m ... gpt-13b, gpt-175b), Megatron-LM's weak-scaling GPTs (gpt-1.7b ... gpt-1t), "
            "Llama 2 (llama2-7b/13b/70b; llama-7b means llama2-7b), Llama 3 (llama3-8b/70b), Mistral "
            "(mistral-7b) and Mixtral (mixtral-8x7b, a mixture of experts: every expert's weights are held in "
            "memory, sharded by tp and pp like a dense layer, and a token's compute counts the 2 experts it "
            "visits; no expert parallelism), and the CPU workloads gpt-tiny and gpt-mini")


def plan(
    workers: Annotated[int, typer.Option("--workers", help="Number of devices (GPUs, or CPU worker slots).")],
    model: Annotated[str | None, typer.Option("--model", help=f"Model preset: {', '.join(model_names())}. "
                                              f"Families: {FAMILIES}.")] = None,
    params: Annotated[str | None, typer.Option(
        "--params", help="Instead of --model: a GPT-3-shaped model of about this many parameters (7b, 350m, "
        "1.3e9): hidden near 128 x layers, heads of 128, sequence 2048, vocabulary 51200.")] = None,
    layers: Annotated[int | None, typer.Option("--layers", help=f"{_DIM}: transformer layers.", min=1)] = None,
    hidden: Annotated[int | None, typer.Option("--hidden", help=f"{_DIM}: hidden size.", min=1)] = None,
    heads: Annotated[int | None, typer.Option("--heads", help=f"{_DIM}: attention heads.", min=1)] = None,
    seq_len: Annotated[int | None, typer.Option("--seq-len", help=f"{_DIM}: sequence length (custom "
                                                "default 2048).", min=1)] = None,
    vocab: Annotated[int | None, typer.Option("--vocab", help=f"{_DIM}: vocabulary (custom default 51200).",
                                              min=1)] = None,
    ffn_hidden: Annotated[int | None, typer.Option("--ffn-hidden", help=f"{_DIM}: feed-forward width "
                                                   "(custom default 4 x hidden; a SwiGLU width w is 1.5 w).",
                                                   min=1)] = None,
    kv_heads: Annotated[int | None, typer.Option("--kv-heads", help=f"{_DIM}: key/value heads "
                                                 "(grouped-query attention; default: --heads).", min=1)] = None,
    gpu: Annotated[str, typer.Option("--gpu", help=f"Device/cluster preset: {', '.join(cluster_names())}.")] = "a100-80g",
    global_batch: Annotated[int | None, typer.Option("--global-batch",
                                                     help="Sequences per step (default: the model preset's; "
                                                          "512 for a custom model).")]
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
    """Plan the parallel layout (dp, tp, pp, micro-batch, recomputation, pipeline stages) of a model: a
    preset (--model), a size (--params), or any shape (--layers --hidden --heads [--seq-len --vocab])."""
    from assay.scheduler.planner import PlanInputError, plan_named

    dims = {"layers": layers, "hidden": hidden, "heads": heads, "seq_len": seq_len, "vocab": vocab,
            "ffn_hidden": ffn_hidden, "kv_heads": kv_heads}
    chosen = _model(model, params, {k: v for k, v in dims.items() if v is not None})
    try:
        report = plan_named(chosen, workers, gpu=gpu, cluster_file=cluster_file, global_batch=global_batch,
                            recompute=recompute, max_tp=max_tp, fitted=fitted, db=db)
    except PlanInputError as exc:
        raise usage_error(exc, "--" + exc.field.replace("_", "-")) from None
    typer.echo(json.dumps(report.to_dict(), indent=2) if as_json else report.render())


def _model(model: str | None, params: str | None, dims: dict[str, int]) -> Any:
    """The model to plan: a preset name (passed on as a name, so an unknown one is the planner's error), or a
    :class:`ModelSpec` built from --params and the dims; a wrong combination names its flag."""
    from assay.scheduler.model_spec import ModelSpec, get_model, parse_count, shaped_like_gpt3

    if model and params:
        raise typer.BadParameter("give --model or --params, not both", param_hint="--params")
    if not dims and not params:
        if not model:
            raise typer.BadParameter("give a preset (--model), a size (--params 7b), or a shape "
                                     "(--layers --hidden --heads)", param_hint="--model")
        return model
    try:
        if params:
            base = shaped_like_gpt3(parse_count(params))
        elif model:
            base = get_model(model)
        else:
            missing = [f"--{k}" for k in ("layers", "hidden", "heads") if k not in dims]
            if missing:
                raise typer.BadParameter(f"a custom model needs {', '.join(missing)} (or --model / --params)",
                                         param_hint=missing[0])
            return ModelSpec("custom", seq_len=dims.pop("seq_len", 2048), vocab=dims.pop("vocab", 51200),
                             default_global_batch=512, source="assay plan: dims given", **dims)
    except KeyError:
        return model  # the planner says which names are valid
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--params" if params else "--model" if model
                                 else "--heads") from None
    if not dims:
        return base
    if "hidden" in dims and "ffn_hidden" not in dims and base.ffn_hidden == 4 * base.hidden:
        dims["ffn_hidden"] = 4 * dims["hidden"]
    if "heads" in dims and "kv_heads" not in dims and base.kv_heads == base.heads:
        dims["kv_heads"] = dims["heads"]
    try:
        return replace(base, name=f"{base.name} (changed)", **dims)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--" + next(iter(dims)).replace("_", "-")) from None
