"""Ray Data, as the pipeline runtime uses it: a dataset of encoded records cut into blocks in the driver,
stages added as task or actor-pool ``map_batches``, batches read back as Arrow, and the no-progress guard.

The runtime decides the plan (which stage, what batch size, how many actors); every call into Ray Data is
here, on its public API only (design pitfall 14): blocks are cut where they are made, with
``from_items(..., override_num_blocks=...)``; a stalled run is stopped by Ray Data's own
``DataContext.execution_no_progress_timeout_s``; the stages still running are named from Ray's public state
API (``ray.util.state``). Ray is imported inside the functions (see :mod:`assay.ray_session._cluster`).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

#: Seconds the state API may take to answer (it is asked for a message only).
STATE_TIMEOUT_S = 3


def configure_quiet_data(quiet: bool) -> None:
    """No progress bars and no execution notes from Ray Data: assay prints its own progress and summary."""
    from ray.data import DataContext

    logging.getLogger("ray.data").setLevel(logging.ERROR if quiet else logging.WARNING)
    ctx = DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    if hasattr(ctx, "enable_operator_progress_bars"):
        ctx.enable_operator_progress_bars = False


def items_dataset(payloads: list[bytes], n_blocks: int) -> Any:
    """A dataset of one ``payload`` column, cut into ``n_blocks`` blocks here in the driver (Ray Data would
    merge the records a task yields into one block, and a block goes to one worker)."""
    from ray.data import from_items

    return from_items([{"payload": p} for p in payloads], override_num_blocks=max(1, n_blocks))


def union(first: Any, second: Any) -> Any:
    return first.union(second)


def add_task_stage(ds: Any, fn: Callable, *, batch_size: int, num_cpus: float) -> Any:
    """``ds`` with a stateless stage: Ray tasks calling ``fn`` on batches of ``batch_size`` records."""
    return ds.map_batches(fn, batch_size=batch_size, batch_format="numpy", num_cpus=num_cpus)


def add_actor_stage(ds: Any, cls: type, args: tuple, *, batch_size: int, min_size: int, max_size: int,
                    initial_size: int, tasks_in_flight: int | None, num_cpus: float) -> Any:
    """``ds`` with a stateful stage: a pool of actors of ``cls(*args)`` (built once each, a model loaded
    once), ``tasks_in_flight`` batches queued on each (None: Ray Data's default). Ray Data restarts lost
    actors and retries their tasks by default."""
    from ray.data import ActorPoolStrategy

    return ds.map_batches(
        cls, fn_constructor_args=args, batch_size=batch_size, batch_format="numpy",
        compute=ActorPoolStrategy(min_size=min_size, max_size=max_size, initial_size=initial_size,
                                  max_tasks_in_flight_per_actor=tasks_in_flight),
        num_cpus=num_cpus)


def arrow_batches(ds: Any) -> Iterator[Any]:
    """The dataset's output, block by block, as Arrow tables."""
    return ds.iter_batches(batch_size=None, batch_format="pyarrow")


def set_no_progress_timeout(seconds: float) -> float | None:
    """Set Ray Data's no-progress guard for datasets made from now on; the value it replaced, or None where
    this Ray Data has no such guard (before 2.58)."""
    from ray.data import DataContext

    ctx = DataContext.get_current()
    if not hasattr(ctx, "execution_no_progress_timeout_s"):
        return None
    kept = ctx.execution_no_progress_timeout_s
    ctx.execution_no_progress_timeout_s = seconds
    return kept


def restore_no_progress_timeout(kept: float) -> None:
    from ray.data import DataContext

    DataContext.get_current().execution_no_progress_timeout_s = kept


class _NeverRaised(Exception):
    """Stands in for Ray Data's no-progress error where the release has none."""


def ray_datas_timeout_error() -> type[BaseException]:
    """Ray Data's no-progress error, from its public home; a release without one has no guard to catch."""
    try:
        from ray.data.exceptions import ExecutionTimeoutError
    except ImportError:  # pragma: no cover -- an older Ray Data
        return _NeverRaised
    return ExecutionTimeoutError


#: The dashboard of each cluster this process connected to through :func:`assay.ray_session.ensure_ray`, by
#: its GCS address, as ``ray.init`` returned it ('' for none: an embedded instance starts without one).
_dashboards: dict[str, str] = {}


def note_dashboard(gcs_address: str, context: Any) -> None:
    """Keep the dashboard that ``ray.init``'s context names (Ray's documented way to it) for the state API."""
    url = str(getattr(context, "dashboard_url", "") or "")
    _dashboards[gcs_address] = url if not url or "://" in url else f"http://{url}"


def running_stages() -> list[str]:
    """One line per stage with running tasks or live actors, from Ray's public state API (task names are
    Ray Data's operator names: ``MapBatches(step)``, the pool actors' classes ``MapWorker(MapBatches(step))``);
    empty when the state is not at hand (no dashboard on this cluster). A connection made elsewhere than
    :func:`assay.ray_session.ensure_ray` is asked as it is: the state API finds its dashboard itself."""
    try:
        import ray
        from ray.util.state import list_actors, list_tasks

        if not ray.is_initialized():
            return []
        dashboard = _dashboards.get(ray.get_runtime_context().gcs_address)
        if dashboard == "":
            return []  # asked anyway, the state API looks for one 20 times, 2 s apart: 40 s before the message
        ask = {"address": dashboard, "timeout": STATE_TIMEOUT_S, "raise_on_missing_output": False}
        tasks = list_tasks(filters=[("state", "=", "RUNNING")], **ask)
        actors = list_actors(filters=[("state", "=", "ALIVE")], **ask)
    except Exception:  # noqa: BLE001 -- no dashboard, another release: the message goes without it
        return []
    running = Counter(_name(t) for t in tasks if _name(t) and "(" in _name(t))
    alive = Counter(_name(a, "class_name") for a in actors if "MapWorker" in _name(a, "class_name"))
    lines = [f"{name}: {n} task(s) running" for name, n in sorted(running.items())]
    lines += [f"{name}: {n} actor(s) alive" for name, n in sorted(alive.items())]
    return lines


def _name(entry: Any, field: str = "name") -> str:
    value = entry.get(field) if isinstance(entry, dict) else getattr(entry, field, None)
    return str(value or "")


def free_cpus() -> str:
    """The cluster's free CPUs, in words (for a stall's message)."""
    try:
        import ray

        free = ray.available_resources().get("CPU", 0.0)
        total = ray.cluster_resources().get("CPU", 0.0)
        return f"{free:g} of {total:g} CPUs free"
    except Exception:  # noqa: BLE001
        return "free CPUs unknown"
