"""Step time and memory per device of a training job under a parallel layout (dp, tp, pp, micro-batch,
recomputation, stage boundaries) on a cluster.

Time per micro-batch per layer = matrix FLOPs / (peak * flop_fraction) + bytes the element-wise kernels
and weight reads move / (memory bandwidth * mem_bw_fraction) + a fixed per-layer overhead, plus the
tensor-parallel all-reduces (2 per layer per forward, 2 per backward, 2 more when recomputing). Stages
run 1F1B (or GPipe: the same bubble): ``(m - 1) * slowest stage + sum of stages``, i.e. a bubble of
(p - 1) / m for even stages. The gradient all-reduce over data-parallel ranks follows, minus what
``overlap`` hides behind the last backward, then the optimizer step (memory bound).

Memory per device (Korthikanti et al., 2022, "Reducing Activation Recomputation in Large Transformer
Models"): 16 bytes per parameter for mixed-precision Adam (half-precision weights and gradients, float32
master weights and two moments), the optimizer's 12 sharded over data-parallel ranks with ZeRO-1; per
layer and micro-batch ``s b h (10 + 24/t + 5 a s / (h t))`` bytes of activations without
recomputation, ``2 s b h`` (the layer input) with it; stage ``i`` of ``p`` keeps ``p - i`` micro-batches
in flight under 1F1B.

Every time below is linear in ``Rates`` (1 / each efficiency, the latency scale, the overheads); the
``max`` over stages and the all-reduce overlap are applied last, in ``combine``. The fit relies on it:
it computes each run's coefficients once and evaluates thousands of parameter vectors as matrix products.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from assay.scheduler.cluster import Cluster
from assay.scheduler.cost_model._collectives import allreduce_time, group_link, p2p_time
from assay.scheduler.cost_model._params import CostParams
from assay.scheduler.layout import Layout
from assay.scheduler.model_spec import ModelSpec


@dataclass(frozen=True)
class StepEstimate:
    """Predicted step of one layout. Times in seconds, memory in bytes per device."""

    step_time_s: float
    compute_s: float  # busy time of the slowest stage over all micro-batches, communication excluded
    bubble_s: float
    tp_comm_s: float
    pp_comm_s: float
    dp_comm_s: float  # the part of the gradient all-reduce not hidden
    optimizer_s: float
    overhead_s: float
    stage_times_s: tuple[float, ...]  # forward + backward of one micro-batch, per stage
    stage_memory_bytes: tuple[float, ...]
    memory_limit_bytes: float
    tokens_per_s: float
    tflops_per_device: float  # FLOPs executed (recomputation included) per device
    model_tflops_per_device: float  # FLOPs of the model without recomputation (MFU's numerator)

    @property
    def memory_bytes(self) -> float:
        return max(self.stage_memory_bytes)

    @property
    def fits(self) -> bool:
        return self.memory_bytes <= self.memory_limit_bytes

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["stage_times_s"] = list(self.stage_times_s)
        out["stage_memory_bytes"] = list(self.stage_memory_bytes)
        out["memory_bytes"] = self.memory_bytes
        out["fits"] = self.fits
        return out


@dataclass(frozen=True)
class Rates:
    """The fitted constants in the form times are linear in. Fields are floats, or coefficient vectors
    when the fit extracts a run's linear form."""

    inv_flop: Any  # 1 / flop_fraction
    inv_mem: Any  # 1 / mem_bw_fraction
    inv_intra: Any  # 1 / intra_bw_eff
    inv_inter: Any  # 1 / inter_bw_eff
    latency: Any  # latency_scale
    layer_overhead: Any
    step_overhead: Any

    @classmethod
    def of(cls, p: CostParams) -> Rates:
        return cls(1 / p.flop_fraction, 1 / p.mem_bw_fraction, 1 / p.intra_bw_eff, 1 / p.inter_bw_eff,
                   p.latency_scale, p.layer_overhead_s, p.step_overhead_s)

    def inverse_bw(self, limit: str) -> Any:
        return self.inv_intra if limit == "intra" else self.inv_inter


@dataclass(frozen=True)
class StageTerms:
    """A layout's times per stage (linear in ``Rates``) and its memory (independent of them)."""

    fwd: list[Any]  # one micro-batch, per stage
    bwd: list[Any]
    compute: list[Any]  # of which computation (per micro-batch)
    tp_comm: list[Any]
    hop: Any  # one stage-to-stage transfer
    dp_allreduce: list[Any]  # gradient all-reduce per stage
    optimizer: Any
    step_overhead: Any
    micro_batches: int
    memory: tuple[float, ...]
    memory_limit: float


def even_stages(layers: int, pp: int) -> tuple[int, ...]:
    """Layers per stage as even as possible, the extra layers on the first stages."""
    base, extra = divmod(layers, pp)
    return tuple(base + (1 if i < extra else 0) for i in range(pp))


