"""Putting a job's workers on nodes. A placement is the node of each worker, in the order chosen."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, MutableSequence, Sequence


def free_after(capacity: Sequence[int], placements: Iterable[Sequence[int]]) -> list[int]:
    """Free workers per node once ``placements`` are taken out of ``capacity``."""
    free = list(capacity)
    for placement in placements:
        for node in placement:
            free[node] -= 1
    return free


def spread(count: int, free: MutableSequence[int]) -> tuple[int, ...] | None:
    """Node with the most free workers first (ties: lowest index), as the Tiresias simulator of Pollux's
    artifact does. Takes the workers out of ``free``; None (and ``free`` untouched) if they do not fit."""
    if count <= 0:
        return ()
    if sum(free) < count:
        return None
    out: list[int] = []
    while len(out) < count:
        node = max(range(len(free)), key=lambda i: (free[i], -i))
        take = min(free[node], count - len(out))
        out.extend([node] * take)
        free[node] -= take
    return tuple(out)


def pack(count: int, free: MutableSequence[int]) -> tuple[int, ...] | None:
    """As few nodes as possible: whole free nodes first, the rest on the fullest node that holds it
    (best fit), so whole nodes stay free for large jobs. Takes the workers out of ``free``."""
    if count <= 0:
        return ()
    if sum(free) < count:
        return None
    out: list[int] = []
    remaining = count
    taken: set[int] = set()
    while remaining > 0:
        best = None
        for i, f in enumerate(free):
            if i not in taken and f >= remaining and (best is None or f < free[best]):
                best = i
        if best is not None:
            out.extend([best] * remaining)
            free[best] -= remaining
            break
        # Nothing holds the rest: take the node with the most free workers and go on.
        node = max((i for i in range(len(free)) if i not in taken), key=lambda i: (free[i], -i))
        take = min(free[node], remaining)
        out.extend([node] * take)
        free[node] -= take
        taken.add(node)
        remaining -= take
    return tuple(out)


PLACERS = {"spread": spread, "pack": pack}


def place_typed(place, count: int, free: MutableSequence[int], node_types: Sequence[str],
                gpu_type: str | None = None) -> tuple[int, ...] | None:
    """``place`` (``pack`` or ``spread``) on the nodes of one GPU type: ``gpu_type``, or else the type
    with the most free workers that holds the job. Without ``node_types`` it is ``place(count, free)``.
    Takes the workers out of ``free``; None if no single type holds them."""
    if not node_types:
        return place(count, free)
    if gpu_type is not None:
        candidates = [gpu_type]
    else:
        room: dict[str, int] = {}
        for f, t in zip(free, node_types, strict=True):
            room[t] = room.get(t, 0) + f
        candidates = sorted(room, key=lambda t: -room[t])
    for t in candidates:
        masked = [f if node_types[i] == t else 0 for i, f in enumerate(free)]
        placement = place(count, masked)
        if placement is not None:
            for node in placement:
                free[node] -= 1
            return placement
    return None


def node_counts(placement: Sequence[int]) -> tuple[int, ...]:
    """Workers per node, nodes in order of first appearance: (3, 3, 5) -> (2, 1)."""
    counts: dict[int, int] = {}
    for node in placement:
        counts[node] = counts.get(node, 0) + 1
    return tuple(counts.values())


class FreePool:
    """Free workers per node for placing many jobs in one round: ``pack`` and ``spread`` as the
    functions above, in time independent of the number of nodes (nodes bucketed by free workers)."""

    def __init__(self, free: Sequence[int]):
        self.free = list(free)
        self._top = max(self.free, default=0)
        self._buckets: list[list[int]] = [[] for _ in range(self._top + 1)]
        for node, f in enumerate(self.free):
            self._buckets[f].append(node)  # ascending node order within a bucket
        self.total = sum(self.free)

    def _take(self, node: int, count: int) -> None:
        f = self.free[node]
        bucket = self._buckets[f]
        bucket.pop(bisect.bisect_left(bucket, node))
        self.free[node] = f - count
        bisect.insort(self._buckets[f - count], node)
        self.total -= count

    def _fullest_fit(self, count: int, taken: set[int]) -> int | None:
        for f in range(count, self._top + 1):
            for node in self._buckets[f]:
                if node not in taken:
                    return node
        return None

    def _most_free(self, taken: set[int]) -> int:
        for f in range(self._top, 0, -1):
            for node in self._buckets[f]:
                if node not in taken:
                    return node
        raise ValueError("no free worker left")

    def pack(self, count: int) -> tuple[int, ...] | None:
        if count <= 0:
            return ()
        if self.total < count:
            return None
        out: list[int] = []
        taken: set[int] = set()
        while count > 0:
            node = self._fullest_fit(count, taken)
            if node is not None:
                out.extend([node] * count)
                self._take(node, count)
                break
            node = self._most_free(taken)
            take = self.free[node]
            out.extend([node] * take)
            self._take(node, take)
            taken.add(node)
            count -= take
        return tuple(out)

    def spread(self, count: int) -> tuple[int, ...] | None:
        if count <= 0:
            return ()
        if self.total < count:
            return None
        out: list[int] = []
        while count > 0:
            node = self._most_free(set())
            take = min(self.free[node], count)
            out.extend([node] * take)
            self._take(node, take)
            count -= take
        return tuple(out)
