"""Gangs of actors for job control, on Ray's public API: reserving resources in placement groups (all or
none, within a time limit), starting one actor of a given class in each, calling a method on them, waiting
for the results with a time limit and naming the one that failed, and freeing it all again.

Job control (``assay.jobs``) decides how many workers of what shape, and when; it holds the handles these
functions return (a reservation, an actor, a call) as opaque values and passes them back. Ray is imported
inside the functions, as everywhere in this package (see ``_cluster``). ``worker_context`` is the one call
made inside an actor: where it runs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

log = logging.getLogger(__name__)


class NoProgress(RuntimeError):
    """No call of a gang finished within the time limit; ``pending`` calls were still running."""

    def __init__(self, pending: int, timeout_s: float):
        super().__init__(f"no progress from {pending} worker(s) in {timeout_s:.0f}s")
        self.pending = pending


class CallFailed(RuntimeError):
    """A call of a gang raised, or its actor died: ``index`` is the failed one's place in the calls (the
    one whose actor died, where one did), ``error`` what it raised."""

    def __init__(self, index: int, error: BaseException):
        super().__init__(f"call {index}: {type(error).__name__}: {error}")
        self.index = index
        self.error = error


def reserve(bundle: dict[str, float], count: int, name: str, timeout_s: float,
            give_up: Callable[[], bool] | None = None, strategy: str = "PACK") -> list[Any] | None:
    """``count`` placement groups of one ``bundle`` each (named ``{name}-{stamp}-{i}``), all ready, or None
    (and every one of them removed) if the cluster cannot place them within ``timeout_s``, or as soon as
    ``give_up()`` says it never will (a node was lost)."""
    import ray
    from ray.util.placement_group import placement_group

    stamp = time.time_ns()
    groups = [placement_group([bundle], strategy=strategy, name=f"{name}-{stamp}-{i}") for i in range(count)]
    pending = [g.ready() for g in groups]
    deadline = time.monotonic() + timeout_s
    while pending:
        _, pending = ray.wait(pending, num_returns=len(pending),
                              timeout=min(0.5, max(0.0, deadline - time.monotonic())))
        if pending and (time.monotonic() >= deadline or (give_up is not None and give_up())):
            for g in groups:
                release(g)
            return None
    return groups


def release(group: Any) -> None:
    """Remove a placement group (nothing if it is gone already)."""
    from ray.util.placement_group import remove_placement_group

    try:
        remove_placement_group(group)
    except Exception as exc:
        log.debug("remove placement group: %s", exc)


def actor_class(cls: type) -> Any:
    """``cls`` as a kind of actor for :func:`start_actor`; never restarted by Ray (job control restarts a
    gang itself)."""
    import ray

    return ray.remote(max_restarts=0)(cls)


def start_actor(kind: Any, group: Any, cpus: float, gpus: float) -> Any:
    """One actor of ``kind`` (from :func:`actor_class`) in the first bundle of placement group ``group``,
    taking ``cpus`` and ``gpus``."""
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    strategy = PlacementGroupSchedulingStrategy(group, placement_group_bundle_index=0)
    return kind.options(num_cpus=cpus, num_gpus=gpus, scheduling_strategy=strategy).remote()


def kill(actor: Any) -> None:
    """Stop an actor's process now, for good (nothing if it is gone already)."""
    import ray

    try:
        ray.kill(actor, no_restart=True)
    except Exception as exc:  # an actor that is already gone
        log.debug("kill: %s", exc)


def call(actor: Any, method: str, *args: Any) -> Any:
    """Start ``actor.method(*args)``; a handle on the call, for :func:`gather`/:func:`results`."""
    return getattr(actor, method).remote(*args)


def call_all(actors: Sequence[Any], method: str, *args: Any) -> list[Any]:
    """:func:`call` of the same method with the same arguments on every actor."""
    return [call(a, method, *args) for a in actors]


def share(value: Any) -> Any:
    """``value`` put in the cluster's object store once, to be passed to many calls without copying."""
    import ray

    return ray.put(value)


def results(calls: Sequence[Any], timeout_s: float | None = None) -> list[Any]:
    """The results of ``calls`` in order (Ray's own errors, and ``GetTimeoutError`` after ``timeout_s``)."""
    import ray

    return ray.get(list(calls), timeout=timeout_s)


def gather(calls: Sequence[Any], timeout_s: float) -> list[Any]:
    """The results of ``calls`` in order. :class:`NoProgress` when none finishes within ``timeout_s`` (counted
    from the start), :class:`CallFailed` as soon as one fails; a dead actor usually makes its peers raise
    too, so the one that died is named if that shows within a second."""
    import ray

    calls = list(calls)
    pending = list(calls)
    deadline = time.monotonic() + timeout_s
    while pending:
        ready, pending = ray.wait(pending, num_returns=1, timeout=max(0.0, deadline - time.monotonic()))
        if not ready:
            raise NoProgress(len(pending), timeout_s)
        try:
            ray.get(ready[0])
        except Exception as exc:
            index, error = _blame(calls, ready[0], exc)
            raise CallFailed(index, error) from exc
    return ray.get(calls)


def _blame(calls: list[Any], failed: Any, exc: Exception) -> tuple[int, BaseException]:
    import ray

    ray.wait([c for c in calls if c != failed], num_returns=len(calls) - 1, timeout=1.0)
    for i, ref in enumerate(calls):
        try:
            ray.get(ref, timeout=0)
        except ray.exceptions.RayActorError:
            return i, ray.exceptions.RayActorError()
        except Exception:
            continue
    return calls.index(failed), exc


def is_ray_error(exc: BaseException) -> bool:
    """Whether ``exc`` is one of Ray's errors (an actor or task that died, a call that failed remotely)."""
    try:
        import ray.exceptions as rex
    except ImportError:
        return False
    return isinstance(exc, rex.RayError)


def worker_context() -> dict[str, Any]:
    """Inside an actor: the node it runs on (``node_id``), that node's ``ip`` and the ``gpus`` Ray gave it."""
    import ray

    return {"node_id": ray.get_runtime_context().get_node_id(), "ip": ray.util.get_node_ip_address(),
            "gpus": [str(g) for g in ray.get_gpu_ids()]}
