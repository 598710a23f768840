"""A cluster of several GPU types: node pools by type, parsed from ``aws:6x4,rtx:3x8,dgx-ext:2x8``.

A job runs on one type at a time (its workers all sit in one pool), so the simulator and the policies see
each node's type beside its capacity (``ClusterSpec.node_types``). A one-type cluster is the old uniform
one: ``ClusterSpec.uniform(64, 4)`` gives the same nodes as ``--gpus 64 --gpus-per-node 4``.

``GPU_TYPES`` holds what the planner and the cost model need per type (memory, dense half-precision peak,
memory and link bandwidth); the short names are those of Sia's artifact (``aws`` = T4 nodes, ``rtx`` =
RTX 2080 Ti, ``dgx-ext`` = A100 40 GB, ``quad`` = Quadro RTX 6000, ``azure`` = V100).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

GB = 1e9


@dataclass(frozen=True)
class GpuType:
    """One GPU generation as a pool holds it. ``peak_flops`` is dense FP16/BF16 tensor FLOP/s."""

    name: str
    model: str
    gpus_per_node: int
    memory_gb: float
    peak_flops: float
    mem_bw: float
    intra: str  # how GPUs of a node talk: "nvlink" or "pcie"
    source: str = ""


#: GPU types by short name (datasheet figures; the node shapes of the clusters in Sia's evaluation).
GPU_TYPES: dict[str, GpuType] = {t.name: t for t in (
    GpuType("aws", "NVIDIA T4", 4, 16.0, 65e12, 320 * GB, "pcie",
            "T4 datasheet: 65 TFLOP/s FP16 tensor, 320 GB/s GDDR6; 4 a node as in AWS g4dn.12xlarge"),
    GpuType("rtx", "NVIDIA RTX 2080 Ti", 8, 11.0, 107e12, 616 * GB, "pcie",
            "Turing TU102 whitepaper: 107 TFLOP/s FP16 tensor (FP16 accumulate), 616 GB/s GDDR6"),
    GpuType("dgx-ext", "NVIDIA A100 40GB", 8, 40.0, 312e12, 1555 * GB, "nvlink",
            "A100 datasheet: 312 TFLOP/s FP16 tensor, 1555 GB/s HBM2, NVLink 3"),
    GpuType("quad", "NVIDIA Quadro RTX 6000", 4, 24.0, 130e12, 672 * GB, "pcie",
            "Quadro RTX 6000 datasheet: 130 TFLOP/s FP16 tensor, 672 GB/s GDDR6"),
    GpuType("azure", "NVIDIA V100 16GB", 8, 16.0, 125e12, 900 * GB, "nvlink",
            "V100 datasheet: 125 TFLOP/s FP16 tensor, 900 GB/s HBM2, NVLink 2"),
    GpuType("dgx", "NVIDIA A100 (DGX)", 8, 40.0, 312e12, 1555 * GB, "nvlink",
            "assumed A100-class: the artifact names the type only"),
    GpuType("gpu", "one unnamed type", 4, 80.0, 312e12, 2039 * GB, "nvlink",
            "the single type of a uniform cluster (--gpus N --gpus-per-node G)"),
)}


@dataclass(frozen=True)
class NodePool:
    gpu_type: str
    nodes: int
    gpus_per_node: int

    def __post_init__(self) -> None:
        if self.nodes < 1 or self.gpus_per_node < 1:
            raise ValueError(f"pool {self.gpu_type}: nodes and GPUs per node must be at least 1")

    @property
    def gpus(self) -> int:
        return self.nodes * self.gpus_per_node

    def __str__(self) -> str:
        return f"{self.gpu_type}:{self.nodes}x{self.gpus_per_node}"


_POOL = re.compile(r"^([a-z0-9][a-z0-9_.-]*):(\d+)(?:x(\d+))?$")


@dataclass(frozen=True)
class ClusterSpec:
    """Node pools in order; nodes are numbered pool by pool (a placement's node indices). A type may have
    several pools of different node shapes."""

    pools: tuple[NodePool, ...]
    name: str = ""

    def __post_init__(self) -> None:
        if not self.pools:
            raise ValueError("a cluster needs at least one node pool")

    @classmethod
    def uniform(cls, gpus: int, gpus_per_node: int, gpu_type: str = "gpu") -> ClusterSpec:
        """``gpus`` of one type; a last, smaller node holds the rest (as the simulator always did)."""
        if gpus < 1 or gpus_per_node < 1:
            raise ValueError("gpus and gpus_per_node must be positive")
        full, rest = divmod(gpus, gpus_per_node)
        pools = ((NodePool(gpu_type, full, gpus_per_node),) if full else ()) + (
            (NodePool(gpu_type, 1, rest),) if rest else ())
        return cls(pools, f"{gpu_type}:{gpus}")

    @classmethod
    def parse(cls, text: str) -> ClusterSpec:
        """``aws:6x4,rtx:3x8`` (type:NODESxGPUS, GPUS defaulting to the type's node shape) or a preset name
        (``sia-64``, ``sia-64-homogeneous``, ``phoebe-44``)."""
        key = text.strip().lower()
        if key in CLUSTER_PRESETS:
            return cls(CLUSTER_PRESETS[key].pools, key)
        pools = []
        for part in filter(None, (p.strip() for p in key.split(","))):
            m = _POOL.match(part)
            if not m:
                raise ValueError(f"cluster {text!r}: {part!r} is not TYPE:NODESxGPUS (e.g. aws:6x4); presets: "
                                 f"{', '.join(CLUSTER_PRESETS)}")
            gpu_type, nodes, per = m.group(1), int(m.group(2)), m.group(3)
            if per is None:
                if gpu_type not in GPU_TYPES:
                    raise ValueError(f"cluster {text!r}: say GPUs per node for the unknown type {gpu_type!r}")
                per_node = GPU_TYPES[gpu_type].gpus_per_node
            else:
                per_node = int(per)
            pools.append(NodePool(gpu_type, nodes, per_node))
        return cls(tuple(pools), ",".join(map(str, pools)))

    # -- what the simulator and the policies read -------------------------------------------------------
    @property
    def capacity(self) -> tuple[int, ...]:
        return tuple(p.gpus_per_node for p in self.pools for _ in range(p.nodes))

    @property
    def node_types(self) -> tuple[str, ...]:
        return tuple(p.gpu_type for p in self.pools for _ in range(p.nodes))

    @property
    def total(self) -> int:
        return sum(self.capacity)

    @property
    def types(self) -> tuple[str, ...]:
        """The GPU types, each once, in the order of their first pool."""
        return tuple(dict.fromkeys(p.gpu_type for p in self.pools))

    @property
    def heterogeneous(self) -> bool:
        return len(self.types) > 1

    def gpus_of(self, gpu_type: str) -> int:
        return sum(p.gpus for p in self.pools if p.gpu_type == gpu_type)

    def info(self, gpu_type: str) -> GpuType | None:
        return GPU_TYPES.get(gpu_type)

    def __iter__(self) -> Iterator[NodePool]:
        return iter(self.pools)

    def __str__(self) -> str:
        return ",".join(map(str, self.pools))


#: The clusters of Sia's evaluation (SOSP'23): the 64-GPU heterogeneous and homogeneous simulated ones and
#: the 44-GPU physical one.
CLUSTER_PRESETS: dict[str, ClusterSpec] = {}
for _name, _text in (("sia-64", "aws:6x4,rtx:3x8,dgx-ext:2x8"), ("sia-64-homogeneous", "aws:16x4"),
                     ("phoebe-44", "rtx:3x8,dgx-ext:2x8,quad:1x4")):
    CLUSTER_PRESETS[_name] = ClusterSpec(ClusterSpec.parse(_text).pools, _name)
