"""``Plan``: the layout the planner chose, what the cost model predicts for it, and the runner-ups."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assay.domain.layout import Layout
from assay.errors import AssayError
from assay.scheduler.cost_model import StepEstimate


class NoFeasibleLayout(AssayError, ValueError):
    """No layout of the model fits the workers (memory, divisibility, or the ``fixed`` constraints)."""

    code = "E070"


@dataclass(frozen=True)
class Plan:
    model: str
    cluster: str
    workers: int
    layout: Layout
    estimate: StepEstimate
    runner_ups: tuple[Plan, ...] = ()
    candidates: int = 0  # layouts the search evaluated

    @property
    def dp(self) -> int:
        return self.layout.dp

    @property
    def tp(self) -> int:
        return self.layout.tp

    @property
    def pp(self) -> int:
        return self.layout.pp

    @property
    def micro_batch_size(self) -> int:
        return self.layout.micro_batch_size

    @property
    def num_micro_batches(self) -> int:
        """Micro-batches per step on each data-parallel rank: its gradient accumulation steps."""
        return self.layout.num_micro_batches

    @property
    def grad_accum(self) -> int:
        return self.layout.num_micro_batches

    @property
    def recompute(self) -> bool:
        return self.layout.recompute

    @property
    def stage_layers(self) -> tuple[int, ...]:
        return self.layout.stage_layers or ()

    @property
    def step_time_s(self) -> float:
        return self.estimate.step_time_s

    @property
    def tokens_per_s(self) -> float:
        return self.estimate.tokens_per_s

    @property
    def tflops_per_device(self) -> float:
        return self.estimate.tflops_per_device

    @property
    def memory_gb(self) -> float:
        return self.estimate.memory_bytes / 1e9

    def describe(self) -> str:
        return (f"dp={self.dp} tp={self.tp} pp={self.pp} micro-batch={self.micro_batch_size} "
                f"x{self.num_micro_batches} recompute={'on' if self.recompute else 'off'}")

    def to_dict(self, *, runner_ups: bool = True) -> dict[str, Any]:
        """JSON-ready (the ``plan`` column of ``jobs`` and ``allocations``)."""
        e = self.estimate
        out: dict[str, Any] = {
            "model": self.model, "cluster": self.cluster, "workers": self.workers,
            "dp": self.dp, "tp": self.tp, "pp": self.pp, "micro_batch_size": self.micro_batch_size,
            "num_micro_batches": self.num_micro_batches, "global_batch": self.layout.global_batch,
            "recompute": self.recompute, "zero1": self.layout.zero1, "stage_layers": list(self.stage_layers),
            "step_time_s": e.step_time_s, "tokens_per_s": e.tokens_per_s,
            "tflops_per_device": e.tflops_per_device, "model_tflops_per_device": e.model_tflops_per_device,
            "memory_gb": self.memory_gb, "memory_limit_gb": e.memory_limit_bytes / 1e9,
            "breakdown_s": {"compute": e.compute_s, "bubble": e.bubble_s, "tp_comm": e.tp_comm_s,
                            "pp_comm": e.pp_comm_s, "dp_comm": e.dp_comm_s, "optimizer": e.optimizer_s,
                            "overhead": e.overhead_s},
            "candidates": self.candidates,
        }
        if runner_ups:
            out["runner_ups"] = [p.to_dict(runner_ups=False) for p in self.runner_ups]
        return out
