"""What the connected cluster offers, and how a user's code reaches its workers.

Ray is imported inside the functions: :mod:`assay.ray_session._session` sets Ray's token mode before Ray's
first import (Ray reads it then), which a module-level import here would pre-empt."""

from __future__ import annotations

import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class LiveNode:
    """One live node of the connected cluster: Ray's id for it and its total resources (``CPU``, ``GPU``,
    ``memory``, custom ones such as ``gpu_type:a100``)."""

    node_id: str
    resources: dict[str, float]


def live_nodes() -> list[LiveNode]:
    """The live nodes of the connected cluster, in Ray's order."""
    import ray

    return [LiveNode(n["NodeID"], {k: float(v) for k, v in n.get("Resources", {}).items()})
            for n in ray.nodes() if n.get("Alive")]


def cluster_resources() -> dict[str, float]:
    """The connected cluster's total resources (``ray.cluster_resources()``, every value a float)."""
    import ray

    return {k: float(v) for k, v in ray.cluster_resources().items()}


def ship_by_value(module_name: str | None) -> None:
    """Pickle a user's pipeline module by value, so its operators reach workers that cannot import it."""
    if not module_name or module_name.startswith("assay."):
        return
    from ray import cloudpickle

    module = sys.modules.get(module_name)
    if module is not None:
        cloudpickle.register_pickle_by_value(module)


def node_cpus() -> list[float]:
    """CPUs of each live node of the connected cluster, scaled down to Ray Data's own CPU limit where one is
    set (``DataContext.get_current().execution_options.resource_limits.cpu``, the way to keep a dataset to
    part of a shared cluster): pools planned for CPUs that Ray Data will not use start actors that only
    compete for the ones it does."""
    import ray
    from ray.data import DataContext

    cpus = [float(n["Resources"].get("CPU", 0)) for n in ray.nodes() if n.get("Alive")]
    cpus = [c for c in cpus if c > 0] or [1.0]
    limit, total = DataContext.get_current().execution_options.resource_limits.cpu, sum(cpus)
    if limit is not None and 0 < limit < total:
        cpus = [c * limit / total for c in cpus]
    return cpus
