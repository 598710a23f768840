"""Ray Data's per-cluster helper actors, served inside the driver when assay started Ray on this machine.

The first dataset that runs on a cluster makes Ray Data create three detached actors: a statistics actor
(metrics for Ray's dashboard), an autoscaling coordinator (asks a cluster autoscaler for nodes and shares
the cluster among datasets) and an actor-location tracker (which node each pool actor runs on). On a
cluster they are created once and live on. An embedded instance is new for every `assay run`, so every
run paid for three more Python worker processes, about 2.5 CPU-seconds each to start, competing with the
pipeline's own workers: on a 2-CPU machine a 300 MB log took 20.4-20.9 s with them and 13.9-14.1 s without.

On one embedded node, with no autoscaler and no dashboard, what they would answer is known here:

* the coordinator's own class runs in this process, on the same cluster state (its reservations, the
  resources it hands each dataset, its periodic refresh), called synchronously instead of by RPC;
* statistics go nowhere (nobody can open the dashboard of an embedded run); dataset ids are random, as
  Ray Data makes them when its actor cannot be reached;
* every actor is on this node, so the tracker answers "not known", on which Ray Data keeps the location
  each actor reported when it started: the one node.

Only for the Ray release this was written against (2.60, the one pyproject pins) and only for the session
:func:`serve_ray_data_helpers_here` was called in: on a cluster joined with ``--address``, after ``ray.shutdown`` and a
new ``ray.init``, or with another Ray release, Ray Data creates its actors as usual.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

#: The Ray releases whose Ray Data internals this module knows.
SUPPORTED_RAY = ("2.60.",)

_session: dict[str, Any] = {}


class _Call:
    """``handle.method.remote(...)`` for an object in this process: runs now, returns an object ref."""

    def __init__(self, method: Callable[..., Any]):
        self._method = method

    def remote(self, *args: Any, **kwargs: Any) -> Any:
        import ray

        return ray.put(self._method(*args, **kwargs))


class InDriver:
    """An actor handle whose actor is a plain object of this process."""

    def __init__(self, target: Any):
        self._target = target

    def __getattr__(self, name: str) -> _Call:
        return _Call(getattr(self._target, name))


class NoStatistics:
    """What the statistics actor does for an embedded run: ids for datasets, nothing kept."""

    def gen_dataset_id(self) -> str:
        return uuid.uuid4().hex

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None


class _Ignored:
    def remote(self, *args: Any, **kwargs: Any) -> None:
        return None


class _NotKnown:
    def remote(self, logical_actor_ids: Any) -> Any:
        import ray

        return ray.put({})


class SingleNodeLocations:
    """The location tracker on one node. Ray Data hands it to each pool actor (so it must pickle: class
    attributes only), which reports its node; the driver asks for locations and hears "not known", on which
    Ray Data keeps the node each actor reported when it started."""

    update_actor_location = _Ignored()
    get_actor_locations = _NotKnown()


def serve_ray_data_helpers_here() -> bool:
    """Serve Ray Data's helper actors in this process for the Ray session it is connected to now (an
    embedded one: call right after starting it). Returns whether they are served here."""
    import ray

    if not ray.__version__.startswith(SUPPORTED_RAY):
        return False
    try:
        from ray.data._internal import stats
        from ray.data._internal.cluster_autoscaler import default_autoscaling_coordinator as coordinator
        from ray.data._internal.execution.operators import actor_pool_map_operator as actor_pools
        from ray.data._internal.utils import cached_ray_internals
    except ImportError:  # pragma: no cover -- a Ray release that moved them
        return False
    targets = (
        (stats, "get_or_create_stats_actor"),
        (coordinator, "get_or_create_autoscaling_coordinator"),
        (actor_pools, "get_or_create_actor_location_tracker"),
        (cached_ray_internals, "get_or_create_actor_location_tracker"),
    )
    if not all(hasattr(module, name) for module, name in targets) or not hasattr(
            coordinator, "_AutoscalingCoordinatorActor"):
        return False  # pragma: no cover -- a Ray release that renamed them
    _session.clear()
    _session["node_id"] = ray.get_runtime_context().get_node_id()
    _session["statistics"] = InDriver(NoStatistics())
    _session["locations"] = SingleNodeLocations()
    _session["coordinator_class"] = coordinator._AutoscalingCoordinatorActor
    served = {
        "get_or_create_stats_actor": lambda: _session["statistics"],
        "get_or_create_autoscaling_coordinator": _coordinator,
        "get_or_create_actor_location_tracker": lambda: _session["locations"],
    }
    for module, name in targets:
        original = getattr(module, name)
        original = getattr(original, "__wrapped_by_assay__", original)
        setattr(module, name, _for_this_session(served[name], original))
    return True


def ray_data_helpers_served_here() -> bool:
    """Whether the helper actors of the Ray session this process is connected to are served here."""
    import ray

    return bool(_session) and ray.is_initialized() and (
        ray.get_runtime_context().get_node_id() == _session.get("node_id"))


def _coordinator() -> InDriver:
    if "coordinator" not in _session:
        node_id = _session["node_id"]

        class ThisSessionsCoordinator(_session["coordinator_class"]):  # type: ignore[misc,name-defined]
            """Its refresh thread runs for the life of this process: after the session ends it idles."""

            def _tick(self) -> None:
                if ray_data_helpers_served_here() and _session.get("node_id") == node_id:
                    super()._tick()

        _session["coordinator"] = InDriver(ThisSessionsCoordinator())
    return _session["coordinator"]


def _for_this_session(served: Callable[[], Any], original: Callable[[], Any]) -> Callable[[], Any]:
    def helper() -> Any:
        return served() if ray_data_helpers_served_here() else original()

    helper.__wrapped_by_assay__ = original  # type: ignore[attr-defined]
    return helper
