"""The transformer a job trains: its shape, its named presets and its FLOPs and parameter counts.

The counts follow Narayanan et al., SC'21 ("Efficient Large-Scale Language Model Training on GPU Clusters
Using Megatron-LM", eqs. 2 and 3) for a GPT decoder with a feed-forward width of ``4 * hidden``, and
generalise them to any ``ffn_hidden`` and to layers of uneven cost.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from assay.registry import REGISTRY

#: The model presets' namespace of the one registry (``assay.registry``).
NAMESPACE = "model_presets"


@dataclass(frozen=True)
class ModelSpec:
    """A GPT-style decoder. ``layer_costs`` (relative compute per layer, default all 1.0) describes
    uneven layers; the planner balances pipeline stages with it."""

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

    def __post_init__(self) -> None:
        for attr in ("layers", "hidden", "heads", "seq_len", "vocab"):
            value = getattr(self, attr)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"model {self.name!r}: {attr} must be a positive integer, got {value!r}")
        if self.hidden % self.heads:
            raise ValueError(f"model {self.name!r}: hidden {self.hidden} is not divisible by heads {self.heads}")
        if not self.ffn_hidden:
            object.__setattr__(self, "ffn_hidden", 4 * self.hidden)
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
    def params_per_layer(self) -> int:
        """Weights and biases of one standard layer: attention 4h^2 + 4h, feed-forward 2hf + f + h,
        two layer norms 4h (12h^2 + 13h when f = 4h, as in Megatron's eq. 2)."""
        h, f = self.hidden, self.ffn_hidden
        return 4 * h * h + 2 * h * f + f + 9 * h

    @property
    def embedding_params(self) -> int:
        """Token and position embeddings (the output layer shares the token embedding)."""
        return (self.vocab + self.seq_len) * self.hidden

    @property
    def num_params(self) -> int:
        return round(self.params_per_layer * sum(self.costs)) + self.embedding_params

    # -- FLOPs ----------------------------------------------------------------------------------------
    @property
    def layer_forward_flops_per_token(self) -> float:
        """Forward FLOPs of one standard layer for one token."""
        h, f, s = self.hidden, self.ffn_hidden, self.seq_len
        return 8.0 * h * h + 4.0 * h * f + 4.0 * s * h

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
        """A spec from a dict such as a run's ``config`` JSON. Accepts common aliases
        (``num_layers``, ``n_layer``, ``hidden_size``, ``num_attention_heads``, ``seq_length``, ...)."""
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
        return cls(
            name=str(name or pick("name", "model", default="custom")),
            ffn_hidden=_as_int("ffn_hidden", ffn),
            layer_costs=tuple(costs) if costs else None,
            **ints,
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


#: Named models. The gpt-1.7b ... gpt-1t rows are the weak-scaling models of Megatron-LM's Table 1
#: (sequence 2048, vocabulary 51200); gpt-175b is GPT-3 in Megatron's shape; gpt-tiny and gpt-mini are the
#: CPU-sized models the training workloads run with gloo.
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
    _gpt("gpt-175b", 96, 12288, 96, 1536, source="Brown et al. 2020 (GPT-3); Narayanan et al. SC'21 Table 2"),
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
}


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
