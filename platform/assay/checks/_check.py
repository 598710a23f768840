"""One piece of evidence about one claim: what was claimed, what the evidence says, the verdict and why."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from assay.clock import utc_now
from assay.ids import stable_id
from assay.store.queries_checks import CHECK_KINDS, VERDICTS

Kind = Literal["runs", "cost_model", "reproduction"]
Verdict = Literal["consistent", "contradicted", "implausible", "inconclusive", "untestable"]


@dataclass
class Check:
    """The verdict of one kind of evidence on one claim.

    ``claimed`` and ``observed`` are in the same terms: a ratio of the better side to the worse for a
    relative claim (1.42 for "1.42x faster", 1.59 for "37% less time"), the claim's own unit otherwise
    (TFLOP/s per device, %, GB). ``low``/``high`` are the spread of what was observed (the per-setting
    ratios of matching runs, the model's tolerance band).
    """

    claim_id: str
    kind: Kind
    verdict: Verdict
    reason: str
    claimed: float | None = None
    observed: float | None = None
    low: float | None = None
    high: float | None = None
    unit: str | None = None
    evidence: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in CHECK_KINDS:
            raise ValueError(f"kind must be one of {', '.join(CHECK_KINDS)}, not {self.kind!r}")
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, not {self.verdict!r}")

    @property
    def check_id(self) -> str:
        # One row per claim and kind: a new check of the same kind replaces the last.
        return stable_id("claim_check", self.claim_id, self.kind)

    def row(self, at: datetime | None = None) -> dict[str, Any]:
        return {
            "check_id": self.check_id,
            "claim_id": self.claim_id,
            "kind": self.kind,
            "verdict": self.verdict,
            "claimed": _finite(self.claimed),
            "observed": _finite(self.observed),
            "low": _finite(self.low),
            "high": _finite(self.high),
            "unit": self.unit,
            "reason": self.reason,
            "evidence": json.dumps(self.evidence, sort_keys=True, default=str),
            "checked_at": at or utc_now(),
        }


def untestable(claim_id: str, kind: Kind, reason: str, **evidence: Any) -> Check:
    return Check(claim_id, kind, "untestable", reason, evidence=dict(evidence))


def _finite(x: float | None) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None
