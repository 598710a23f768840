"""What a scheduler drives jobs through: the queue's specs, the supervisor that runs one job, the requests
users leave for it, worker shapes and feasible sizes, the cluster's node pools by GPU type (``read_pools``:
the type of each node, ``node_slots``/``pool_slots``: worker slots per node and per type, ``shape_on``: a
worker shape bound to one type's pool), and the ownership and retry rules of the database.

``assay.live.scheduler`` (the live scheduler) is its user; the names here are the jobs package's contract
with it. ``JobSupervisor`` and ``cluster_totals`` load torch or Ray, so they are imported on first use:
importing this module imports neither.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from assay.jobs._admission import worker_shape
from assay.jobs._layout import feasible_workers
from assay.jobs._pools import Pools, node_slots, pool_slots, read_pools, shape_on
from assay.jobs._record import db_call, owner_alive, owner_id
from assay.jobs.runner import RequestPoller, jobs_dir, request_cancel
from assay.jobs.spec import JobSpec, from_json

if TYPE_CHECKING:
    from assay.jobs._gang import cluster_totals
    from assay.jobs._supervisor import JobSupervisor

#: Names whose modules import torch or Ray, loaded when first asked for.
_ON_USE = {"JobSupervisor": "assay.jobs._supervisor", "cluster_totals": "assay.jobs._gang"}

__all__ = ["JobSpec", "JobSupervisor", "Pools", "RequestPoller", "cluster_totals", "db_call", "feasible_workers",
           "from_json", "jobs_dir", "node_slots", "owner_alive", "owner_id", "pool_slots", "read_pools",
           "request_cancel", "shape_on", "worker_shape"]


def __getattr__(name: str) -> Any:
    if name in _ON_USE:
        return getattr(importlib.import_module(_ON_USE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
