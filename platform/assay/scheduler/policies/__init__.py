"""Scheduling policies: who gets how many workers, which batch size and which nodes, every round.

    from assay.scheduler.policies import get_policy, JobView, ClusterView
    policy = get_policy("goodput", fairness=-1)
    decisions = policy.decide(jobs, ClusterView.uniform(16, 4), now)

Built in: ``fifo``, ``tiresias`` (discretised least attained service), ``gavel`` (a heterogeneity-aware
baseline after Gavel) and ``goodput`` (Pollux-like elastic goodput optimisation, Sia-like across GPU types). ``register_policy(name, factory)`` adds one of your own.
Pure Python: the live scheduler on Ray and the simulator run the same code.
"""

from assay.scheduler.policies import _fifo, _gavel, _goodput, _tiresias  # noqa: F401  (register the built-ins)
from assay.scheduler.policies._base import (
    ClusterView,
    Decision,
    JobView,
    Policy,
    available_policies,
    get_policy,
    register_policy,
)
from assay.scheduler.policies._fifo import Fifo
from assay.scheduler.policies._goodput import Goodput
from assay.scheduler.policies._goodput_model import (
    BatchLimits,
    GoodputModel,
    PerfParams,
    fit_perf_params,
    predict_step_time,
    split_batch,
)
from assay.scheduler.policies._placement import node_counts, pack, place_typed
from assay.scheduler.policies._tiresias import Tiresias

#: The interface name the design documents use for a job's speed estimate.
JobModel = GoodputModel

__all__ = [
    "BatchLimits",
    "ClusterView",
    "Decision",
    "Fifo",
    "Goodput",
    "GoodputModel",
    "JobModel",
    "JobView",
    "PerfParams",
    "Policy",
    "Tiresias",
    "available_policies",
    "fit_perf_params",
    "get_policy",
    "node_counts",
    "pack",
    "place_typed",
    "predict_step_time",
    "register_policy",
    "split_batch",
]