def precision_bytes(cluster: Cluster) -> tuple[int, float]:
    """(bytes per activation element, bytes per parameter of model state) for the device's precision:
    GPUs train in mixed precision (2; 2 + 2 + 12), CPUs in float32 (4; 4 + 4 + 8)."""
    return (4, 16.0) if cluster.device_kind == "cpu" else (2, 16.0)


@dataclass(frozen=True)
class LayerCosts:
    """Times and memory of one standard layer (cost 1.0) for one micro-batch on one device."""

    fwd: Any
    bwd: Any  # includes the recomputed forward when recomputing
    tp_fwd: Any
    tp_bwd: Any
    act_bytes_stored: float  # kept per micro-batch in flight
    act_bytes_full: float  # all activations of the layer (working set while recomputing)
    params: float  # parameters on this device
    bytes_per_param: float  # model state per parameter on this device


def layer_costs(model: ModelSpec, cluster: Cluster, rates: Rates, tp: int, dp: int, b: int, recompute: bool,
                zero1: bool) -> LayerCosts:
    s, h, f, a = model.seq_len, model.hidden, model.ffn_hidden, model.heads
    act, state_bytes = precision_bytes(cluster)
    tokens = b * s
    flop_time = tokens * model.layer_forward_flops_per_token / tp / cluster.peak_flops * rates.inv_flop
    # Element-wise traffic of one forward per token, in elements: two layer norms (2h each, replicated
    # across tensor-parallel ranks), two bias-dropout-residual adds (3.5h each), bias + GeLU (2f/t), and
    # scores/softmax/dropout/mask over the a s attention matrix (6 a s / t). Plus one read of the weights.
    elements = tokens * (11 * h + 2 * f / tp + 6 * a * s / tp)
    weights = model.params_per_layer / tp * act
    byte_time = (elements * act + weights) / cluster.mem_bw * rates.inv_mem
    fwd = flop_time + byte_time + rates.layer_overhead
    bwd = 2 * flop_time + 2 * byte_time + 2 * rates.layer_overhead
    allreduce = allreduce_time(tokens * h * act, tp, group_link(cluster, tp, 1), rates)
    tp_fwd, tp_bwd = 2 * allreduce, 2 * allreduce
    if recompute:
        bwd = bwd + fwd
        tp_bwd = tp_bwd + tp_fwd
    scale = act / 2  # Korthikanti's counts are for 2-byte activations
    full = s * b * h * (10 + 24 / tp + 5 * a * s / (h * tp)) * scale
    stored = s * b * h * act if recompute else full
    optimizer_share = state_bytes - 2 * act  # 12 bytes mixed precision, 8 float32
    per_param = 2 * act + (optimizer_share / dp if zero1 else optimizer_share)
    return LayerCosts(fwd, bwd, tp_fwd, tp_bwd, stored, full, model.params_per_layer / tp, per_param)


@dataclass(frozen=True)
class StageExtras:
    """What the first and last stages add to their layers, and the stage-to-stage transfer."""

    embed_tp: Any  # vocabulary-parallel embedding all-reduce (first stage, forward)
    logit_fwd: Any  # output layer and cross-entropy in float32 (last stage)
    logit_bwd: Any
    hop: Any  # one activation transfer between neighbouring stages
    first_params: float  # token and position embeddings, per device
    last_params: float  # the tied output embedding's copy when pp > 1, per device
    last_act_bytes: float  # float32 logits of one micro-batch


def stage_extras(model: ModelSpec, cluster: Cluster, rates: Rates, dp: int, tp: int, pp: int, b: int
                 ) -> StageExtras:
    s, h, v = model.seq_len, model.hidden, model.vocab
    act, _ = precision_bytes(cluster)
    logit_flop = b * s * model.logit_forward_flops_per_token / tp / cluster.peak_flops * rates.inv_flop
    logit_bytes = b * s * v / tp * 4 * 3 / cluster.mem_bw * rates.inv_mem
    embed_tp = allreduce_time(b * s * h * act, tp, group_link(cluster, tp, 1), rates)
    # Across nodes each tensor-parallel rank sends 1/t of the activations (Megatron's scatter/gather).
    pp_link = group_link(cluster, pp, tp * dp)
    boundary = b * s * h * act / (tp if pp_link.crosses_nodes else 1)
    hop = p2p_time(boundary, pp_link, rates) if pp > 1 else 0.0
    return StageExtras(embed_tp, logit_flop + logit_bytes, 2 * logit_flop + logit_bytes, hop,
                       model.embedding_params / tp, v * h / tp if pp > 1 else 0.0, 4 * s * b * v / tp)


