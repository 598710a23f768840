"""Process groups for a (dp, tp, pp) layout and the communication the model parallel layers need.

Ranks are numbered with tensor parallelism innermost, then pipeline, then data (Megatron's order):
``rank = (dp_rank * pp + pp_rank) * tp + tp_rank``, so the ranks of one tensor-parallel group sit next to
each other (on one node where possible) and the ranks of one pipeline stage boundary differ by ``tp``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
import torch.distributed as dist

from assay.domain.layout import Layout


def rank_of(layout: Layout, dp_rank: int, pp_rank: int, tp_rank: int) -> int:
    return (dp_rank * layout.pp + pp_rank) * layout.tp + tp_rank


@dataclass
class Groups:
    """This rank's place in the layout and its process groups (None when a dimension has size 1)."""

    layout: Layout
    rank: int
    dp_rank: int
    pp_rank: int
    tp_rank: int
    dp_group: Any = None
    tp_group: Any = None
    pp_group: Any = None

    @property
    def first_stage(self) -> bool:
        return self.pp_rank == 0

    @property
    def last_stage(self) -> bool:
        return self.pp_rank == self.layout.pp - 1

    @property
    def next_rank(self) -> int:
        return rank_of(self.layout, self.dp_rank, self.pp_rank + 1, self.tp_rank)

    @property
    def prev_rank(self) -> int:
        return rank_of(self.layout, self.dp_rank, self.pp_rank - 1, self.tp_rank)

    @classmethod
    def single(cls) -> Groups:
        return cls(Layout(), 0, 0, 0, 0)


def build_groups(layout: Layout, rank: int) -> Groups:
    """Create the dp, tp and pp groups. Every rank must call this with the same layout, since
    ``new_group`` is collective over the whole world and must see the groups in the same order."""
    dp_rank, pp_rank, tp_rank = layout.coords(rank)
    groups = Groups(layout, rank, dp_rank, pp_rank, tp_rank)
    if layout.world_size == 1:
        return groups
    for d in range(layout.dp):
        for p in range(layout.pp):
            ranks = [rank_of(layout, d, p, t) for t in range(layout.tp)]
            g = dist.new_group(ranks) if layout.tp > 1 else None
            if rank in ranks:
                groups.tp_group = g
    for p in range(layout.pp):
        for t in range(layout.tp):
            ranks = [rank_of(layout, d, p, t) for d in range(layout.dp)]
            g = dist.new_group(ranks) if layout.dp > 1 else None
            if rank in ranks:
                groups.dp_group = g
    for d in range(layout.dp):
        for t in range(layout.tp):
            ranks = [rank_of(layout, d, p, t) for p in range(layout.pp)]
            g = dist.new_group(ranks) if layout.pp > 1 else None
            if rank in ranks:
                groups.pp_group = g
    return groups


def all_reduce(tensor: torch.Tensor, group: Any) -> torch.Tensor:
    """Sum ``tensor`` in place over ``group``; a no-op for a group of one (None)."""
    if group is not None:
        dist.all_reduce(tensor, group=group)
    return tensor


class _CopyToTensorParallel(torch.autograd.Function):
    """Megatron's ``f``: identity forward, all-reduce of the input's gradient backward (entering a
    column-parallel layer, whose shards each see only part of the output)."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, group: Any) -> torch.Tensor:
        ctx.group = group
        return x

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[torch.Tensor, None]:
        return all_reduce(grad.contiguous(), ctx.group), None


class _ReduceFromTensorParallel(torch.autograd.Function):
    """Megatron's ``g``: all-reduce forward (summing a row-parallel layer's partial products), identity
    backward."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, group: Any) -> torch.Tensor:
        return all_reduce(x.contiguous(), group)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[torch.Tensor, None]:
        return grad, None


def copy_to_tp(x: torch.Tensor, group: Any) -> torch.Tensor:
    return x if group is None else _CopyToTensorParallel.apply(x, group)


def reduce_from_tp(x: torch.Tensor, group: Any) -> torch.Tensor:
    return x if group is None else _ReduceFromTensorParallel.apply(x, group)


# -- pipeline point-to-point ---------------------------------------------------------------------------
# Paired isend/irecv, as Megatron's p2p_communication does: in the 1F1B steady state a stage sends its
# activation forward while the next one sends a gradient back, and two blocking sends would deadlock.

def _exchange(send: torch.Tensor | None, send_to: int | None, recv_like: torch.Tensor | None,
              recv_from: int | None) -> torch.Tensor | None:
    ops = []
    received = None
    if send is not None and send_to is not None:
        ops.append(dist.isend(send.detach().contiguous(), send_to))
    if recv_like is not None and recv_from is not None:
        received = torch.empty_like(recv_like)
        ops.append(dist.irecv(received, recv_from))
    for op in ops:
        op.wait()
    return received


class PipeComm:
    """Activation and gradient exchange between neighbouring pipeline stages of one (dp, tp) column."""

    def __init__(self, groups: Groups, shape: tuple[int, ...], dtype: torch.dtype, device: torch.device):
        self.g = groups
        self.template = torch.empty(shape, dtype=dtype, device=device)

    def recv_forward(self) -> torch.Tensor | None:
        if self.g.first_stage:
            return None
        return _exchange(None, None, self.template, self.g.prev_rank)

    def send_forward(self, y: torch.Tensor) -> None:
        if not self.g.last_stage:
            _exchange(y, self.g.next_rank, None, None)

    def recv_backward(self) -> torch.Tensor | None:
        if self.g.last_stage:
            return None
        return _exchange(None, None, self.template, self.g.next_rank)

    def send_backward(self, grad: torch.Tensor | None) -> None:
        if not self.g.first_stage and grad is not None:
            _exchange(grad, self.g.prev_rank, None, None)

    def send_forward_recv_backward(self, y: torch.Tensor) -> torch.Tensor | None:
        if self.g.last_stage:
            return None
        return _exchange(y, self.g.next_rank, self.template, self.g.next_rank)

    def send_backward_recv_forward(self, grad: torch.Tensor | None) -> torch.Tensor | None:
        if self.g.first_stage:
            return None
        return _exchange(grad, self.g.prev_rank, self.template, self.g.prev_rank)
