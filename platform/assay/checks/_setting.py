"""A claim row read as the question a check answers: which quantity, which direction, which ratio or value,
on which model, hardware and layout. Only the structured columns the extractor wrote are used; text is never
re-parsed."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from assay.scheduler.cluster import Cluster, find_cluster
from assay.scheduler.model_spec import PRESETS, ModelSpec, find_model

#: Quantities a check can measure or predict, with whether a larger value is better.
CHECKABLE: dict[str, bool] = {
    "throughput": True,
    "tflops": True,
    "mfu": True,
    "scaling_efficiency": True,
    "step_time": False,
    "latency": False,
    "memory": False,
}
#: The claims' ``metric`` words for the same quantities, for rows written before ``measure`` existed.
_METRIC_WORDS: tuple[tuple[str, str], ...] = (
    ("scaling efficiency", "scaling_efficiency"),
    ("utilization", "mfu"),
    ("throughput", "throughput"),
    ("speedup", "throughput"),
    ("memory", "memory"),
    ("latency", "latency"),
    ("time", "step_time"),
)
_PETA = ("peta", "pflop")
_EXA = ("exa", "eflop")
# GPT-3's family keeps hidden / layers near 128 (Brown et al. 2020, Table 2.1): the shape assumed for a
# model known only by its size.
_HIDDEN_PER_LAYER = 128
_VOCAB = 51200


@dataclass(frozen=True)
class ClaimSetting:
    """The parts of a claim row a check needs."""

    claim_id: str
    subject: str | None
    versus: str | None
    metric: str | None
    measure: str | None
    higher_is_better: bool
    unit: str | None
    value: float | None
    qualifier: str | None
    hardware: str | None
    gpus: int | None
    nodes: int | None
    model: str | None
    params_b: float | None
    seq_len: int | None
    dp: int | None
    tp: int | None
    pp: int | None
    micro_batch: int | None
    global_batch: int | None
    text: str | None = None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> ClaimSetting:
        get = {k: _clean(v) for k, v in row.items()}.get
        measure = get("measure") or measure_of_metric(get("metric"))
        direction = get("direction")
        higher = direction != "lower" if direction else CHECKABLE.get(measure or "", True)
        value = get("value")
        if value is None and get("value_low") is not None and get("value_high") is not None:
            value = (get("value_low") + get("value_high")) / 2
        return cls(
            # a statement that names no baseline is checked against the one the paper implies for it
            claim_id=str(get("claim_id")), subject=get("subject"), versus=get("versus") or get("implied_versus"),
            metric=get("metric"),
            measure=measure, higher_is_better=higher, unit=get("unit"), value=value, qualifier=get("qualifier"),
            hardware=get("hardware"), gpus=_int(get("gpus")), nodes=_int(get("nodes")), model=get("model"),
            params_b=get("params_b"), seq_len=_int(get("seq_len")), dp=_int(get("dp")), tp=_int(get("tp")),
            pp=_int(get("pp")), micro_batch=_int(get("micro_batch")), global_batch=_int(get("global_batch")),
            text=get("text"),
        )

    # -- what is claimed ---------------------------------------------------------------------------------
    @property
    def checkable(self) -> bool:
        return self.measure in CHECKABLE

    @property
    def relative(self) -> bool:
        """A comparison with a baseline, stated as a ratio ("1.42x over X", "37% less time than X")."""
        return bool(self.versus) and self.unit in ("x", "%")

    def claimed_ratio(self) -> float | None:
        """The claim as the better side over the worse: "1.42x faster" 1.42, "37% higher" 1.37, "37% less
        time" 1 / 0.63 = 1.59. None when the number is not a comparison."""
        if self.value is None or self.value <= 0:
            return None
        if self.unit == "x":
            return float(self.value)
        if self.unit != "%":
            return None
        if self.higher_is_better:
            return 1 + self.value / 100
        return 1 / (1 - self.value / 100) if self.value < 100 else None

    def per_device_tflops(self) -> float | None:
        """A FLOP-rate claim as TFLOP/s per device (an aggregate PFLOP/s or EFLOP/s divided by the devices)."""
        if self.measure != "tflops" or self.value is None:
            return None
        unit = (self.unit or "").casefold()
        if any(w in unit for w in _PETA + _EXA):
            workers = self.workers
            if not workers:
                return None
            scale = 1e3 if any(w in unit for w in _PETA) else 1e6
            return self.value * scale / workers
        if "gflop" in unit or "giga" in unit:
            return self.value / 1e3
        return float(self.value)

    # -- where it was measured ---------------------------------------------------------------------------
    @property
    def workers(self) -> int | None:
        if self.gpus:
            return self.gpus
        if self.dp and self.tp and self.pp:
            return self.dp * self.tp * self.pp
        return None

    def cluster(self) -> Cluster | None:
        return find_cluster(self.hardware)

    def model_spec(self) -> tuple[ModelSpec | None, str]:
        """The model the claim is about and how it was found ("preset", "by size", "GPT shape of 13B"), or
        None and why not."""
        named = find_model(self.model) if self.model else None
        if named is None and self.model:
            named = find_model(self.model.replace(" ", "-"))
        if named is not None:
            return self._with_seq(named), f"preset {named.name}"
        if not self.params_b:
            return None, "the claim names no model size"
        near = min(PRESETS.values(), key=lambda m: abs(math.log(m.num_params / (self.params_b * 1e9))))
        if abs(near.num_params / (self.params_b * 1e9) - 1) <= 0.1:
            return self._with_seq(near), f"preset {near.name} (within 10% of {self.params_b:g}B)"
        return self._with_seq(gpt_of_size(self.params_b)), f"a GPT-3-shaped {self.params_b:g}B model"

    def _with_seq(self, spec: ModelSpec) -> ModelSpec:
        if self.seq_len and self.seq_len != spec.seq_len:
            return ModelSpec.from_dict({**spec.to_dict(), "seq_len": self.seq_len}, name=spec.name)
        return spec


