"""Which parallel layout a job runs with on a given number of workers.

A spec's fixed layout is used as written when the job gets exactly its size. Otherwise (``parallel: auto``,
a resize, a shrink after a lost node) the scheduler's planner proposes one; a proposal that the workload
cannot run (heads not divisible by tp, ...) is replaced by the best valid layout, keeping the spec's tp and
pp where they still fit. The global batch never changes: the micro-batch and the number of accumulated
micro-batches absorb the new data-parallel degree.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from assay.domain.job_spec import JobSpec, SpecError, check_layout, micro_batch_for, valid_layouts
from assay.domain.layout import Layout
from assay.domain.placement import Placement

log = logging.getLogger(__name__)


def feasible_workers(spec: JobSpec, at_most: int) -> int:
    """The largest worker count not above ``at_most`` that has a valid layout (0 if none)."""
    for n in range(at_most, 0, -1):
        if valid_layouts(spec, n):
            return n
    return 0


def plan(spec: JobSpec, workers: int, cluster: Any = None) -> Placement:
    """The layout for ``spec`` on ``workers`` workers (``ValueError`` if no layout of that size fits)."""
    if spec.parallel is not None and spec.parallel.world_size == workers:
        return _placement(spec, spec.parallel, spec.micro_batch or None, None, None, "spec")
    proposed = _from_planner(spec, workers, cluster)
    if proposed is not None:
        return proposed
    options = valid_layouts(spec, workers)
    if not options:
        raise ValueError(f"no valid layout of {workers} workers for {spec.name}")
    want = spec.parallel or Layout()

    def rank(lay: Layout) -> tuple[int, int, int]:
        # Keep the spec's model-parallel degrees where they fit, else as little model parallelism as
        # possible: on CPU workers data parallelism costs the least communication per step.
        keeps = (lay.tp == want.tp) + (lay.pp == want.pp)
        return (-keeps, lay.tp * lay.pp, lay.pp)

    return _placement(spec, min(options, key=rank), spec.micro_batch or None, None, None, "fallback")


def _placement(spec: JobSpec, lay: Layout, micro: int | None, bounds: Any, predicted: float | None,
               source: str) -> Placement:
    mb = micro_batch_for(spec, lay, micro)
    per_replica = spec.global_batch // lay.dp
    return Placement(lay, mb, per_replica // mb, tuple(bounds) if bounds else None, predicted, source)


def _from_planner(spec: JobSpec, workers: int, cluster: Any) -> Placement | None:
    """The planner's fastest layout (model parallelism pinned to the spec's where that is feasible),
    or None when the planner is unavailable or proposes nothing this workload can run."""
    try:
        from assay.scheduler.cluster import Cluster, cpu_cluster, get_cluster
        from assay.scheduler.planner import plan_layout
    except ImportError:
        return None
    m = spec.model
    if cluster is None:
        cluster = cpu_cluster(workers)
    elif isinstance(cluster, str):
        cluster = get_cluster(cluster)
    if not isinstance(cluster, Cluster):
        return None
    model = replace(m, name=spec.name)
    # The workload has no activation recomputation or ZeRO; a micro-batch the user chose is kept.
    base: dict[str, Any] = {"recompute": False}
    attempts = []
    if spec.parallel is not None:
        attempts.append({**base, "tp": spec.parallel.tp, "pp": spec.parallel.pp})
    attempts.append(base)
    for fixed in attempts:
        try:
            result = plan_layout(model, workers, cluster, spec.global_batch, fixed=fixed)
        except ValueError as exc:
            log.debug("planner: no layout of %d workers for %s with %s: %s", workers, spec.name, fixed, exc)
            continue
        lay = Layout(int(result.dp), int(result.tp), int(result.pp))
        micro = spec.micro_batch or int(result.micro_batch_size)
        try:
            if lay.world_size != workers:
                raise SpecError("parallel", f"planner returned {lay} for {workers} workers")
            check_layout(spec, lay, micro_batch=0)
        except SpecError as exc:
            log.debug("planner proposal %s not runnable: %s", lay, exc)
            continue
        bounds = _bounds(result.stage_layers, m.layers)
        return _placement(spec, lay, micro, bounds, float(result.step_time_s) * 1000.0, "planner")
    return None


def _bounds(stage_layers: Any, layers: int) -> list[int] | None:
    """Cut points from layers per stage (the planner's ``stage_layers``); None when they do not add up."""
    counts = [int(c) for c in stage_layers or ()]
    if not counts or sum(counts) != layers or any(c < 1 for c in counts):
        return None
    cuts = [0]
    for c in counts:
        cuts.append(cuts[-1] + c)
    return cuts
