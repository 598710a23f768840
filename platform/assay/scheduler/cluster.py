"""What the workers are: devices (GPUs or CPU slots) grouped in nodes, their memory and throughput, and
the links between them. Pure data, no Ray: ``from_ray_resources`` takes the plain dicts Ray returns.

Bandwidths are per device and per direction, in bytes/s; latencies in seconds. ``inter_bw`` is what one
device gets across nodes when every device of its node talks at once (node NIC bandwidth / devices).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from assay.registry import REGISTRY

#: The cluster presets' namespace of the one registry (``assay.registry``).
NAMESPACE = "cluster_presets"

GB = 1e9


@dataclass(frozen=True)
class Cluster:
    """A homogeneous cluster. ``num_nodes`` None means "as many nodes as a plan needs"."""

    name: str
    device_kind: str  # "gpu" or "cpu"
    devices_per_node: int
    device_memory_gb: float
    peak_flops: float  # dense half-precision (CPU: float32) FLOP/s per device
    mem_bw: float  # device memory (HBM / DRAM share) bytes/s
    intra_bw: float  # device-to-device inside a node (NVLink; shared memory for gloo)
    intra_latency: float
    inter_bw: float  # per device across nodes (InfiniBand / Ethernet)
    inter_latency: float
    reserved_memory_gb: float = 2.0  # runtime context, communication buffers, fragmentation
    num_nodes: int | None = None
    source: str = ""

    def __post_init__(self) -> None:
        if self.device_kind not in ("gpu", "cpu"):
            raise ValueError(f"cluster {self.name!r}: device_kind must be 'gpu' or 'cpu'")
        for f in ("devices_per_node", "device_memory_gb", "peak_flops", "mem_bw", "intra_bw", "inter_bw"):
            if not getattr(self, f) or getattr(self, f) <= 0:
                raise ValueError(f"cluster {self.name!r}: {f} must be positive")
        if self.num_nodes is not None and self.num_nodes < 1:
            raise ValueError(f"cluster {self.name!r}: num_nodes must be at least 1")

    @property
    def total_devices(self) -> int | None:
        return None if self.num_nodes is None else self.num_nodes * self.devices_per_node

    @property
    def usable_memory_bytes(self) -> float:
        return max(0.0, self.device_memory_gb - self.reserved_memory_gb) * GB

    def nodes_for(self, workers: int) -> int:
        return math.ceil(workers / self.devices_per_node)

    def with_nodes(self, num_nodes: int | None) -> Cluster:
        return replace(self, num_nodes=num_nodes)

    def for_workers(self, workers: int) -> Cluster:
        """The cluster as ``workers`` devices see it. CPU worker slots of an unsized ``cpu`` cluster all
        live on this machine (one node), sharing its memory when there are more slots than cores."""
        if self.device_kind != "cpu" or self.num_nodes not in (None, 1) or workers <= self.devices_per_node:
            return self
        memory = self.device_memory_gb * self.devices_per_node / workers
        return replace(self, devices_per_node=workers, device_memory_gb=memory, num_nodes=1)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    # -- constructors ---------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Cluster:
        """A cluster from ``{"preset": "a100-80g", "num_nodes": 4, ...overrides}`` or from every field."""
        data = dict(data)
        preset = data.pop("preset", None)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown cluster fields: {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        for key, value in list(data.items()):
            data[key] = _coerce(key, value)
        if preset is not None:
            return replace(get_cluster(str(preset)), **data)
        missing = sorted(f.name for f in fields(cls) if f.name not in data and f.default is MISSING)
        if missing:
            raise ValueError(f"cluster file lacks: {', '.join(missing)} (or give a 'preset')")
        return cls(**data)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Cluster:
        """A cluster from a YAML or JSON file (see ``from_dict`` for the keys)."""
        text = Path(path).read_text(encoding="utf-8")
        if str(path).endswith(".json"):
            data = json.loads(text)
        else:
            import yaml

            data = yaml.safe_load(text)
        if not isinstance(data, Mapping):
            raise ValueError(f"{path}: expected a mapping of cluster fields")
        return cls.from_dict(data)

    @classmethod
    def from_ray_resources(cls, resources: Mapping[str, Any] | Iterable[Mapping[str, Any]]) -> Cluster:
        """A cluster from what ``ray.cluster_resources()`` (a dict) or ``ray.nodes()`` (a list of dicts
        with ``Resources`` and ``Alive``) return. GPUs map to the preset named by an
        ``accelerator_type:*`` resource (A100 80 GB unless the type says otherwise); no GPUs gives the
        ``cpu`` preset with one worker per CPU."""
        if isinstance(resources, Mapping):
            totals = dict(resources)
            node_keys = [k for k in totals if k.startswith("node:") and "internal_head" not in k]
            num_nodes = max(1, len(node_keys))
            per_node = [totals] if num_nodes == 1 else None
        else:
            nodes = [n for n in resources if n.get("Alive", True)]
            per_node = [dict(n.get("Resources", n)) for n in nodes]
            if not per_node:
                raise ValueError("no live Ray nodes")
            totals = {}
            for res in per_node:
                for k, v in res.items():
                    if isinstance(v, int | float):
                        totals[k] = totals.get(k, 0) + v
            num_nodes = len(per_node)
        gpus = float(totals.get("GPU", 0) or 0)
        if gpus >= 1:
            accel = next((k.split(":", 1)[1] for k in totals if k.startswith("accelerator_type:")), "")
            base = get_cluster(_preset_for_accelerator(accel))
            per = max(int(res.get("GPU", 0)) for res in per_node) if per_node else round(gpus / num_nodes)
            return replace(base, devices_per_node=max(1, per), num_nodes=num_nodes)
        cpus = float(totals.get("CPU", 0) or 0)
        if cpus < 1:
            raise ValueError("the Ray resources list neither GPUs nor CPUs")
        per = max(int(res.get("CPU", 0)) for res in per_node) if per_node else round(cpus / num_nodes)
        memory = float(totals.get("memory", 0) or 0) / max(cpus, 1)
        base = cpu_cluster(per)
        if memory > 0:
            base = replace(base, device_memory_gb=memory / GB)
        return replace(base, num_nodes=num_nodes)


_INT_FIELDS = {"devices_per_node", "num_nodes"}
_TEXT_FIELDS = {"name", "device_kind", "source"}


def _coerce(key: str, value: Any) -> Any:
    """Numbers from files as numbers (YAML 1.1 reads ``12.5e9`` as text)."""
    if value is None or key in _TEXT_FIELDS:
        return value
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"cluster field {key}: expected a number, got {value!r}") from None
    return int(number) if key in _INT_FIELDS else number


def _preset_for_accelerator(accel: str) -> str:
    a = accel.upper()
    if "H100" in a or "H200" in a or "H800" in a:
        return "h100-80g"
    if "V100" in a:
        return "v100-32g"
    if "A100" in a:
        return "a100-40g" if "40G" in a else "a100-80g"
    return "a100-80g"


def _machine_memory_gb() -> float:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / GB
    except (ValueError, OSError, AttributeError):
        return 16.0


def cpu_cluster(workers: int | None = None) -> Cluster:
    """One node of CPU worker slots talking over gloo (shared-memory TCP). A slot's throughput is a
    float32 estimate for one core running PyTorch; the cost model's fit replaces it with what runs show."""
    slots = workers or os.cpu_count() or 1
    return Cluster(
        name="cpu", device_kind="cpu", devices_per_node=slots,
        device_memory_gb=round(_machine_memory_gb() / slots, 2),
        peak_flops=50e9, mem_bw=10 * GB, intra_bw=2 * GB, intra_latency=100e-6,
        inter_bw=1.25 * GB, inter_latency=200e-6, reserved_memory_gb=0.3,
        source="estimates for one x86 core with AVX2 running PyTorch float32; gloo over loopback",
    )


