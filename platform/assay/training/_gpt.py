"""A GPT-style decoder that can be cut into pipeline stages and split over tensor-parallel ranks.

Every parameter has a *canonical* name, the one it has in the unsplit single-worker model
(``layers.3.attn.q.weight``); a stage holds the canonical names of its layers, and a tensor-parallel rank
holds one slice of each split parameter (:data:`SPLIT_DIM`). Canonical names and slicing rules are what
make checkpoints independent of the layout: a checkpoint stores full tensors by canonical name, and any
layout takes its slices from them.

Tensor parallelism follows Megatron-LM: the query/key/value and first feed-forward projections are
column-parallel (output features, and so attention heads, split over ranks); the attention output and
second feed-forward projections are row-parallel (input features split, partial products all-reduced).
"""

from __future__ import annotations

import math
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from assay.domain.model_spec import ModelSpec
from assay.ids import stable_id
from assay.training._parallel import Groups, copy_to_tp, reduce_from_tp

#: The dimension along which a canonical parameter is split over tensor-parallel ranks (by name suffix).
SPLIT_DIM: dict[str, int] = {
    "attn.q.weight": 0, "attn.q.bias": 0, "attn.k.weight": 0, "attn.k.bias": 0,
    "attn.v.weight": 0, "attn.v.bias": 0, "attn.o.weight": 1,
    "mlp.fc1.weight": 0, "mlp.fc1.bias": 0, "mlp.fc2.weight": 1,
}


def split_dim(name: str) -> int | None:
    """The tensor-parallel split dimension of a canonical parameter, None if it is replicated."""
    for suffix, dim in SPLIT_DIM.items():
        if name.endswith(suffix):
            return dim
    return None


def stage_bounds(layers: int, pp: int, bounds: list[int] | None = None) -> list[tuple[int, int]]:
    """[start, end) layer ranges of each pipeline stage. ``bounds`` (pp + 1 cut points, as a planner
    gives them) wins when it is valid; else layers are spread evenly, earlier stages taking the extra."""
    if bounds and len(bounds) == pp + 1 and bounds[0] == 0 and bounds[-1] == layers and all(
        a < b for a, b in zip(bounds, bounds[1:], strict=False)
    ):
        return [(bounds[i], bounds[i + 1]) for i in range(pp)]
    base, extra = divmod(layers, pp)
    out, start = [], 0
    for s in range(pp):
        end = start + base + (1 if s < extra else 0)
        out.append((start, end))
        start = end
    return out


def canonical_shapes(cfg: ModelSpec) -> dict[str, tuple[int, ...]]:
    """Every parameter of the full model and its shape, in a fixed order."""
    h, f, v, s = cfg.hidden, cfg.ffn_hidden, cfg.vocab, cfg.seq_len
    shapes: dict[str, tuple[int, ...]] = {"embed.tok": (v, h), "embed.pos": (s, h)}
    for i in range(cfg.layers):
        p = f"layers.{i}."
        shapes.update({
            p + "ln1.weight": (h,), p + "ln1.bias": (h,),
            p + "attn.q.weight": (h, h), p + "attn.q.bias": (h,),
            p + "attn.k.weight": (h, h), p + "attn.k.bias": (h,),
            p + "attn.v.weight": (h, h), p + "attn.v.bias": (h,),
            p + "attn.o.weight": (h, h), p + "attn.o.bias": (h,),
            p + "ln2.weight": (h,), p + "ln2.bias": (h,),
            p + "mlp.fc1.weight": (f, h), p + "mlp.fc1.bias": (f,),
            p + "mlp.fc2.weight": (h, f), p + "mlp.fc2.bias": (h,),
        })
    shapes.update({"final_ln.weight": (h,), "final_ln.bias": (h,), "head.weight": (v, h)})
    return shapes


def init_full(name: str, shape: tuple[int, ...], cfg: ModelSpec, seed: int) -> torch.Tensor:
    """The initial value of one full parameter: a function of (seed, name) alone, so every layout and
    every rank starts from the same model without materialising the parts it does not hold."""
    if name.endswith(("ln1.weight", "ln2.weight", "final_ln.weight")):
        return torch.ones(shape, dtype=torch.float64)
    if name.endswith("bias"):
        return torch.zeros(shape, dtype=torch.float64)
    gen = torch.Generator().manual_seed(int(stable_id("init", seed, name), 16) % (2**63))
    std = 0.02
    if name.endswith(("attn.o.weight", "mlp.fc2.weight")):
        std = 0.02 / math.sqrt(2 * cfg.layers)  # GPT-2's scaling of residual projections
    return torch.randn(shape, generator=gen, dtype=torch.float64) * std


