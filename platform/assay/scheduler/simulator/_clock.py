"""The simulation clock: scheduling rounds over the same policy code the live scheduler runs.

Every ``round_s`` seconds the policy sees the submitted, unfinished jobs (as ``JobView``: what it may know,
including each job's model learned from what the job reported) and decides; a job whose set of workers
changes spends ``restart_s`` without progress; between decisions each job moves along its profile's
ground truth, epoch by epoch. A job finishing inside a round frees its workers at the next decision, and
a job submitted inside a round is first seen at the next one (as in Pollux's simulator).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from assay.scheduler.policies import ClusterView, Decision, JobView, Policy, get_policy, pack, place_typed
from assay.scheduler.pools import ClusterSpec
from assay.scheduler.simulator._jobs import SimJob, ceil_to, make_job
from assay.scheduler.simulator._metrics import summarize
from assay.scheduler.workloads import (
    CALIBRATIONS,
    NO_CALIBRATION,
    Calibration,
    Profile,
    Workload,
    get_profile,
    typed_profile,
)

#: Stop a run that has not finished after this much simulated time (a policy that starves a job).
MAX_SIMULATED_S = 60 * 24 * 3600.0


@dataclass
class SimResult:
    workload: str
    policy: str
    gpus: int
    params: dict[str, Any]
    jobs: list[dict[str, Any]]
    allocations: list[dict[str, Any]]
    summary: dict[str, Any]
    wall_s: float
    issues: list[str] = field(default_factory=list)
    #: The node pools (``aws:6x4,rtx:3x8``) when the run had GPU types (``sim_runs.cluster``); then every
    #: job row and allocation carries ``gpu_type`` (``sim_jobs.gpu_type``, ``sim_allocations.gpu_type``).
    cluster: str | None = None


def simulate(workload: Workload, policy: Policy | str, *, gpus: int = 64, gpus_per_node: int = 4,
             round_s: float = 60.0, restart_s: float = 30.0, record_allocations: bool = True,
             max_simulated_s: float = MAX_SIMULATED_S, profiles: Mapping[str, Profile] | None = None,
             cluster: ClusterSpec | str | None = None, calibration: Calibration | str | None = None,
             **knobs: Any) -> SimResult:
    """Replay ``workload`` under ``policy`` (an object or a registered name; ``knobs`` go to it).

    ``profiles`` maps model names to profiles of your own; other names come from the catalogue
    (``workload.profiles_dir`` first). Unknown names run with the default profile and are reported in
    ``SimResult.issues``.

    ``cluster`` (a ``ClusterSpec`` or its text, ``aws:6x4,rtx:3x8``) replaces ``gpus``/``gpus_per_node``
    with node pools by GPU type: each job then runs on one type at a time, at that type's measured speed
    where its profile folder has ``placements-<type>.csv`` files. ``calibration`` (``"sia"`` or a
    ``Calibration``) sets per-application restart seconds and step-time slowdowns.
    """
    if cluster is None and (gpus < 1 or gpus_per_node < 1):
        raise ValueError("gpus and gpus_per_node must be positive")
    if round_s <= 0 or restart_s < 0:
        raise ValueError("round_s must be positive and restart_s non-negative")
    started = time.perf_counter()
    pol = get_policy(policy, **knobs) if isinstance(policy, str) else policy
    if isinstance(calibration, str):
        calibration = CALIBRATIONS[calibration]
    calib = calibration or NO_CALIBRATION
    spec_cluster = ClusterSpec.parse(cluster) if isinstance(cluster, str) else cluster
    if spec_cluster is None:
        full, rest = divmod(gpus, gpus_per_node)
        capacity = (gpus_per_node,) * full + ((rest,) if rest else ())
        node_types: tuple[str, ...] = ()
        types: dict[str, int] | None = None
    else:
        capacity, node_types = spec_cluster.capacity, spec_cluster.node_types
        gpus, gpus_per_node = spec_cluster.total, max(capacity)
        types = {t: max(c for c, n in zip(capacity, node_types, strict=True) if n == t)
                 for t in spec_cluster.types}
    issues = list(workload.issues)
    jobs: list[SimJob] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for spec in workload.jobs:
            profile = (profiles or {}).get(spec.model)
            if profile is None and types and workload.profiles_dir is not None:
                profile = typed_profile(workload.profiles_dir / spec.model, tuple(types), calib)
            if profile is None:
                profile = get_profile(spec.model, workload.profiles_dir)[0]
            jobs.append(make_job(spec, profile, gpus_per_node, calib.restart(spec.model, restart_s), types))
    issues += sorted({str(w.message) for w in caught})
    for job in jobs:
        if job.min_workers > gpus:
            issues.append(f"job {job.spec.job_id}: needs {job.min_workers} workers, the cluster has {gpus}")

    speeds = {j.spec.job_id: _speeds(j, types) for j in jobs} if types else {}
    allocations: list[dict[str, Any]] = []
    last: dict[str, tuple] = {}
    active: list[SimJob] = []
    t = 0.0
    nxt = 0
    while nxt < len(jobs) or active:
        while nxt < len(jobs) and jobs[nxt].spec.submit_time <= t + 1e-9:
            if jobs[nxt].min_workers <= gpus:  # a job larger than the cluster never runs (reported above)
                jobs[nxt].waiting += t - jobs[nxt].spec.submit_time
                active.append(jobs[nxt])
            nxt += 1
        if not active:
            if nxt < len(jobs):
                t = ceil_to(jobs[nxt].spec.submit_time, round_s)
            continue
        if t > max_simulated_s:
            issues.append(f"stopped at {t:.0f} s simulated with {len(active)} jobs unfinished")
            break
        views = [_view(j, speeds.get(j.spec.job_id)) for j in active]
        used = [0] * len(capacity)
        for j in active:
            for node in j.placement:
                used[node] += 1
        decisions = pol.decide(views, ClusterView(capacity, tuple(used), node_types), t)
        reasons = _apply(decisions, active, capacity, restart_s, t, node_types)
        if record_allocations:
            for j in active:
                state = (j.workers, j.batch if j.workers else 0, j.gpu_type if j.workers else None)
                if last.get(j.spec.job_id) != state:
                    last[j.spec.job_id] = state
                    row = {"job_id": j.spec.job_id, "t": t, "workers": j.workers,
                           "batch_size": state[1] or None, "reason": reasons[j.spec.job_id]}
                    if node_types:
                        row["gpu_type"] = state[2]
                    allocations.append(row)
        for j in active:
            j.advance(t, round_s)
            if j.done:
                if j.start_time is None:
                    j.start_time = t
                if record_allocations:
                    row = {"job_id": j.spec.job_id, "t": j.finish_time, "workers": 0, "batch_size": None,
                           "reason": "finished"}
                    if node_types:
                        row["gpu_type"] = None
                    allocations.append(row)
            else:
                j.report()
        active = [j for j in active if not j.done]
        t += round_s

    rows = [_job_row(j, bool(node_types)) for j in jobs]
    summary = summarize(rows, gpus)
    settings = {k: v for k, v in vars(pol).items()
                if not k.startswith("_") and isinstance(v, int | float | str | bool | tuple)}
    params = {"gpus_per_node": gpus_per_node, "round_s": round_s, "restart_s": restart_s, "policy": settings}
    if spec_cluster is not None:
        params["cluster"] = str(spec_cluster)
        params["calibration"] = "sia" if calib is CALIBRATIONS["sia"] else ("none" if calib is NO_CALIBRATION
                                                                             else "custom")
    return SimResult(workload.name, getattr(pol, "name", str(policy)), gpus, params, rows, allocations, summary,
                     time.perf_counter() - started, issues, str(spec_cluster) if spec_cluster is not None else None)


def _speeds(j: SimJob, types: Mapping[str, int]) -> dict[str, float]:
    """The job's single-GPU throughput per type, as profiling it on one GPU of each type on arrival
    measures it (Sia's approach); 1.0 each for a profile without per-type measurements."""
    speed = getattr(j.profile, "speed", None)
    return {t: (float(speed(t)) if speed is not None else 1.0) for t in types}


def _view(j: SimJob, speeds: Mapping[str, float] | None = None) -> JobView:
    spec = j.spec
    typed = {}
    if j.models:
        typed = {"gpu_type": j.gpu_type if j.workers else None, "models": j.models, "type_speed": speeds,
                 "restart_s": j.restart_s}
    return JobView(
        job_id=spec.job_id, submit_time=spec.submit_time, requested_workers=spec.num_gpus,
        priority=spec.priority, min_workers=j.min_workers, max_workers=spec.max_workers,
        requested_batch=spec.fixed_batch or spec.batch_size, workers=j.workers, placement=j.placement,
        batch_size=j.batch or None, attained_service=j.attained, restarts=max(j.restarts, 0),
        limits=j.limits, model=j.model, **typed,
    )


def _apply(decisions: Mapping[str, Decision], active: list[SimJob], capacity: tuple[int, ...],
           restart_s: float, t: float, node_types: tuple[str, ...] = ()) -> dict[str, str]:
    """Carry out the decisions that fit; a placement that does not fit the nodes is repacked (on a
    cluster of several GPU types: inside one type, the decision's if it names one)."""
    reasons: dict[str, str] = {}
    wanted: list[tuple[SimJob, int, tuple[int, ...] | None, int | None, bool]] = []
    want_type: dict[str, str | None] = {}
    for j in active:
        d = decisions.get(j.spec.job_id)
        if d is None:
            reasons[j.spec.job_id] = "no decision: allocation unchanged"
            wanted.append((j, j.workers, j.placement, None, j.adaptive))
            continue
        want_type[j.spec.job_id] = d.gpu_type
        workers = max(int(d.workers), 0)
        reason = d.reason
        if 0 < workers < j.min_workers:
            workers, reason = 0, f"{reason} (below the job's minimum of {j.min_workers} workers: not run)"
        placement = tuple(d.placement) if d.placement is not None else None
        if placement is not None and (len(placement) != workers
                                      or any(not 0 <= n < len(capacity) for n in placement)):
            placement = None
        if placement and node_types and len({node_types[n] for n in placement}) > 1:
            placement = None  # a job runs on one GPU type
        if placement is None and workers == j.workers:
            placement = j.placement
        reasons[j.spec.job_id] = reason
        wanted.append((j, workers, placement, d.batch_size, d.adaptive_batch))
    free = list(capacity)
    for j, workers, placement, _, _ in wanted:
        if workers and placement == j.placement:
            for node in placement:
                free[node] -= 1
    for j, workers, placement, batch, adaptive in sorted(wanted, key=lambda w: -w[1]):
        if workers and placement == j.placement:
            j.allocate(workers, placement, batch, restart_s, adaptive, j.gpu_type)
            continue
        if workers and placement is not None and _fits(placement, free):
            for node in placement:
                free[node] -= 1
        elif workers:
            placement = place_typed(pack, workers, free, node_types, want_type.get(j.spec.job_id))
            if placement is None:
                reasons[j.spec.job_id] += " (no room on the nodes: not run)"
                workers, placement = 0, ()
        if workers and j.start_time is None:
            j.start_time = t
        j.allocate(workers, placement or (), batch, restart_s, adaptive,
                   node_types[placement[0]] if node_types and placement else None)
    return reasons


def _fits(placement: tuple[int, ...], free: list[int]) -> bool:
    need: dict[int, int] = {}
    for node in placement:
        need[node] = need.get(node, 0) + 1
    return all(free[n] >= c for n, c in need.items())


def _job_row(j: SimJob, typed: bool = False) -> dict[str, Any]:
    spec = j.spec
    jct = j.finish_time - spec.submit_time if j.finish_time is not None else None
    row: dict[str, Any] = {
        "job_id": spec.job_id, "model": spec.model, "submit_time": spec.submit_time, "start_time": j.start_time,
        "finish_time": j.finish_time, "jct": jct, "queueing": j.waiting, "num_gpus": spec.num_gpus,
        "restarts": max(j.restarts, 0), "isolated_s": j.isolated_s, "allocated_s": j.allocated_s,
    }
    if typed:  # the type it spent most GPU-seconds on
        row["gpu_type"] = max(j.type_seconds, key=j.type_seconds.get) if j.type_seconds else None
        row["gpu_seconds_by_type"] = dict(j.type_seconds)
    return row