_A100 = ("NVIDIA A100 datasheet: 312 TFLOP/s dense FP16/BF16, HBM2e 2039 GB/s (80 GB SXM), "
         "NVLink 3 600 GB/s total = 300 GB/s per direction; DGX A100: 8 GPUs, 8x HDR 200 Gb/s InfiniBand")

#: Named clusters (8 devices per node for the GPUs, as in a DGX/HGX server).
_BUILT_IN: tuple[Cluster, ...] = (
    Cluster("a100-80g", "gpu", 8, 80.0, 312e12, 2039 * GB, 300 * GB, 8e-6, 25 * GB, 20e-6, source=_A100),
    Cluster("a100-40g", "gpu", 8, 40.0, 312e12, 1555 * GB, 300 * GB, 8e-6, 25 * GB, 20e-6,
            source=_A100.replace("HBM2e 2039 GB/s (80 GB SXM)", "HBM2 1555 GB/s (40 GB SXM)")),
    Cluster("h100-80g", "gpu", 8, 80.0, 989e12, 3350 * GB, 450 * GB, 6e-6, 50 * GB, 15e-6,
            source="NVIDIA H100 SXM datasheet: 989 TFLOP/s dense BF16, HBM3 3.35 TB/s, NVLink 4 900 GB/s "
                   "total = 450 GB/s per direction; DGX H100: 8x NDR 400 Gb/s InfiniBand"),
    Cluster("v100-32g", "gpu", 8, 32.0, 125e12, 900 * GB, 150 * GB, 10e-6, 6.25 * GB, 25e-6,
            source="NVIDIA V100 SXM2 datasheet: 125 TFLOP/s FP16 tensor, HBM2 900 GB/s, NVLink 2 6 links x "
                   "25 GB/s per direction; DGX-1: 8 GPUs, 4x EDR 100 Gb/s InfiniBand"),
    # The GPU types of Sia's clusters (assay.scheduler.pools.GPU_TYPES), node shapes as there. PCIe 3.0 x16:
    # about 12 GB/s per direction in practice; across nodes the NIC is shared by the node's GPUs.
    Cluster("t4-16g", "gpu", 4, 16.0, 65e12, 320 * GB, 12 * GB, 10e-6, 50e9 / 8 / 4, 30e-6,
            source="NVIDIA T4 datasheet: 65 TFLOP/s FP16 tensor, 320 GB/s GDDR6, PCIe 3.0; AWS g4dn.12xlarge: "
                   "4 T4, 50 Gb/s network"),
    Cluster("rtx2080ti-11g", "gpu", 8, 11.0, 107e12, 616 * GB, 12 * GB, 10e-6, 100e9 / 8 / 8, 30e-6,
            source="Turing TU102 whitepaper: 107 TFLOP/s FP16 tensor, 616 GB/s GDDR6, PCIe 3.0; 100 Gb/s "
                   "network assumed"),
    Cluster("quadro-rtx6000-24g", "gpu", 4, 24.0, 130e12, 672 * GB, 12 * GB, 10e-6, 100e9 / 8 / 4, 30e-6,
            source="Quadro RTX 6000 datasheet: 130 TFLOP/s FP16 tensor, 672 GB/s GDDR6, PCIe 3.0; 100 Gb/s "
                   "network assumed"),
    cpu_cluster(),
)
for _preset in _BUILT_IN:
    REGISTRY.register(NAMESPACE, _preset.name, _preset)
