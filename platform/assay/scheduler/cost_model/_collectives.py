"""Alpha-beta times of the collectives a parallel layout issues, with ranks placed as Megatron-LM places
them: tensor-parallel ranks consecutive (inside a node), data-parallel ranks next, pipeline stages
outermost.

A collective costs ``alpha`` per step plus its bytes over the bandwidth the group gets. A group with ``k``
members in each of several nodes runs hierarchically (reduce inside the node over NVLink, then across
nodes, each member through its own NIC): it gets ``k`` NICs' worth of bandwidth across nodes, or the
bandwidth inside the node when that is smaller. Which link limits is decided on nominal bandwidths, so
a time stays linear in the fitted efficiencies (see ``_analytic.Rates``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from assay.scheduler.cluster import Cluster


@dataclass(frozen=True)
class Link:
    bw: float  # nominal bytes/s one member of the group gets
    alpha: float  # nominal seconds per message step
    limit: str  # "intra" or "inter": whose efficiency applies
    crosses_nodes: bool


def group_link(cluster: Cluster, size: int, stride: int) -> Link:
    """The link a group of ``size`` ranks spaced ``stride`` apart uses."""
    node = cluster.devices_per_node
    span = stride * size
    if size <= 1 or (span <= node and node % span == 0):
        return Link(cluster.intra_bw, cluster.intra_latency, "intra", False)
    per_node = max(1, min(size, node // stride)) if stride < node else 1
    inter = per_node * cluster.inter_bw
    if inter < cluster.intra_bw:
        return Link(inter, cluster.inter_latency, "inter", True)
    return Link(cluster.intra_bw, cluster.inter_latency, "intra", True)


def allreduce_time(nbytes: float, size: int, link: Link, rates: Any) -> Any:
    """Ring bandwidth term 2(n-1)/n * bytes / bw; latency grows with log2(n) as with NCCL's trees."""
    if size <= 1 or nbytes <= 0:
        return 0.0
    latency = 2 * math.ceil(math.log2(size)) * link.alpha * rates.latency
    return latency + 2 * (size - 1) / size * nbytes / link.bw * rates.inverse_bw(link.limit)


def p2p_time(nbytes: float, link: Link, rates: Any) -> Any:
    if nbytes <= 0:
        return 0.0
    return link.alpha * rates.latency + nbytes / link.bw * rates.inverse_bw(link.limit)
