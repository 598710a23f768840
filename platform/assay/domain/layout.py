"""The parallel layout of a training job: the one ``Layout`` of assay, used by job specs, the training
workload, the cost model, the planner and the checks.

A job spec fixes only the degrees (``dp * tp * pp`` workers); the cost model and the planner also need how
the global batch is split (``micro_batch_size``, ``global_batch``), whether activations are recomputed, ZeRO-1
and the pipeline's stage boundaries. Fields a caller leaves at their defaults are "not chosen": a layout
with ``micro_batch_size`` 0 is a valid job layout and says so in :meth:`Layout.problems` when estimated.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from assay.domain.model_spec import ModelSpec

#: The parallel degrees, as a job spec's ``parallel:`` mapping writes them.
DEGREES = ("dp", "tp", "pp")


@dataclass(frozen=True)
class Layout:
    """How a job is spread over ``dp * tp * pp`` workers, and how its global batch is split."""

    dp: int = 1
    tp: int = 1
    pp: int = 1
    micro_batch_size: int = 0  # 0: not chosen (a job picks it when it starts)
    global_batch: int = 0  # 0: not chosen (a job's spec holds it)
    recompute: bool = True
    zero1: bool = False
    stage_layers: tuple[int, ...] | None = None  # layers per pipeline stage; None = as even as possible

    @property
    def world_size(self) -> int:
        return self.dp * self.tp * self.pp

    @property
    def num_micro_batches(self) -> int:
        return self.global_batch // (self.dp * self.micro_batch_size)

    def degrees(self) -> dict[str, int]:
        """``{dp, tp, pp}``: what a job spec stores (its ``parallel:`` field) and a worker needs."""
        return {"dp": self.dp, "tp": self.tp, "pp": self.pp}

    def coords(self, rank: int) -> tuple[int, int, int]:
        """(dp_rank, pp_rank, tp_rank) of a global rank, tensor parallelism innermost, then pipeline, then
        data (Megatron's order): ``rank = (dp_rank * pp + pp_rank) * tp + tp_rank``."""
        return rank // (self.tp * self.pp), (rank // self.tp) % self.pp, rank % self.tp

    def __str__(self) -> str:
        return f"dp={self.dp} tp={self.tp} pp={self.pp}"

    def problems(self, model: ModelSpec) -> list[str]:
        """Why this layout cannot run ``model`` (empty when it can)."""
        out = [f"{n} must be at least 1" for n in ("dp", "tp", "pp", "micro_batch_size", "global_batch")
               if getattr(self, n) < 1]
        if out:
            return out
        if model.heads % self.tp or model.hidden % self.tp or model.ffn_hidden % self.tp:
            out.append(f"tp {self.tp} does not divide heads {model.heads} / hidden {model.hidden}")
        if self.pp > model.layers:
            out.append(f"pp {self.pp} exceeds the {model.layers} layers")
        if self.global_batch % (self.dp * self.micro_batch_size):
            out.append(f"global batch {self.global_batch} is not divisible by dp {self.dp} x micro-batch "
                       f"{self.micro_batch_size}")
        if self.stage_layers is not None and (
            len(self.stage_layers) != self.pp or sum(self.stage_layers) != model.layers
            or min(self.stage_layers) < 1
        ):
            out.append(f"stage_layers {list(self.stage_layers)} must be {self.pp} positive counts summing "
                       f"to {model.layers}")
        return out

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["stage_layers"] = list(self.stage_layers) if self.stage_layers else None
        out["num_micro_batches"] = self.num_micro_batches
        return out