#: The presets by name: a read-only view of the registry's ``cluster_presets`` namespace (register more there).
PRESETS: Mapping[str, Cluster] = REGISTRY.view(NAMESPACE)

ALIASES: dict[str, str] = {
    "a100": "a100-80g", "a100-80gb": "a100-80g", "a100-sxm4-80gb": "a100-80g", "a100-40gb": "a100-40g",
    "a100-sxm4-40gb": "a100-40g", "h100": "h100-80g", "h100-80gb": "h100-80g", "h100-sxm": "h100-80g",
    "v100": "v100-32g", "v100-32gb": "v100-32g", "v100-sxm2-32gb": "v100-32g", "gloo": "cpu",
    # the short GPU-type names of heterogeneous clusters (assay.scheduler.pools)
    "t4": "t4-16g", "aws": "t4-16g", "rtx2080ti": "rtx2080ti-11g", "rtx-2080-ti": "rtx2080ti-11g",
    "rtx": "rtx2080ti-11g", "quadro-rtx-6000": "quadro-rtx6000-24g", "quad": "quadro-rtx6000-24g",
    "dgx-ext": "a100-40g",
}


def preset_names() -> list[str]:
    return list(PRESETS)


def get_cluster(name: str, num_nodes: int | None = None) -> Cluster:
    """The preset called ``name`` (case-insensitive; common spellings such as ``A100-SXM4-80GB`` too);
    :class:`assay.registry.UnknownName` (a ``KeyError``) listing the valid ones and the closest."""
    key = _normalise(name)
    key = ALIASES.get(key, key)
    cluster = REGISTRY.get(NAMESPACE, key)
    if key == "cpu":  # this machine's CPUs, counted now
        cluster = cpu_cluster()
    return cluster.with_nodes(num_nodes) if num_nodes is not None else cluster


def find_cluster(name: str | None) -> Cluster | None:
    """The preset a hardware string from a log names (``NVIDIA A100-SXM4-80GB``, ``8xA100``, ``cpu``), or None."""
    if not name:
        return None
    key = _normalise(name)
    key = re.sub(r"^(nvidia[- ]?|tesla[- ]?|\d+\s*x\s*)+", "", key)
    try:
        return get_cluster(key)
    except KeyError:
        pass
    for token, preset in (("h100", "h100-80g"), ("h200", "h100-80g"), ("v100", "v100-32g"), ("a100", None)):
        if token in key:
            return get_cluster(preset or ("a100-40g" if "40g" in key else "a100-80g"))
    if key.startswith("cpu") or "gloo" in key:
        return get_cluster("cpu")
    return None


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")
