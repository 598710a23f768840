"""A plan asked for by names (model and device presets, or a cluster file), as ``assay plan`` asks for one,
and the text that shows it.

    report = plan_named("gpt-175b", 1024, gpu="a100-80g", global_batch=1536)
    print(report.render())

Each wrong input is a ``PlanInputError`` that says which input (``field``) is wrong and what is valid, so a
caller can point at its own spelling of it (a flag, a form field).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.domain.model_spec import ModelSpec, get_model
from assay.domain.model_spec import preset_names as model_names
from assay.errors import AssayError
from assay.scheduler.cluster import Cluster, get_cluster
from assay.scheduler.cluster import preset_names as cluster_names
from assay.scheduler.cost_model import CostModel, latest_model
from assay.scheduler.planner._plan import NoFeasibleLayout, Plan
from assay.scheduler.planner._search import plan_layout


class PlanInputError(AssayError, ValueError):
    """One input of :func:`plan_named` is wrong; ``field`` names it (model, gpu, cluster_file, workers,
    global_batch)."""

    code = "E071"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class PlanReport:
    plan: Plan
    cost_model: CostModel

    def to_dict(self) -> dict[str, Any]:
        return self.plan.to_dict()

    def render(self) -> str:
        return render_plan(self.plan, self.cost_model)


def plan_named(model: str | ModelSpec, workers: int, *, gpu: str = "a100-80g", cluster_file: Path | None = None,
               global_batch: int | None = None, recompute: bool | None = None, max_tp: int | None = None,
               fitted: bool = False, db: Any = None) -> PlanReport:
    """The best layout of the model preset ``model`` (or a :class:`ModelSpec`) on ``workers`` devices of the
    ``gpu`` preset (or the cluster in ``cluster_file``), by the analytic cost model or, with ``fitted``, the
    latest fit in ``db``."""
    try:
        spec = model if isinstance(model, ModelSpec) else get_model(model)
    except KeyError:
        raise PlanInputError("model", f"unknown model {model!r}; valid: {', '.join(model_names())}") from None
    if cluster_file is not None:
        try:
            cluster = Cluster.from_file(cluster_file)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise PlanInputError("cluster_file", f"{cluster_file}: {exc}") from None
    else:
        try:
            cluster = get_cluster(gpu)
        except KeyError:
            raise PlanInputError("gpu", f"unknown gpu {gpu!r}; valid: {', '.join(cluster_names())}") from None
    if workers < 1:
        raise PlanInputError("workers", f"must be at least 1, got {workers}")
    batch = global_batch or spec.default_global_batch
    if batch < 1:
        raise PlanInputError("global_batch", f"must be at least 1, got {batch}")
    cost_model = latest_model(db) if fitted else CostModel.default()
    try:
        plan = plan_layout(spec, workers, cluster, batch, recompute=recompute, max_tp=max_tp, cost_model=cost_model)
    except NoFeasibleLayout as exc:
        raise PlanInputError("workers", str(exc)) from None
    return PlanReport(plan, cost_model)


def render_plan(p: Plan, cost_model: CostModel | None = None) -> str:
    """The plan as ``assay plan`` prints it: the best layout, its predicted time and memory, the runner-ups."""
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
