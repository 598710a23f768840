"""Node pools by GPU type on a Ray cluster, read from the nodes' custom resources (no Ray import here).

The convention (documented in docs/jobs.md): a node says its GPU type with a custom resource
``gpu_type:<name>`` whose amount is its number of devices, e.g.
``ray start --resources '{"gpu_type:a100": 8}'``. Ray's own ``accelerator_type:<NAME>`` (which Ray sets,
amount 1, on a node whose GPUs it detects) is read too where no node has a ``gpu_type:`` resource, so a
cluster of mixed GPUs needs no labels at all. Custom resources exist on every Ray version the project
supports, and a placement-group bundle that asks for one can only land on a node that has it: that is
what binds all of a job's workers to one pool.

Only a cluster of two or more types is *typed*. A cluster of one type (or none) behaves as a cluster
without labels: nothing is asked beyond CPUs and GPUs, so it schedules exactly as before the labels
existed. On a typed cluster a node without a type holds no scheduler workers (label every node, or none).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

log = logging.getLogger(__name__)

#: Custom resource prefix of a node's GPU type (amount: the node's devices of that type).
GPU_TYPE_PREFIX = "gpu_type:"
#: Ray's automatic resource on nodes with detected GPUs (amount 1 per node).
ACCELERATOR_PREFIX = "accelerator_type:"
#: How much of Ray's ``accelerator_type:`` resource one worker asks for (Ray's own idiom for it), so any
#: number of workers fit on the node; the CPUs and GPUs they ask for bound them.
ACCELERATOR_UNITS = 0.001


@dataclass(frozen=True)
class Pools:
    """The GPU type of each live node (None: no type), and for each type the custom resource a worker asks
    for to land in that type's pool, with its amount per worker."""

    node_types: tuple[str | None, ...]
    keys: Mapping[str, tuple[str, float]]

    @property
    def types(self) -> tuple[str, ...]:
        """The types, each once, in node order."""
        return tuple(dict.fromkeys(t for t in self.node_types if t is not None))

    @property
    def typed(self) -> bool:
        """Two or more types: jobs are placed on one type each. One type is a uniform cluster."""
        return len(self.types) > 1


def _node_type(resources: Mapping[str, float], prefix: str) -> str | None:
    names = sorted(k[len(prefix):] for k, v in resources.items() if k.startswith(prefix) and v > 0)
    if len(names) > 1:
        log.warning("a Ray node has several GPU types %s; it is counted as %r (one type per node)", names,
                    names[0])
    return names[0] if names else None


def read_pools(nodes: Sequence[Mapping[str, float]]) -> Pools:
    """The pools of the live nodes ``nodes`` (each node's total resources, as Ray reports them)."""
    explicit = any(k.startswith(GPU_TYPE_PREFIX) for node in nodes for k in node)
    # 0.0: one device's worth per worker, known only from the worker's shape (see shape_on).
    prefix, units = (GPU_TYPE_PREFIX, 0.0) if explicit else (ACCELERATOR_PREFIX, ACCELERATOR_UNITS)
    node_types = tuple(_node_type(node, prefix) for node in nodes)
    return Pools(node_types, {t: (f"{prefix}{t}", units) for t in node_types if t is not None})


def shape_on(shape: Any, pools: Pools, gpu_type: str | None) -> Any:
    """``shape`` (a :class:`~assay.jobs._gang.WorkerShape`) bound to ``gpu_type``'s pool: its bundle also
    asks for the type's resource, one device's worth (``gpu_type:``) or a token (``accelerator_type:``).
    Unchanged on a cluster that is not typed, or for no type."""
    if gpu_type is None or not pools.typed:
        return replace(shape, pool=None, pool_units=1.0)
    if gpu_type not in pools.keys:
        raise ValueError(f"no node pool of GPU type {gpu_type!r}; the cluster has {', '.join(pools.types)}")
    key, units = pools.keys[gpu_type]
    return replace(shape, pool=key, pool_units=units or max(shape.gpus, 1.0))


def node_slots(shape: Any, pools: Pools, nodes: Sequence[Mapping[str, float]]) -> list[int]:
    """Workers of ``shape`` each live node holds: on a typed cluster within its own type's pool (a node
    without a type holds none), else as the shape fits."""
    if not pools.typed:
        return [shape.fit(dict(node)) for node in nodes]
    return [shape_on(shape, pools, t).fit(dict(node)) if t is not None else 0
            for t, node in zip(pools.node_types, nodes, strict=True)]


def pool_slots(shape: Any, pools: Pools, nodes: Sequence[Mapping[str, float]]) -> dict[str | None, int]:
    """Worker slots per GPU type (one entry, None, on a cluster that is not typed)."""
    slots = node_slots(shape, pools, nodes)
    if not pools.typed:
        return {None: sum(slots)}
    out: dict[str | None, int] = dict.fromkeys(pools.types, 0)
    for t, n in zip(pools.node_types, slots, strict=True):
        if t is not None:
            out[t] += n
    return out


def on_largest_pool(shape: Any, nodes: Sequence[Mapping[str, float]]) -> Any:
    """``shape`` bound to the pool that holds the most workers of it (the first such, on a tie), for a job
    no scheduler placed (``assay jobs run``): it must not straddle two types either. Unchanged on a
    cluster that is not typed."""
    pools = read_pools(nodes)
    if not pools.typed:
        return shape
    slots = pool_slots(shape, pools, nodes)
    return shape_on(shape, pools, max(slots, key=lambda t: slots[t]))


def describe(slots: Mapping[str | None, int]) -> str:
    """``a: 4, b: 2`` for the message of a typed cluster."""
    return ", ".join(f"{t}: {n}" for t, n in slots.items())


def type_of_resource(key: str | None) -> str | None:
    """The GPU type a pool resource names (``gpu_type:a100`` -> ``a100``)."""
    if not key:
        return None
    for prefix in (GPU_TYPE_PREFIX, ACCELERATOR_PREFIX):
        if key.startswith(prefix):
            return key[len(prefix):]
    return None
