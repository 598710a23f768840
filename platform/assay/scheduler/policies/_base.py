"""The policy interface shared by the live scheduler and the simulator.

Each scheduling round the caller hands a policy what it may know (``JobView`` per active job, the
``ClusterView``) and gets back one ``Decision`` per job. Policies are plain Python objects that may keep
state between rounds; they never see the simulator's ground truth, only each job's learned model.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from assay.registry import REGISTRY
from assay.scheduler.policies._goodput_model import BatchLimits, GoodputModel


@dataclass
class JobView:
    """One active (submitted, unfinished) job as a policy sees it.

    ``workers``/``placement`` are the current allocation (``placement``: the node of each worker, in
    order). ``attained_service`` is in worker-seconds. ``model`` is what has been learned about the job's
    speed (or seeded from the knowledge graph); ``limits`` its batch-size rules.
    """

    job_id: str
    submit_time: float
    requested_workers: int
    priority: int = 0
    min_workers: int = 1
    max_workers: int | None = None
    requested_batch: int | None = None
    workers: int = 0
    placement: tuple[int, ...] = ()
    batch_size: int | None = None
    attained_service: float = 0.0
    restarts: int = 0
    limits: BatchLimits | None = None
    model: GoodputModel | None = None
    #: On a cluster of several GPU types: the type it runs on, one learned model per type it has run on,
    #: its single-GPU throughput per type (samples/s, profiled when it arrives, as Sia does) and the
    #: seconds a move (checkpoint-restore) costs it. None/empty on a one-type cluster.
    gpu_type: str | None = None
    models: Mapping[str, GoodputModel] | None = None
    type_speed: Mapping[str, float] | None = None
    restart_s: float | None = None

    @property
    def running(self) -> bool:
        return self.workers > 0

    @property
    def upper_workers(self) -> int:
        """The most workers this job can use (its own maximum and what its batch limits allow)."""
        upper = self.max_workers if self.max_workers is not None else 1 << 30
        if self.limits is not None:
            upper = min(upper, self.limits.max_workers())
        return max(upper, 0)


@dataclass(frozen=True)
class ClusterView:
    """Nodes and their workers. ``capacity[i]`` workers exist on node i; ``used`` counts the workers the
    current allocations hold on each node (empty tuple = nothing allocated)."""

    capacity: tuple[int, ...]
    used: tuple[int, ...] = ()
    #: The GPU type of each node (empty: one unnamed type); a job's workers all sit on one type.
    node_types: tuple[str, ...] = ()

    @classmethod
    def uniform(cls, nodes: int, per_node: int) -> ClusterView:
        return cls(capacity=(per_node,) * nodes)

    @property
    def total(self) -> int:
        return sum(self.capacity)

    @property
    def free(self) -> tuple[int, ...]:
        if not self.used:
            return self.capacity
        return tuple(c - u for c, u in zip(self.capacity, self.used, strict=True))

    @property
    def free_total(self) -> int:
        return sum(self.free)

    @property
    def gpus_per_node(self) -> int:
        return max(self.capacity, default=0)

    @property
    def types(self) -> tuple[str, ...]:
        """The GPU types, each once, in node order (empty on a one-type cluster)."""
        return tuple(dict.fromkeys(self.node_types))

    def total_of(self, gpu_type: str) -> int:
        return sum(c for c, t in zip(self.capacity, self.node_types, strict=True) if t == gpu_type)

    def per_node_of(self, gpu_type: str) -> int:
        return max((c for c, t in zip(self.capacity, self.node_types, strict=True) if t == gpu_type), default=0)


@dataclass(frozen=True)
class Decision:
    """What a job gets this round: ``workers`` (0 = not running / preempted), optionally the total
    ``batch_size`` and the ``placement`` (the node of each worker), and why. ``adaptive_batch``: the job
    may re-tune its batch size between epochs with its own goodput model (as AdaptDL jobs do), starting
    from ``batch_size``."""

    workers: int
    reason: str
    batch_size: int | None = None
    placement: tuple[int, ...] | None = None
    adaptive_batch: bool = False
    gpu_type: str | None = None


@runtime_checkable
class Policy(Protocol):
    name: str

    def decide(self, jobs: Sequence[JobView], cluster: ClusterView, now: float) -> dict[str, Decision]:
        """One decision for every job in ``jobs``."""
        ...


#: The policies' namespace of the one registry (``assay.registry``).
NAMESPACE = "policies"


def register_policy(name: str, factory: Callable[..., Policy] | None = None):
    """Register a policy factory under ``name`` (usable as a decorator). Re-registering a name replaces it."""

    def add(f: Callable[..., Policy]) -> Callable[..., Policy]:
        return REGISTRY.register(NAMESPACE, name, f)

    return add(factory) if factory is not None else add


def available_policies() -> list[str]:
    return sorted(REGISTRY.names(NAMESPACE))


def get_policy(name: str, **knobs: Any) -> Policy:
    """A fresh policy object; ``knobs`` go to its constructor. :class:`assay.registry.UnknownName` (a
    ``KeyError``) lists the known names and the closest ones."""
    factory = REGISTRY.get(NAMESPACE, name)
    try:
        return factory(**knobs)
    except TypeError as exc:
        raise TypeError(f"policy {name!r}: {exc}") from None
