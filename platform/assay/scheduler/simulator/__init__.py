"""The trace simulator: replays a workload under a scheduling policy on a simulated cluster.

    from assay.scheduler.simulator import simulate
    from assay.scheduler.workloads import adaptdl_workload
    result = simulate(adaptdl_workload(6), "goodput", gpus=64)
    result.summary["avg_jct"]
    compare_policies(adaptdl_workload(6), "all", db="assay.duckdb")   # as `assay simulate --policy all`
"""

from assay.scheduler.simulator._clock import SimResult, simulate
from assay.scheduler.simulator._compare import PUBLISHED_SETTING, Comparison, compare_policies, policy_names
from assay.scheduler.simulator._metrics import summarize
from assay.scheduler.simulator._store import (
    profiles_from_store,
    published_rows,
    write_published,
    write_result,
)

__all__ = [
    "PUBLISHED_SETTING",
    "Comparison",
    "SimResult",
    "compare_policies",
    "policy_names",
    "profiles_from_store",
    "published_rows",
    "simulate",
    "summarize",
    "write_published",
    "write_result",
]
