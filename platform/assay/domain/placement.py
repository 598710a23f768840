"""Where a job runs right now: the layout, micro-batch and pipeline stage boundaries chosen for the workers
it got. Job control chooses it (``assay.jobs``, with the scheduler's planner) and records it as the plan of
an allocation; the training workers receive its parts.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from assay.domain.layout import Layout


@dataclass(frozen=True)
class Placement:
    """A runnable plan: the layout, micro-batch, stage boundaries (``pp + 1`` cut points or None for an
    even split), and where it came from (``spec``, ``planner`` or ``fallback``)."""

    layout: Layout
    micro_batch: int
    num_micro: int
    bounds: tuple[int, ...] | None = None
    predicted_step_ms: float | None = None
    source: str = "spec"

    @property
    def workers(self) -> int:
        return self.layout.world_size

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out.update(self.layout.degrees())
        out.pop("layout")
        out["bounds"] = list(self.bounds) if self.bounds else None
        out["workers"] = self.workers
        return out

    def describe(self) -> str:
        return f"{self.layout} micro_batch={self.micro_batch} x{self.num_micro}"