def gpt_of_size(params_b: float) -> ModelSpec:
    """A GPT with about ``params_b`` billion parameters in GPT-3's proportions (12 l h^2 with h near 128 l),
    the width a multiple of 512 with 64-wide heads, so the usual tensor-parallel degrees divide it."""
    params = params_b * 1e9
    layers = (params / (12 * _HIDDEN_PER_LAYER**2)) ** (1 / 3)
    hidden = max(512, round(_HIDDEN_PER_LAYER * layers / 512) * 512)
    layers = max(2, round((params - _VOCAB * hidden) / (12 * hidden**2)))  # less the embedding
    return ModelSpec(f"gpt-{params_b:g}b", layers=layers, hidden=hidden, heads=hidden // 64, seq_len=2048,
                     vocab=_VOCAB, default_global_batch=512, source="assumed GPT-3 proportions (Brown et al. 2020)")


def measure_of_metric(metric: str | None) -> str | None:
    text = (metric or "").casefold()
    return next((m for word, m in _METRIC_WORDS if word in text), None)


def _clean(v: Any) -> Any:
    if v is None:
        return None
    try:
        if v != v:  # NaN from pandas
            return None
    except (TypeError, ValueError):
        return v
    return v


def _int(v: Any) -> int | None:
    try:
        return int(v) if v is not None else None
    except (TypeError, ValueError):
        return None


_PARALLEL = (
    ("pp", re.compile(r"\bpipeline[- ]parallel|\bPP\b|流水线并行", re.I)),
    ("tp", re.compile(r"\btensor[- ]parallel|\bmodel[- ]parallel|\bTP\b|张量并行", re.I)),
    ("dp", re.compile(r"\bdata[- ]parallel|\bDDP\b|\bDP\b|数据并行", re.I)),
)
_DEGREE = re.compile(r"\b(dp|tp|pp)\s*[=:]?\s*(\d+)", re.I)


def layout_of_side(name: str | None, workers: int | None) -> dict[str, int] | None:
    """The layout a side of a layout comparison names ("pipeline parallelism" on 4 workers: pp 4; "TP=2,
    PP=2": tp 2, pp 2), filled to ``workers`` with data parallelism; None when the side is not a layout."""
    if not name:
        return None
    degrees = {k.lower(): int(v) for k, v in _DEGREE.findall(name)}
    if not degrees:
        kinds = [k for k, pattern in _PARALLEL if pattern.search(name)]
        if len(kinds) != 1 or not workers:
            return None
        degrees = {kinds[0]: workers}
    layout = {"dp": degrees.get("dp", 1), "tp": degrees.get("tp", 1), "pp": degrees.get("pp", 1)}
    if workers and "dp" not in degrees and workers % (layout["tp"] * layout["pp"]) == 0:
        layout["dp"] = workers // (layout["tp"] * layout["pp"])
    return layout


def layout_sides(setting: ClaimSetting) -> tuple[dict[str, int], dict[str, int]] | None:
    """Both sides of a claim that compares two parallel layouts of one model (subject vs baseline), or None."""
    subject = layout_of_side(setting.subject, setting.workers)
    baseline = layout_of_side(setting.versus, setting.workers)
    if subject is None or baseline is None or subject == baseline:
        return None
    return subject, baseline
