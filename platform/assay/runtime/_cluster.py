"""Ray helpers of the pipeline runtime (connecting to Ray is ``assay.ray_session``'s)."""

from __future__ import annotations

import sys

import ray


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
    from ray.data import DataContext

    cpus = [float(n["Resources"].get("CPU", 0)) for n in ray.nodes() if n.get("Alive")]
    cpus = [c for c in cpus if c > 0] or [1.0]
    limit, total = DataContext.get_current().execution_options.resource_limits.cpu, sum(cpus)
    if limit is not None and 0 < limit < total:
        cpus = [c * limit / total for c in cpus]
    return cpus


def spread_one_per_block(ds: ray.data.Dataset, num_cpus: float, rows: int = 1) -> ray.data.Dataset:
    """``ds`` streamed ``rows`` records per block (one by default), its repartition tasks asking for ``num_cpus``.

    Ray Data gives a streaming repartition a whole CPU per task and no argument to ask for less; on a
    1-CPU node beside an actor it would never get one (the run hangs). With the CPUs of the task stage
    before it, it also fuses into that stage (Ray fuses map -> repartition when their resources match).
    """
    ds = ds.repartition(target_num_rows_per_block=rows)
    op = ds._logical_plan.dag
    if hasattr(op, "ray_remote_args"):
        object.__setattr__(op, "ray_remote_args", {**op.ray_remote_args, "num_cpus": num_cpus})
    return ds
