"""One workload under several scheduling policies, recorded for the dashboards with the published figures
beside it: what ``assay simulate`` runs.

    comparison = compare_policies(named_workload("adaptdl:6"), "all", db="assay.duckdb")
    comparison.results["goodput"].summary["avg_jct"], comparison.references
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from assay.scheduler.policies import available_policies
from assay.scheduler.pools import ClusterSpec
from assay.scheduler.simulator._clock import SimResult, simulate
from assay.scheduler.simulator._store import published_rows, write_published, write_result
from assay.scheduler.workloads import Workload

#: The built-in policies that ``all`` compares (``gavel`` is for clusters of several GPU types: ask for it).
BUILTIN_POLICIES = ("fifo", "tiresias", "goodput")
#: The cluster of Pollux's evaluation (64 GPUs, 4 a node, 60 s rounds, 30 s per restart): the published
#: figures are stored beside a replay only when it ran on this cluster, where they can be compared.
PUBLISHED_SETTING = {"gpus": 64, "gpus_per_node": 4, "round_s": 60.0, "restart_s": 30.0}
#: The figures of a run that ``figures`` reports.
SUMMARY_KEYS = ("avg_jct", "p50_jct", "p99_jct", "makespan", "utilization", "fairness")


def policy_names(policy: str) -> list[str]:
    """``all`` as the built-in policies, any other name as itself; ``KeyError`` for an unknown one."""
    names = list(BUILTIN_POLICIES) if policy == "all" else [policy]
    for name in names:
        if name not in available_policies():
            raise KeyError(f"unknown policy {name!r}; choose from {', '.join(available_policies())} or all")
    return names


@dataclass
class Comparison:
    workload: Workload
    results: dict[str, SimResult]
    #: The published ``sim_runs`` rows of an AdaptDL workload (Pollux's evaluation), else empty.
    references: list[dict[str, Any]] = field(default_factory=list)

    def figures(self, policy: str) -> dict[str, Any]:
        r = self.results[policy]
        return {**{k: r.summary.get(k) for k in SUMMARY_KEYS}, "n_jobs": r.summary.get("n_jobs"),
                "unfinished": r.summary.get("unfinished"), "wall_s": round(r.wall_s, 3)}


def compare_policies(workload: Workload, policy: str = "all", *, gpus: int = 64, gpus_per_node: int = 4,
                     round_s: float = 60.0, restart_s: float = 30.0, db: str | os.PathLike[str] | None = None,
                     store: bool = True, on_issue: Callable[[str], None] | None = None,
                     cluster: ClusterSpec | str | None = None, calibration: str | None = None,
                     profiles: Mapping[str, Any] | None = None) -> Comparison:
    """Replay ``workload`` under ``policy`` (a name, or ``all`` for the built-ins) and, with ``store``, record
    every run in ``db``; ``on_issue`` hears what each run could not simulate as given (e.g. an unknown
    model run with the default profile). ``cluster`` (node pools by GPU type) replaces ``gpus`` and
    ``gpus_per_node``; ``calibration`` and ``profiles`` (application -> profile) as ``simulate`` takes them."""
    setting: dict[str, Any] = {"gpus": gpus, "gpus_per_node": gpus_per_node, "round_s": round_s,
                               "restart_s": restart_s}
    extra: dict[str, Any] = {}
    if cluster is not None:
        extra["cluster"] = cluster
    if calibration is not None:
        extra["calibration"] = calibration
    if profiles:
        extra["profiles"] = profiles
    results = {}
    for name in policy_names(policy):
        result = simulate(workload, name, **setting, **extra)
        for issue in result.issues[len(workload.issues):]:  # the workload's own were reported on loading
            if on_issue is not None:
                on_issue(issue)
        results[name] = result
        if store:
            write_result(result, db)
    published_here = workload.name.startswith("adaptdl/") and cluster is None
    references = published_rows([workload.name]) if published_here else []
    if store and references and setting == PUBLISHED_SETTING:
        write_published(db, [workload.name])
    return Comparison(workload, results, references)
