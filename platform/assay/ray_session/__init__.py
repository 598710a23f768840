"""The one Ray boundary: everything of assay's pipelines that touches Ray, on Ray's public API only.

Connecting (an address, ``RAY_ADDRESS`` or an embedded instance), token authentication, quiet logs and the
shutdown are in ``_session``/``_auth``; the cluster's resources, its live nodes and shipping a user's module
by value in ``_cluster``; the Ray Data plan's calls (blocks cut in the driver, task and actor stages, Arrow
batches, the no-progress guard, the stages named from ``ray.util.state``) in ``_data``; job control's gangs
of actors (placement groups, actors started in them, calls on them awaited with a time limit, a training
worker's own node and GPUs) in ``gangs`` (``from assay.ray_session import gangs``). The runtime, job control,
the live scheduler and the training workers sit above it and import it; it imports none of them.

Ray is imported on first use, so importing this package costs nothing and the local runner never loads Ray.
Lint rules (``tests/unit/test_layers.py``) fail on any import of Ray outside this package, and on any import
of ``ray._private``, ``ray._raylet`` or ``ray.*._internal`` anywhere; ``make test-compat`` runs the runtime
on the oldest Ray of the supported range.
"""

from __future__ import annotations

from assay.ray_session._auth import prefer_token_auth, token_available
from assay.ray_session._cluster import LiveNode, cluster_resources, live_nodes, node_cpus, ship_by_value
from assay.ray_session._data import (
    add_actor_stage,
    add_task_stage,
    arrow_batches,
    free_cpus,
    items_dataset,
    ray_datas_timeout_error,
    restore_no_progress_timeout,
    running_stages,
    set_no_progress_timeout,
    union,
)
from assay.ray_session._errors import ClusterError
from assay.ray_session._session import (
    _connection_problem,
    _late_token,
    cluster_address,
    ensure_ray,
    own_autoscaler_monitors,
    quiet_ray,
    shutdown_ray,
    use_cluster_token,
)

__all__ = ["ClusterError", "LiveNode", "add_actor_stage", "add_task_stage", "arrow_batches", "cluster_address",
           "cluster_resources", "ensure_ray", "free_cpus", "items_dataset", "live_nodes", "node_cpus", "own_autoscaler_monitors", "prefer_token_auth",
           "quiet_ray", "ray_datas_timeout_error", "restore_no_progress_timeout", "running_stages",
           "set_no_progress_timeout", "ship_by_value", "shutdown_ray", "token_available", "union",
           "use_cluster_token"]
# Kept reachable here for the tests that read a refusal's wording and the late-token flag.
_ = (_connection_problem, _late_token)