def shard(full: torch.Tensor, name: str, tp: int, tp_rank: int) -> torch.Tensor:
    dim = split_dim(name)
    if dim is None or tp == 1:
        return full
    return full.chunk(tp, dim=dim)[tp_rank]


class _Attention(nn.Module):
    def __init__(self, cfg: ModelSpec, tp: int, group: Any):
        super().__init__()
        h = cfg.hidden
        self.heads = cfg.heads // tp
        self.head_dim = h // cfg.heads
        self.group = group
        self.q = nn.Linear(h, h // tp)
        self.k = nn.Linear(h, h // tp)
        self.v = nn.Linear(h, h // tp)
        self.o = nn.Linear(h // tp, h)  # row-parallel: its bias is added once, after the all-reduce

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, _ = x.shape
        x = copy_to_tp(x, self.group)

        def heads(t: torch.Tensor) -> torch.Tensor:
            return t.view(b, s, self.heads, self.head_dim).transpose(1, 2)

        q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        mask = torch.ones(s, s, dtype=torch.bool, device=x.device).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
        out = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, s, -1)
        out = reduce_from_tp(F.linear(out, self.o.weight), self.group)
        return out + self.o.bias


class _MLP(nn.Module):
    def __init__(self, cfg: ModelSpec, tp: int, group: Any):
        super().__init__()
        self.group = group
        self.fc1 = nn.Linear(cfg.hidden, cfg.ffn_hidden // tp)
        self.fc2 = nn.Linear(cfg.ffn_hidden // tp, cfg.hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.gelu(self.fc1(copy_to_tp(x, self.group)))
        return reduce_from_tp(F.linear(x, self.fc2.weight), self.group) + self.fc2.bias


class _Block(nn.Module):
    def __init__(self, cfg: ModelSpec, tp: int, group: Any):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.hidden)
        self.attn = _Attention(cfg, tp, group)
        self.ln2 = nn.LayerNorm(cfg.hidden)
        self.mlp = _MLP(cfg, tp, group)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class _Embedding(nn.Module):
    def __init__(self, cfg: ModelSpec):
        super().__init__()
        self.tok = nn.Parameter(torch.empty(cfg.vocab, cfg.hidden))
        self.pos = nn.Parameter(torch.empty(cfg.seq_len, cfg.hidden))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.tok[tokens] + self.pos[: tokens.shape[1]]


class StageModel(nn.Module):
    """The part of the model one rank holds: its stage's layers (the embedding on the first stage, the
    final norm and output layer on the last), each split parameter holding this tp rank's slice.

    ``state_dict()`` keys are canonical names."""

    def __init__(self, cfg: ModelSpec, groups: Groups, layers: tuple[int, int]):
        super().__init__()
        tp = groups.layout.tp
        self.cfg = cfg
        self.first = groups.first_stage
        self.last = groups.last_stage
        self.embed = _Embedding(cfg) if self.first else None
        self.layers = nn.ModuleDict({str(i): _Block(cfg, tp, groups.tp_group) for i in range(*layers)})
        self.final_ln = nn.LayerNorm(cfg.hidden) if self.last else None
        self.head = nn.Linear(cfg.hidden, cfg.vocab, bias=False) if self.last else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Tokens (first stage) or the previous stage's activations in; activations or logits out."""
        if self.embed is not None:
            x = self.embed(x)
        for block in self.layers.values():
            x = block(x)
        if self.head is not None:
            x = self.head(self.final_ln(x))
        return x

    def init_from_seed(self, seed: int, tp: int, tp_rank: int) -> None:
        shapes = canonical_shapes(self.cfg)
        with torch.no_grad():
            for name, p in self.named_parameters():
                full = init_full(name, shapes[name], self.cfg, seed)
                p.copy_(shard(full, name, tp, tp_rank))
