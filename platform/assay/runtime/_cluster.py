"""Connecting to Ray: an embedded local instance by default, a running cluster with --address."""

from __future__ import annotations

import logging
import os
import sys
import time

import ray


def ensure_ray(address: str | None = None, *, num_cpus: int | None = None) -> tuple[bool, float]:
    """Connect to (or start) Ray. Returns (whether this call started it, seconds it took)."""
    if ray.is_initialized():
        return False, 0.0
    started = time.perf_counter()
    os.environ.setdefault("RAY_DEDUP_LOGS", "1")
    kwargs: dict = {"include_dashboard": False, "logging_level": logging.WARNING, "log_to_driver": True}
    if address:
        ray.init(address=address, **kwargs)
    else:
        # "local" starts an embedded instance even when a `ray start` cluster runs on this machine.
        ray.init(address="local", num_cpus=num_cpus or os.cpu_count() or 1, **kwargs)
    # Ray Data logs every dataset's execution at INFO; assay prints its own progress and summary.
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    if hasattr(ctx, "enable_operator_progress_bars"):
        ctx.enable_operator_progress_bars = False
    return True, time.perf_counter() - started


def ship_by_value(module_name: str | None) -> None:
    """Pickle a user's pipeline module by value, so its operators reach workers that cannot import it."""
    if not module_name or module_name.startswith("assay."):
        return
    from ray import cloudpickle

    module = sys.modules.get(module_name)
    if module is not None:
        cloudpickle.register_pickle_by_value(module)


def cluster_cpus() -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))
