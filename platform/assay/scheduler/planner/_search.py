"""The layout search.

Candidates: tensor-parallel sizes that are powers of two dividing the heads, within a node (beyond it
only when nothing fits inside); pipeline sizes dividing ``workers / tp`` and at most the layers; the
data-parallel size is what remains and must divide the global batch; micro-batches 1..8 dividing the
per-rank batch; recomputation off and on. Memory prunes first: a (tp, pp) whose model state alone
overflows a device is dropped whole, and micro-batch sizes stop growing at the first that does not fit.
Each survivor gets a balanced stage partition and a cost-model estimate.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from assay.domain.layout import Layout
from assay.domain.model_spec import ModelSpec
from assay.scheduler.cluster import Cluster
from assay.scheduler.cost_model import (
    CostModel,
    CostParams,
    Rates,
    StepEstimate,
    estimate_step,
    layer_costs,
    precision_bytes,
    stage_extras,
)
from assay.scheduler.planner._partition import PartitionProblem, balanced_partition, partition_dp
from assay.scheduler.planner._plan import NoFeasibleLayout, Plan

MICRO_BATCH_SIZES = tuple(range(1, 9))
FIXABLE = ("dp", "tp", "pp", "micro_batch_size", "recompute", "zero1", "stage_layers")
RUNNER_UPS = 5

Candidate = tuple[Layout, StepEstimate]


def plan_layout(
    model: ModelSpec,
    workers: int,
    cluster: Cluster,
    global_batch: int,
    *,
    recompute: bool | None = None,
    max_tp: int | None = None,
    fixed: Mapping[str, Any] | None = None,
    cost_model: CostModel | None = None,
    micro_batch_sizes: Sequence[int] = MICRO_BATCH_SIZES,
) -> Plan:
    """The fastest layout of ``model`` on ``workers`` devices of ``cluster`` for ``global_batch``.

    ``recompute`` None tries both; ``max_tp`` caps tensor parallelism; ``fixed`` pins any of
    dp, tp, pp, micro_batch_size, recompute, zero1, stage_layers. Raises ``NoFeasibleLayout`` (a
    ``ValueError``) with the reason when no layout fits."""
    fixed = dict(fixed or {})
    unknown = sorted(set(fixed) - set(FIXABLE))
    if unknown:
        raise ValueError(f"unknown fixed keys {unknown}; valid: {', '.join(FIXABLE)}")
    if recompute is not None:
        fixed.setdefault("recompute", recompute)
    if workers < 1 or global_batch < 1:
        raise NoFeasibleLayout(f"workers ({workers}) and global batch ({global_batch}) must be at least 1")
    if cluster.total_devices is not None and workers > cluster.total_devices:
        raise NoFeasibleLayout(f"{workers} workers asked for, cluster {cluster.name} has {cluster.total_devices}")
    cost_model = cost_model or CostModel.default()
    params = cost_model.params_for(cluster)
    found, evaluated = _search(model, workers, cluster, global_batch, params, fixed, max_tp,
                               micro_batch_sizes, within_node=True)
    if not found and "tp" not in fixed:
        more, n = _search(model, workers, cluster, global_batch, params, fixed, max_tp, micro_batch_sizes,
                          within_node=False)
        found, evaluated = more, evaluated + n
    if not found:
        raise NoFeasibleLayout(_why_nothing(model, workers, cluster, global_batch, fixed, max_tp))
    return _to_plan(model, workers, cluster, found, evaluated)


def plan_up_to(
    model: ModelSpec,
    max_workers: int,
    cluster: Cluster,
    global_batch: int,
    *,
    min_workers: int = 1,
    cost_model: CostModel | None = None,
    **options: Any,
) -> Plan:
    """The plan with the highest throughput using between ``min_workers`` and ``max_workers`` workers, for
    a resize where not every count splits the batch (5 workers and a batch of 32: use 4). A count within
    1 % of the best throughput with fewer workers wins. Plans each count, so meant for tens of workers."""
    plans: list[Plan] = []
    reasons: list[str] = []
    for w in range(max_workers, min_workers - 1, -1):
        try:
            plans.append(plan_layout(model, w, cluster, global_batch, cost_model=cost_model, **options))
        except NoFeasibleLayout as exc:
            reasons.append(f"{w} workers: {exc}")
    if not plans:
        raise NoFeasibleLayout(f"no worker count in {min_workers}..{max_workers} has a layout ({reasons[0]})")
    fastest = max(p.tokens_per_s for p in plans)
    return min((p for p in plans if p.tokens_per_s >= 0.99 * fastest), key=lambda p: p.workers)


def _to_plan(model: ModelSpec, workers: int, cluster: Cluster, found: list[Candidate], evaluated: int) -> Plan:
    found.sort(key=_rank)
    best_layout, best_est = found[0]
    seen = {(best_layout.dp, best_layout.tp, best_layout.pp)}
    runner_ups = []
    for layout, est in found[1:]:
        key = (layout.dp, layout.tp, layout.pp)
        if key in seen:
            continue
        seen.add(key)
        runner_ups.append(Plan(model.name, cluster.name, workers, layout, est))
        if len(runner_ups) == RUNNER_UPS:
            break
    return Plan(model.name, cluster.name, workers, best_layout, best_est, tuple(runner_ups), evaluated)


def _rank(c: Candidate) -> tuple:
    layout, est = c
    return (round(est.step_time_s, 12), est.memory_bytes, layout.pp, layout.tp, layout.micro_batch_size)


def _search(model: ModelSpec, workers: int, cluster: Cluster, global_batch: int, params: CostParams,
            fixed: Mapping[str, Any], max_tp: int | None, micro_batch_sizes: Sequence[int],
            within_node: bool) -> tuple[list[Candidate], int]:
    cl = cluster.for_workers(workers)
    found: list[Candidate] = []
    evaluated = 0
    recomputes = [bool(fixed["recompute"])] if "recompute" in fixed else [False, True]
    zero1 = bool(fixed.get("zero1", False))
    sizes = [int(fixed["micro_batch_size"])] if "micro_batch_size" in fixed else sorted(micro_batch_sizes)
    stage_layers = tuple(fixed["stage_layers"]) if fixed.get("stage_layers") else None
    for tp in tp_candidates(model, workers, cl, max_tp, within_node=within_node):
        if "tp" in fixed and tp != int(fixed["tp"]):
            continue
        for pp in _divisors(workers // tp):
            if pp > model.layers or ("pp" in fixed and pp != int(fixed["pp"])):
                continue
            dp = workers // (tp * pp)
            if ("dp" in fixed and dp != int(fixed["dp"])) or global_batch % dp:
                continue
            if stage_layers is not None and len(stage_layers) != pp:
                continue
            if _state_lower_bound(model, cl, tp, pp, dp, zero1) > cl.usable_memory_bytes:
                continue
            for rc in recomputes:
                for b in sizes:
                    if (global_batch // dp) % b:
                        continue
                    evaluated += 1
                    got = evaluate(model, cl, params, dp, tp, pp, b, global_batch, rc, zero1, stage_layers)
                    if got is None:
                        break  # a larger micro-batch needs more memory still
                    found.append(got)
    return found, evaluated


def evaluate(model: ModelSpec, cluster: Cluster, params: CostParams, dp: int, tp: int, pp: int, b: int,
             global_batch: int, recompute: bool, zero1: bool = False,
             stage_layers: tuple[int, ...] | None = None, *, exact: bool = False) -> Candidate | None:
    """The layout with its balanced stage partition and estimate, or None when it does not fit."""
    if stage_layers is None:
        problem = partition_problem(model, cluster, params, dp, tp, pp, b, global_batch, recompute, zero1)
        stage_layers = partition_dp(problem) if exact else balanced_partition(problem)
        if stage_layers is None:
            return None
    layout = Layout(dp, tp, pp, b, global_batch, recompute, zero1, tuple(stage_layers))
    if layout.problems(model):
        return None
    est = estimate_step(model, layout, cluster, params)
    return (layout, est) if est.fits else None


def partition_problem(model: ModelSpec, cluster: Cluster, params: CostParams, dp: int, tp: int, pp: int,
                      b: int, global_batch: int, recompute: bool, zero1: bool) -> PartitionProblem:
    rates = Rates.of(params)
    cl = cluster.for_workers(dp * tp * pp)
    layer = layer_costs(model, cl, rates, tp, dp, b, recompute, zero1)
    extra = stage_extras(model, cl, rates, dp, tp, pp, b)
    per_layer = layer.fwd + layer.bwd + layer.tp_fwd + layer.tp_bwd
    m = global_batch // (dp * b)
    costs = model.costs
    return PartitionProblem(
        layer_time=tuple(c * per_layer for c in costs),
        layer_state=tuple(c * layer.params * layer.bytes_per_param for c in costs),
        layer_act=tuple(c * layer.act_bytes_stored for c in costs),
        layer_work=tuple((c * layer.act_bytes_full if recompute else 0.0) for c in costs),
        in_flight=tuple(min(pp - j, m) for j in range(pp)),
        limit=cl.usable_memory_bytes,
        first_time=extra.embed_tp,
        last_time=extra.logit_fwd + extra.logit_bwd,
        first_bytes=extra.first_params * layer.bytes_per_param,
        last_bytes=extra.last_params * layer.bytes_per_param + extra.last_act_bytes,
    )


def tp_candidates(model: ModelSpec, workers: int, cluster: Cluster, max_tp: int | None = None, *,
                  within_node: bool = True) -> list[int]:
    """Powers of two dividing heads, hidden, feed-forward width and ``workers``; inside a node, or (with
    ``within_node`` False) only the ones beyond it."""
    node = cluster.devices_per_node
    out = []
    t = 1
    while t <= workers:
        if (model.heads % t == 0 and model.hidden % t == 0 and model.ffn_hidden % t == 0 and workers % t == 0
                and (max_tp is None or t <= max_tp) and ((t <= node) == within_node)):
            out.append(t)
        t *= 2
    return out


def _state_lower_bound(model: ModelSpec, cluster: Cluster, tp: int, pp: int, dp: int, zero1: bool) -> float:
    """Model-state bytes per device if the layers split perfectly: no layout of this (tp, pp) needs less."""
    act, state_bytes = precision_bytes(cluster)
    per_param = 2 * act + (state_bytes - 2 * act) / (dp if zero1 else 1)
    return model.num_params * per_param / (tp * pp)


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


def _why_nothing(model: ModelSpec, workers: int, cluster: Cluster, global_batch: int,
                 fixed: Mapping[str, Any], max_tp: int | None) -> str:
    cl = cluster.for_workers(workers)
    what = f"{model.name} on {workers} x {cluster.name}"
    if fixed:
        return f"no layout of {what} satisfies fixed={dict(fixed)} (max_tp={max_tp}) and fits in memory"
    dps = {workers // (tp * pp) for tp in tp_candidates(model, workers, cl, max_tp)
           + tp_candidates(model, workers, cl, max_tp, within_node=False)
           for pp in _divisors(workers // tp) if pp <= model.layers}
    if dps and all(global_batch % d for d in dps):
        return (f"global batch {global_batch} is not divisible by any possible data-parallel size "
                f"{sorted(dps)} of {what}; use a multiple of one of them")
    _, state_bytes = precision_bytes(cl)
    needed = math.ceil(model.num_params * state_bytes / max(cl.usable_memory_bytes, 1.0))
    return (f"{what} does not fit in memory ({cl.device_memory_gb:g} GB per device): the model state alone "
            f"needs at least {needed} devices")


def search_exhaustive(model: ModelSpec, workers: int, cluster: Cluster, global_batch: int, *,
                      cost_model: CostModel | None = None,
                      micro_batch_sizes: Iterable[int] = MICRO_BATCH_SIZES) -> tuple[list[Candidate], int]:
    """The obvious alternative, for comparison: every tp dividing the heads (any size, any node span),
    every pp, micro-batch and recomputation setting, each partitioned by the full dynamic programme,
    no pruning. Returns the layouts that fit, fastest first, and the number evaluated."""
    params = (cost_model or CostModel.default()).params_for(cluster)
    cl = cluster.for_workers(workers)
    found: list[Candidate] = []
    evaluated = 0
    for tp in _divisors(workers):
        if model.heads % tp or model.hidden % tp or model.ffn_hidden % tp:
            continue
        for pp in _divisors(workers // tp):
            dp = workers // (tp * pp)
            if pp > model.layers or global_batch % dp:
                continue
            for rc in (False, True):
                for b in micro_batch_sizes:
                    if (global_batch // dp) % b:
                        continue
                    evaluated += 1
                    got = evaluate(model, cl, params, dp, tp, pp, b, global_batch, rc, exact=True)
                    if got is not None:
                        found.append(got)
    found.sort(key=_rank)
    return found, evaluated
