"""The scaled-down sweep a reproduction runs: which claims can be reproduced, and the job specs that put the
claim's two layouts side by side at a size this cluster can run.

Pure: nothing here touches Ray or the database, so the plan for a claim can be checked on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from assay.checks._setting import ClaimSetting, layout_of_side, layout_sides
from assay.errors import AssayError
from assay.jobs.spec import JobSpec, SpecError, from_dict
from assay.scheduler.layout import Layout
from assay.scheduler.model_spec import get_model

#: The quantities a reproduction measures: both sides run the same model and global batch, so a ratio of
#: throughputs is the inverse ratio of step times.
REPRODUCIBLE_MEASURES = ("throughput", "step_time")
#: The CPU presets a sweep trains, smallest first: each side runs once per model that fits both layouts.
#: gpt-mini's steps take ~1 s on one CPU core per worker, gpt-tiny's ~0.1 s.
DEFAULT_MODELS = ("gpt-tiny", "gpt-mini")
DEFAULT_STEPS = 12
#: Steps left out of each measurement at the start of a run (and the first after each restart): process
#: groups forming, allocator and caches warming.
WARMUP_STEPS = 2
SIDES = ("subject", "baseline")


class Unreproducible(AssayError, ValueError):
    """Why a claim cannot be reproduced here, in words for the check's reason."""

    code = "E081"


@dataclass(frozen=True)
class SweepJob:
    """One job of the sweep: a side of the claim, on one model, in its scaled-down layout."""

    side: str  # "subject" or "baseline"
    model: str
    layout: Layout
    spec: JobSpec


@dataclass(frozen=True)
class Sweep:
    workers: int
    claimed: tuple[Layout, Layout]  # subject, baseline, at the claim's scale
    scaled: tuple[Layout, Layout]  # the same, at ``workers``
    jobs: tuple[SweepJob, ...]
    skipped: dict[str, str]  # model -> why it was left out

    @property
    def models(self) -> list[str]:
        return list(dict.fromkeys(j.model for j in self.jobs))

    def describe(self) -> str:
        subject, baseline = self.scaled
        return f"{short(subject)} vs {short(baseline)} on {self.workers} workers"


def why_not_reproducible(setting: ClaimSetting) -> str | None:
    """None when the claim compares two parallel layouts of one model on throughput or step time; else
    why a reproduction cannot test it."""
    if setting.measure not in REPRODUCIBLE_MEASURES:
        what = setting.measure or f"an unrecognised quantity ({setting.metric or 'no metric'})"
        return (f"a reproduction measures throughput or step time of two parallel layouts; this claim is about "
                f"{what}")
    if layout_sides(setting) is not None:
        return None
    workers = setting.workers
    if not setting.versus:
        return "the claim names no baseline to compare with, so there is no second layout to run"
    for role, name in (("subject", setting.subject), ("baseline", setting.versus)):
        if layout_of_side(name, workers) is None:
            if layout_of_side(name, 8) is not None:  # a parallel kind, but no size to run it at
                return (f"its {role} {name!r} is a parallel layout, but the claim says neither on how many "
                        "workers nor at which degrees")
            return f"its {role} {name!r} is not a parallel layout (data, tensor or pipeline parallelism)"
    return f"both sides ({setting.subject!r} and {setting.versus!r}) are the same layout"


def scale_layout(layout: Layout, workers: int) -> Layout:
    """``layout`` shrunk to at most ``workers`` workers, keeping its shape as far as it goes: data parallelism
    goes first (it changes least about how one step runs), then the larger model-parallel degree, each
    divided by its smallest prime factor. A layout that fits already is kept as it is."""
    degrees = layout.degrees()
    while degrees["dp"] * degrees["tp"] * degrees["pp"] > workers:
        dim = "dp" if degrees["dp"] > 1 else max(("pp", "tp"), key=lambda d: degrees[d])
        degrees[dim] //= _smallest_factor(degrees[dim])
    return Layout(**degrees)