def stage_terms(model: ModelSpec, layout: Layout, cluster: Cluster, rates: Rates) -> StageTerms:
    """The layout's per-stage times (linear in ``rates``) and memory. The layout must be valid."""
    problems = layout.problems(model)
    if problems:
        raise ValueError("; ".join(problems))
    cluster = cluster.for_workers(layout.world_size)
    dp, tp, pp, b = layout.dp, layout.tp, layout.pp, layout.micro_batch_size
    m = layout.num_micro_batches
    act, _ = precision_bytes(cluster)
    layer = layer_costs(model, cluster, rates, tp, dp, b, layout.recompute, layout.zero1)
    extra = stage_extras(model, cluster, rates, dp, tp, pp, b)

    stages = layout.stage_layers or even_stages(model.layers, pp)
    costs = model.costs
    bounds = [0]
    for n in stages:
        bounds.append(bounds[-1] + n)
    stage_cost = [sum(costs[bounds[i]:bounds[i + 1]]) for i in range(pp)]
    stage_max_cost = [max(costs[bounds[i]:bounds[i + 1]]) for i in range(pp)]

    fwd, bwd, compute, tp_comm, params_on = [], [], [], [], []
    for i in range(pp):
        c = stage_cost[i]
        f_i = c * layer.fwd + c * layer.tp_fwd + extra.hop
        b_i = c * layer.bwd + c * layer.tp_bwd + extra.hop
        comp = c * (layer.fwd + layer.bwd)
        tpc = c * (layer.tp_fwd + layer.tp_bwd)
        p_i = c * layer.params
        if i == 0:
            f_i = f_i + extra.embed_tp
            tpc = tpc + extra.embed_tp
            p_i += extra.first_params
        if i == pp - 1:
            f_i = f_i + extra.logit_fwd
            b_i = b_i + extra.logit_bwd
            comp = comp + extra.logit_fwd + extra.logit_bwd
            p_i += extra.last_params
        fwd.append(f_i)
        bwd.append(b_i)
        compute.append(comp)
        tp_comm.append(tpc)
        params_on.append(p_i)

    dp_link = group_link(cluster, dp, tp)
    dp_allreduce = [allreduce_time(p * act, dp, dp_link, rates) for p in params_on]
    # Adam reads weights, gradients and two moments and writes three of them back: ~28 bytes/param.
    opt_params = max(params_on) / (dp if layout.zero1 else 1)
    optimizer = opt_params * 28 / cluster.mem_bw * rates.inv_mem

    memory = []
    for i in range(pp):
        mem = params_on[i] * layer.bytes_per_param + min(pp - i, m) * stage_cost[i] * layer.act_bytes_stored
        if layout.recompute:
            mem += stage_max_cost[i] * layer.act_bytes_full
        if i == pp - 1:
            mem += extra.last_act_bytes
        memory.append(mem)
    return StageTerms(fwd, bwd, compute, tp_comm, extra.hop, dp_allreduce, optimizer, rates.step_overhead, m,
                      tuple(memory), cluster.usable_memory_bytes)


def combine(t: StageTerms, overlap: float) -> tuple[float, int, float]:
    """(step time, slowest stage, exposed all-reduce) from float-valued terms."""
    per_mb = [f + b for f, b in zip(t.fwd, t.bwd, strict=True)]
    slowest = max(range(len(per_mb)), key=per_mb.__getitem__)
    pipeline = (t.micro_batches - 1) * per_mb[slowest] + sum(per_mb)
    exposed = max(max(0.0, d - overlap * b) for d, b in zip(t.dp_allreduce, t.bwd, strict=True))
    return pipeline + exposed + t.optimizer + t.step_overhead, slowest, exposed


def estimate_step(model: ModelSpec, layout: Layout, cluster: Cluster, params: CostParams) -> StepEstimate:
    """Predicted step time and memory of ``layout``. The layout must be valid (``layout.problems``)."""
    t = stage_terms(model, layout, cluster, Rates.of(params))
    step, slowest, exposed = combine(t, params.overlap)
    m = t.micro_batches
    per_mb = [f + b for f, b in zip(t.fwd, t.bwd, strict=True)]
    tokens = layout.global_batch * model.seq_len
    workers = layout.world_size
    flops = model.flops_per_step(layout.global_batch, recompute=layout.recompute)
    model_flops = model.flops_per_step(layout.global_batch, recompute=False)
    return StepEstimate(
        step_time_s=step,
        compute_s=m * t.compute[slowest],
        bubble_s=sum(per_mb) - per_mb[slowest],
        tp_comm_s=m * t.tp_comm[slowest],
        pp_comm_s=m * 2 * t.hop,
        dp_comm_s=exposed,
        optimizer_s=t.optimizer,
        overhead_s=t.step_overhead,
        stage_times_s=tuple(per_mb),
        stage_memory_bytes=t.memory,
        memory_limit_bytes=t.memory_limit,
        tokens_per_s=tokens / step,
        tflops_per_device=flops / step / workers / 1e12,
        model_tflops_per_device=model_flops / step / workers / 1e12,
    )
