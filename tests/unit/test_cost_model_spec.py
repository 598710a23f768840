"""Model specs: presets, parameter counts and the Narayanan et al. FLOPs formulas."""

from __future__ import annotations

import json

import pytest

from assay.scheduler._megatron_table import ROWS
from assay.scheduler.model_spec import ModelSpec, find_model, get_model, model_from_config


def _narayanan(m: ModelSpec, batch: int, recompute: bool) -> float:
    b, s, layers, h, v = batch, m.seq_len, m.layers, m.hidden, m.vocab
    if recompute:
        return 96 * b * s * layers * h * h * (1 + s / (6 * h) + v / (16 * layers * h))
    return 72 * b * s * layers * h * h * (1 + s / (6 * h) + v / (12 * layers * h))


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.model)
def test_megatron_presets_match_the_table(row):
    m = get_model(row.model)
    assert (m.heads, m.hidden, m.layers) == (row.heads, row.hidden, row.layers)
    # Table 1's parameter counts come from eq. 2; the 1.7B row is rounded from 1.65.
    assert m.num_params / 1e9 == pytest.approx(row.params_billion, rel=0.04)


@pytest.mark.parametrize("name", ["gpt-1.7b", "gpt-145b", "gpt-1t", "gpt-175b"])
@pytest.mark.parametrize("recompute", [True, False])
def test_flops_equal_the_paper_formula(name, recompute):
    m = get_model(name)
    assert m.flops_per_step(512, recompute) == pytest.approx(_narayanan(m, 512, recompute), rel=1e-12)


def test_recomputation_adds_one_forward_pass_of_the_layers():
    m = get_model("gpt-175b")
    extra = m.flops_per_token(True) - m.flops_per_token(False)
    assert extra == pytest.approx(m.layers * m.layer_forward_flops_per_token)


def test_uneven_layers_scale_flops_and_params():
    base = get_model("gpt-tiny")
    heavy = base.with_layer_costs([1, 1, 2, 2])
    assert not heavy.uniform
    assert heavy.flops_per_token() > base.flops_per_token()
    assert heavy.num_params - base.num_params == pytest.approx(2 * base.params_per_layer, rel=1e-9)


def test_presets_resolve_by_alias_and_case():
    assert get_model("GPT_1T").name == "gpt-1t"
    assert get_model("gpt-529.6b").name == "gpt-530b"
    assert find_model("llama-9000") is None
    with pytest.raises(KeyError, match="gpt-tiny"):
        get_model("llama-9000")


def test_tiny_cpu_models_exist():
    tiny = get_model("gpt-tiny")
    assert (tiny.layers, tiny.hidden, tiny.heads) == (4, 64, 4)
    assert tiny.ffn_hidden == 4 * tiny.hidden


def test_spec_from_a_run_config_with_common_key_names():
    config = json.dumps({"num_layers": 6, "hidden_size": 96, "num_attention_heads": 6, "seq_length": 128,
                         "vocab_size": 1000})
    m = model_from_config(config, name="my-model")
    assert (m.name, m.layers, m.hidden, m.heads, m.seq_len, m.vocab) == ("my-model", 6, 96, 6, 128, 1000)
    assert model_from_config({"model": {"layers": 2, "hidden": 8, "heads": 2, "seq_len": 4, "vocab": 9}})
    assert model_from_config('{"lr": 0.1}') is None
    assert model_from_config("not json") is None


def test_bad_dims_are_refused():
    with pytest.raises(ValueError, match="not divisible"):
        ModelSpec("x", layers=2, hidden=10, heads=3, seq_len=8, vocab=16)
    with pytest.raises(ValueError, match="positive"):
        ModelSpec("x", layers=0, hidden=8, heads=2, seq_len=8, vocab=16)
    with pytest.raises(ValueError, match="layer_costs"):
        ModelSpec("x", layers=2, hidden=8, heads=2, seq_len=8, vocab=16, layer_costs=(1.0,))