def plan_sweep(setting: ClaimSetting, workers: int, *, steps: int = DEFAULT_STEPS,
               models: tuple[str, ...] | list[str] = DEFAULT_MODELS) -> Sweep:
    """The jobs that reproduce ``setting`` on at most ``workers`` workers: both sides, on each model of
    ``models`` that can run both layouts. :class:`Unreproducible` says why there are none."""
    why = why_not_reproducible(setting)
    if why:
        raise Unreproducible(why)
    sides = layout_sides(setting)
    assert sides is not None
    claimed = (Layout(**sides[0]), Layout(**sides[1]))
    if workers < 2:
        raise Unreproducible(f"the cluster has {workers} worker slot{'s' * (workers != 1)}; comparing two "
                             "parallel layouts needs at least 2")
    scaled = (scale_layout(claimed[0], workers), scale_layout(claimed[1], workers))
    if scaled[0] == scaled[1]:
        raise Unreproducible(f"scaled down to {workers} workers, both sides become {short(scaled[0])}")
    if scaled[0].world_size != scaled[1].world_size:
        raise Unreproducible(f"scaled down to {workers} workers, the sides need different numbers of workers "
                             f"({short(scaled[0])} vs {short(scaled[1])}): their speeds would not compare")
    n = scaled[0].world_size
    jobs, skipped = [], {}
    for model in models:
        try:
            pair = [SweepJob(side, model, lay, job_spec(setting.claim_id, side, model, lay, steps))
                    for side, lay in zip(SIDES, scaled, strict=True)]
        except SpecError as exc:
            skipped[model] = str(exc)
            continue
        jobs += pair
    if not jobs:
        raise Unreproducible(f"no CPU model of {', '.join(models)} runs both {short(scaled[0])} and "
                             f"{short(scaled[1])}: " + "; ".join(skipped.values()))
    return Sweep(n, claimed, scaled, tuple(jobs), skipped)


def job_spec(claim_id: str, side: str, model: str, layout: Layout, steps: int) -> JobSpec:
    """The spec of one side: a fixed layout (never resized or re-planned, so the measured layout is the one
    named), the preset's global batch, the same seed on both sides (same weights, same data), and
    checkpoints often enough that a lost worker costs a few steps."""
    preset = get_model(model)
    batch = _round_up(preset.default_global_batch or 32, layout.dp)
    return from_dict({
        "name": f"repro-{claim_id[:8]}-{side}-{short(layout).replace('=', '').replace(' ', '-')}-{model}",
        "model": model,
        "parallel": {"dp": layout.dp, "tp": layout.tp, "pp": layout.pp},
        "min_workers": layout.world_size,
        "max_workers": layout.world_size,
        "steps": steps,
        "global_batch": batch,
        "micro_batch": micro_batch(layout, batch),
        "checkpoint_every": max(1, min(10, steps // 4)),
        "seed": 0,
        "lr": 1e-3,
    })


def micro_batch(layout: Layout, global_batch: int) -> int:
    """Each layout at its natural micro-batch: the whole per-replica batch without a pipeline; with one,
    the largest that gives at least two micro-batches per stage, so the pipeline fills."""
    per_replica = global_batch // layout.dp
    if layout.pp == 1:
        return per_replica
    want = max(1, per_replica // (2 * layout.pp))
    return max(d for d in range(1, want + 1) if per_replica % d == 0)


def short(layout: Layout) -> str:
    """``pp=4``, ``tp=2 pp=2``: the degrees above 1 (``dp=1`` for a single worker)."""
    parts = [f"{d}={getattr(layout, d)}" for d in ("dp", "tp", "pp") if getattr(layout, d) > 1]
    return " ".join(parts) or "dp=1"


def _smallest_factor(n: int) -> int:
    return next(d for d in range(2, n + 1) if n % d == 0)


def _round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple
