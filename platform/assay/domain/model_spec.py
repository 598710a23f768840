"""The transformer a job trains: its shape, its named presets and its FLOPs and parameter counts.

The counts follow Narayanan et al., SC'21 ("Efficient Large-Scale Language Model Training on GPU Clusters
Using Megatron-LM", eqs. 2 and 3) for a GPT decoder with a feed-forward width of ``4 * hidden``, and
generalise them to any ``ffn_hidden`` and to layers of uneven cost.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from assay.registry import REGISTRY

#: The model presets' namespace of the one registry (``assay.registry``).
NAMESPACE = "model_presets"


@dataclass(frozen=True)
class ModelSpec:
    """A GPT-style decoder. ``layer_costs`` (relative compute per layer, default all 1.0) describes
    uneven layers; the planner balances pipeline stages with it.

    The newer families fit the same counts through four fields: ``kv_heads`` (grouped-query attention: fewer
    key/value heads, 0 = ``heads``); ``ffn_hidden`` is the width a token's feed-forward computes with, a
    two-matrix equivalent (a gated SwiGLU block of width w has three h x w matrices, written as 1.5 w);
    ``experts`` (a mixture of experts: each layer holds ``experts / active_experts`` times the feed-forward
    weights a token uses; ``ffn_hidden`` counts the ``active_experts`` a token visits); ``tied_output`` and
    ``learned_positions`` (an untied output layer, rotary positions with no table)."""

    name: str
    layers: int
    hidden: int
    heads: int
    seq_len: int
    vocab: int
    ffn_hidden: int = 0
    layer_costs: tuple[float, ...] | None = None
    default_global_batch: int = 0
    source: str = ""
    kv_heads: int = 0
    experts: int = 1
    active_experts: int = 1
    tied_output: bool = True
    learned_positions: bool = True

    def __post_init__(self) -> None:
        for attr in ("layers", "hidden", "heads", "seq_len", "vocab"):
            value = getattr(self, attr)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"model {self.name!r}: {attr} must be a positive integer, got {value!r}")
        if self.hidden % self.heads:
            raise ValueError(f"model {self.name!r}: hidden {self.hidden} is not divisible by heads {self.heads}")
        if not self.ffn_hidden:
            object.__setattr__(self, "ffn_hidden", 4 * self.hidden)
        if not self.kv_heads:
            object.__setattr__(self, "kv_heads", self.heads)
        if self.heads % self.kv_heads or not 1 <= self.active_experts <= self.experts:
            raise ValueError(f"model {self.name!r}: kv_heads must divide heads and 1 <= active_experts <= experts")
        if self.layer_costs is not None:
            costs = tuple(float(c) for c in self.layer_costs)
            if len(costs) != self.layers or any(c <= 0 for c in costs):
                raise ValueError(f"model {self.name!r}: layer_costs needs {self.layers} positive numbers")
            object.__setattr__(self, "layer_costs", costs)

    # -- shape ----------------------------------------------------------------------------------------
    @property
    def costs(self) -> tuple[float, ...]:
        """Relative compute of each layer (1.0 for a standard layer)."""
        return self.layer_costs if self.layer_costs is not None else (1.0,) * self.layers

    @property
    def uniform(self) -> bool:
        return self.layer_costs is None or len(set(self.layer_costs)) == 1

    # -- parameters -----------------------------------------------------------------------------------
    @property
    def kv_width(self) -> int:
        """Width of the key and value projections: ``hidden`` unless attention groups its query heads."""
        return self.hidden * self.kv_heads // self.heads

    @property
    def params_per_layer(self) -> int:
        """Weights and biases of one standard layer: attention 2h^2 + 2h*kv + 4h, feed-forward 2hf + f + h
        (times experts / active_experts for a mixture of experts), two layer norms 4h (12h^2 + 13h when
        f = 4h and kv = h, as in Megatron's eq. 2)."""
        h, f = self.hidden, self.ffn_hidden
        ffn = (2 * h * f + f + h) * self.experts // self.active_experts
        return 2 * h * h + 2 * h * self.kv_width + ffn + 8 * h

    @property
    def embedding_params(self) -> int:
        """Token embeddings, a position table where positions are learned, an output layer where it is not
        shared with the token embedding."""
        rows = self.vocab * (1 if self.tied_output else 2) + (self.seq_len if self.learned_positions else 0)
        return rows * self.hidden

    @property
    def num_params(self) -> int:
        return round(self.params_per_layer * sum(self.costs)) + self.embedding_params

    # -- FLOPs ----------------------------------------------------------------------------------------
    @property
    def layer_forward_flops_per_token(self) -> float:
        """Forward FLOPs of one standard layer for one token (the feed-forward of the experts it visits)."""
        h, f, s = self.hidden, self.ffn_hidden, self.seq_len
        return 4.0 * h * h + 4.0 * h * self.kv_width + 4.0 * h * f + 4.0 * s * h

    @property
    def logit_forward_flops_per_token(self) -> float:
        return 2.0 * self.hidden * self.vocab

    def flops_per_token(self, recompute: bool = True) -> float:
        """Training FLOPs per token: backward costs twice the forward, activation recomputation one more
        forward pass of the layers (not of the output layer)."""
        passes = 4.0 if recompute else 3.0
        return passes * self.layer_forward_flops_per_token * sum(self.costs) + 3.0 * self.logit_forward_flops_per_token

    def flops_per_step(self, global_batch: int, recompute: bool = True) -> float:
        """FLOPs of one training step (one global batch). For a standard GPT with f = 4h this equals
        Narayanan et al.'s 96 B s l h^2 (1 + s/6h + V/16lh) with recomputation, 72 B s l h^2
        (1 + s/6h + V/12lh) without."""
        return global_batch * self.seq_len * self.flops_per_token(recompute)

    def tokens_per_step(self, global_batch: int) -> int:
        return global_batch * self.seq_len

    # -- serialisation --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["layer_costs"] = list(self.layer_costs) if self.layer_costs is not None else None
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, name: str | None = None) -> ModelSpec:
        """A spec's shape from a dict such as a run's ``config`` JSON (or :meth:`to_dict`'s; the batch and
        the source are not read). Accepts common aliases (``num_layers``, ``n_layer``, ``hidden_size``,
        ``num_attention_heads``, ``seq_length``, ``num_key_value_heads``, ``num_local_experts``, ...)."""
        def pick(*keys: str, default: Any = None) -> Any:
            for key in keys:
                if key in data and data[key] is not None:
                    return data[key]
            return default

        values = {
            "layers": pick("layers", "num_layers", "n_layer", "n_layers", "num_hidden_layers"),
            "hidden": pick("hidden", "hidden_size", "n_embd", "d_model"),
            "heads": pick("heads", "num_heads", "num_attention_heads", "n_head", "n_heads"),
            "seq_len": pick("seq_len", "seq_length", "max_position_embeddings", "n_positions", "block_size"),
            "vocab": pick("vocab", "vocab_size", "padded_vocab_size"),
        }
        missing = [k for k, v in values.items() if v is None]
        if missing:
            raise ValueError(f"model dims missing: {', '.join(missing)}")
        ints = {k: _as_int(k, v) for k, v in values.items()}
        ffn = pick("ffn_hidden", "ffn_hidden_size", "intermediate_size", "n_inner", default=0) or 0
        costs = pick("layer_costs")
        extra = {"kv_heads": _as_int("kv_heads", pick("kv_heads", "num_key_value_heads", default=0) or 0),
                 "experts": _as_int("experts", pick("experts", "num_local_experts", default=1) or 1),
                 "active_experts": _as_int("active_experts", pick("active_experts", "num_experts_per_tok",
                                                                  default=1) or 1),
                 "tied_output": bool(pick("tied_output", "tie_word_embeddings", default=True)),
                 "learned_positions": bool(pick("learned_positions", default=True))}
        return cls(
            name=str(name or pick("name", "model", default="custom")),
            ffn_hidden=_as_int("ffn_hidden", ffn),
            layer_costs=tuple(costs) if costs else None,
            **ints, **extra,
        )

    def with_layer_costs(self, costs: list[float] | tuple[float, ...]) -> ModelSpec:
        return replace(self, layer_costs=tuple(costs))


def _as_int(key: str, value: Any) -> int:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"model dim {key} is not a number: {value!r}") from None
    if number != int(number):
        raise ValueError(f"model dim {key} is not an integer: {value!r}")
    return int(number)


_MEGATRON = "Narayanan et al., SC'21, Table 1 (arXiv:2104.04473)"


def _gpt(name: str, layers: int, hidden: int, heads: int, batch: int, source: str = _MEGATRON) -> ModelSpec:
    return ModelSpec(name=name, layers=layers, hidden=hidden, heads=heads, seq_len=2048, vocab=51200,
                     default_global_batch=batch, source=source)


_GPT3 = "Brown et al. 2020 (GPT-3), Table 2.1; head size 128 where the table's does not divide"
_LLAMA2 = "Touvron et al. 2023 (Llama 2), Table 1 and the released configs; batch 4M tokens"
_LLAMA3 = "Meta Llama 3 model card and released configs; batch assumed 4M tokens"
_MISTRAL = "Jiang et al. 2023 (Mistral 7B), Table 1; batch assumed 4M tokens"
_MIXTRAL = "Jiang et al. 2024 (Mixtral of Experts), Table 1; batch assumed 4M tokens"


def _llama(name: str, layers: int, hidden: int, heads: int, kv_heads: int, swiglu: int, seq_len: int,
           vocab: int, source: str, experts: int = 1, active: int = 1) -> ModelSpec:
    """A Llama-style decoder: gated SwiGLU feed-forward of width ``swiglu`` (three matrices, written as the
    two-matrix width 1.5 * swiglu per visited expert), grouped-query attention, rotary positions, an untied
    output layer; the default batch is about 4M tokens."""
    return ModelSpec(name=name, layers=layers, hidden=hidden, heads=heads, kv_heads=kv_heads, seq_len=seq_len,
                     vocab=vocab, ffn_hidden=3 * swiglu * active // 2, experts=experts, active_experts=active,
                     tied_output=False, learned_positions=False,
                     default_global_batch=max(1, 4 * 2**20 // seq_len), source=source)


#: Named models. The gpt-1.7b ... gpt-1t rows are the weak-scaling models of Megatron-LM's Table 1
#: (sequence 2048, vocabulary 51200); gpt-125m ... gpt-13b and gpt-175b are the GPT-3 sizes; the Llama 2,
#: Llama 3, Mistral and Mixtral rows follow their published shapes (Mixtral as a mixture of experts: all
#: eight experts' weights held, two experts' compute per token); gpt-tiny and gpt-mini are the CPU-sized
#: models the training workloads run with gloo.
_BUILT_IN: tuple[ModelSpec, ...] = (
    _gpt("gpt-1.7b", 24, 2304, 24, 512),
    _gpt("gpt-3.6b", 30, 3072, 32, 512),
    _gpt("gpt-7.5b", 36, 4096, 32, 512),
    _gpt("gpt-18b", 40, 6144, 48, 1024),
    _gpt("gpt-39b", 48, 8192, 64, 1536),
    _gpt("gpt-76b", 60, 10240, 80, 1792),
    _gpt("gpt-145b", 80, 12288, 96, 2304),
    _gpt("gpt-310b", 96, 16384, 128, 2160),
    _gpt("gpt-530b", 105, 20480, 128, 2520),
    _gpt("gpt-1t", 128, 25600, 160, 3072),
    _gpt("gpt-125m", 12, 768, 12, 256, source=_GPT3),
    _gpt("gpt-350m", 24, 1024, 16, 256, source=_GPT3),
    _gpt("gpt-760m", 24, 1536, 16, 256, source=_GPT3),
    _gpt("gpt-1.3b", 24, 2048, 16, 512, source=_GPT3),
    _gpt("gpt-2.7b", 32, 2560, 32, 512, source=_GPT3),
    _gpt("gpt-6.7b", 32, 4096, 32, 1024, source=_GPT3),
    _gpt("gpt-13b", 40, 5120, 40, 1024, source=_GPT3),
    _gpt("gpt-175b", 96, 12288, 96, 1536, source="Brown et al. 2020 (GPT-3); Narayanan et al. SC'21 Table 2"),
    _llama("llama2-7b", 32, 4096, 32, 32, 11008, 4096, 32000, _LLAMA2),
    _llama("llama2-13b", 40, 5120, 40, 40, 13824, 4096, 32000, _LLAMA2),
    _llama("llama2-70b", 80, 8192, 64, 8, 28672, 4096, 32000, _LLAMA2),
    _llama("llama3-8b", 32, 4096, 32, 8, 14336, 8192, 128256, _LLAMA3),
    _llama("llama3-70b", 80, 8192, 64, 8, 28672, 8192, 128256, _LLAMA3),
    _llama("mistral-7b", 32, 4096, 32, 8, 14336, 8192, 32000, _MISTRAL),
    _llama("mixtral-8x7b", 32, 4096, 32, 8, 14336, 32768, 32000, _MIXTRAL, experts=8, active=2),
    ModelSpec("gpt-tiny", layers=4, hidden=64, heads=4, seq_len=64, vocab=256, default_global_batch=32,
              source="assay CPU workload"),
    ModelSpec("gpt-mini", layers=8, hidden=128, heads=8, seq_len=128, vocab=512, default_global_batch=32,
              source="assay CPU workload"),
)
for _preset in _BUILT_IN:
    REGISTRY.register(NAMESPACE, _preset.name, _preset)
#: The presets by name: a read-only view of the registry's ``model_presets`` namespace (register more there).
PRESETS: Mapping[str, ModelSpec] = REGISTRY.view(NAMESPACE)

#: Other spellings of the preset names (the Megatron table's exact parameter counts among them).
ALIASES: dict[str, str] = {
    "gpt-18.4b": "gpt-18b", "gpt-39.1b": "gpt-39b", "gpt-76.1b": "gpt-76b", "gpt-145.6b": "gpt-145b",
    "gpt-310.1b": "gpt-310b", "gpt-529.6b": "gpt-530b", "gpt-1008b": "gpt-1t", "gpt-1000b": "gpt-1t",
    "gpt-174.6b": "gpt-175b", "gpt3-175b": "gpt-175b", "gpt-3": "gpt-175b",
    **{f"gpt3-{size}": f"gpt-{size}" for size in ("125m", "350m", "760m", "1.3b", "2.7b", "6.7b", "13b")},
    "gpt-3-13b": "gpt-13b", "gpt-3-6.7b": "gpt-6.7b",
    # Llama 1 7b/13b/65b share Llama 2's shapes but a 2048 sequence; the bare names mean Llama 2.
    "llama-7b": "llama2-7b", "llama-13b": "llama2-13b", "llama-70b": "llama2-70b",
    "llama-2-7b": "llama2-7b", "llama-2-13b": "llama2-13b", "llama-2-70b": "llama2-70b",
    "llama-3-8b": "llama3-8b", "llama-3-70b": "llama3-70b", "llama3.1-8b": "llama3-8b", "llama3.1-70b": "llama3-70b",
    "mistral-7b-v0.1": "mistral-7b", "mixtral-8x7b-v0.1": "mixtral-8x7b",
}


def shaped_like_gpt3(params: float, name: str | None = None) -> ModelSpec:
    """A GPT-3-shaped model of about ``params`` parameters, for ``assay plan --params``: GPT-3's own aspect
    (hidden near 128 x layers, heads of 128, within 4 % of the count), sequence 2048, vocabulary 51200, the batch of
    the nearest GPT-3 size."""
    if params < 1e7:  # below, the embedding table is most of the model and no GPT-3 aspect fits
        raise ValueError(f"--params must be at least 10m, got {params:g}")
    def count(layers: int, hidden: int) -> float:  # as ModelSpec.num_params counts a GPT of f = 4h
        return layers * (12 * hidden * hidden + 13 * hidden) + (51200 + 2048) * hidden

    # Within 4 % of the count, the shape nearest GPT-3's aspect; else the nearest count (the smallest sizes).
    # From 2B on, heads come in eights, so tensor parallelism of 2, 4 and 8 divides them.
    step = 1024 if params >= 2e9 else 128
    near = {(lay, max(step, (math.isqrt(int(params / (12 * lay))) // step + k) * step))
            for lay in range(2, 257) for k in (0, 1)}  # per depth, the two widths around the count
    shapes = [(abs(count(lay, hid) / params - 1), abs(hid / lay / 128 - 1), lay, hid)
              for lay, hid in near if 32 <= hid / lay <= 256] or [(0.0, 0.0, 2, step)]
    close = [x for x in shapes if x[0] <= 0.04]
    _, _, layers, hidden = min(close, key=lambda x: (x[1], x[0])) if close else min(shapes)
    nearest = min((PRESETS[n] for n in _GPT3_SIZES), key=lambda m: abs(m.num_params - params))
    return ModelSpec(name or f"gpt-shaped-{_short(params)}", layers=layers, hidden=hidden, heads=hidden // 128,
                     seq_len=2048, vocab=51200, default_global_batch=nearest.default_global_batch,
                     source=f"--params {_short(params)}: GPT-3's aspect (hidden = 128 x layers)")


_GPT3_SIZES = ("gpt-125m", "gpt-350m", "gpt-760m", "gpt-1.3b", "gpt-2.7b", "gpt-6.7b", "gpt-13b", "gpt-175b")


def parse_count(text: str) -> float:
    """A parameter count as people write it: ``7b``, ``125M``, ``1.3e9``, ``70B``."""
    t = text.strip().lower().replace("_", "")
    scale = {"k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}.get(t[-1:], 1.0)
    try:
        return float(t[:-1] if scale != 1.0 else t) * scale
    except ValueError:
        raise ValueError(f"not a parameter count: {text!r} (write e.g. 7b, 350m or 1.3e9)") from None


def _short(params: float) -> str:
    for unit, scale in (("t", 1e12), ("b", 1e9), ("m", 1e6)):
        if params >= scale:
            return f"{params / scale:.3g}{unit}"
    return f"{params:g}"


def preset_names() -> list[str]:
    return list(PRESETS)


def get_model(name: str) -> ModelSpec:
    """The preset called ``name`` (case and ``_``/``-`` insensitive); :class:`assay.registry.UnknownName` (a
    ``KeyError``) listing the valid ones and the closest."""
    key = _normalise(name)
    return REGISTRY.get(NAMESPACE, ALIASES.get(key, key))


def find_model(name: str | None) -> ModelSpec | None:
    """The preset called ``name`` or None (for names found in logs, which may be anything)."""
    if not name:
        return None
    try:
        return get_model(name)
    except KeyError:
        return None


def model_from_config(config: str | Mapping[str, Any] | None, name: str | None = None) -> ModelSpec | None:
    """A spec from a run's ``config`` (JSON text or dict) when it carries the model dims, else None."""
    if config is None:
        return None
    if isinstance(config, str):
        try:
            config = json.loads(config)
        except ValueError:
            return None
    if not isinstance(config, Mapping):
        return None
    nested = config.get("model")
    if isinstance(nested, Mapping):
        config = {**config, **nested}
    try:
        return ModelSpec.from_dict(config, name=name)
    except ValueError:
        return None


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-")
