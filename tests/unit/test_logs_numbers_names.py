"""Numbers as printed, metric names as printed, entity names as papers write them."""

from __future__ import annotations

import math

import pytest

from assay.ids import stable_id
from assay.operators.logs import Collector
from assay.operators.logs._names import canonical_model, entity_id, find_hardware, metric_name
from assay.operators.logs._numbers import memory_mb, parse_number, parse_quantity


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("6,647", 6647.0),
        ("11.4K", 11400.0),
        ("7.365868E+00", 7.365868),
        ("4.71K", 4710.0),
        ("520M", 520e6),
        ("12.34%", 12.34),
        ("123.45ms", 123.45),
        ("tensor(2.31, device='cuda:0')", 2.31),
        ("np.float64(1.5)", 1.5),
        ("-100.00%", -100.0),
        ("1e-05", 1e-05),
        ("inf", math.inf),
    ],
)
def test_numbers_as_printed(text, value):
    assert parse_number(text) == pytest.approx(value)


def test_nan_and_not_numbers():
    assert (
        math.isnan(parse_number("nan"))
        and math.isnan(parse_number("-nan"))
        and math.isnan(parse_number("NaN"))
    )
    assert parse_number("abc") is None and parse_number("") is None
    assert parse_quantity("30.12GiB(31.70%)") == (30.12, "GiB")
    assert memory_mb(30.0, "GiB") == 30 * 1024 and memory_mb(3.0, "furlongs") is None


def test_placeholders_are_dropped_nan_is_kept():
    out = Collector("r")
    out.metric("mfu", 0, -100.0, 1)
    out.metric("tokens_per_s", 0, 0.0, 1)
    out.metric("loss", 0, math.nan, 1)
    out.metric("lr", 0, 0.0, 1)  # a learning rate of 0 during warm-up is data
    rows = out.metrics_table().to_pylist()
    assert [r["name"] for r in rows] == ["loss", "lr"] and math.isnan(rows[0]["value"])


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("lm loss", "loss"),
        ("lm-loss", "loss"),
        ("train/loss", "loss"),
        ("eval_loss", "val_loss"),
        ("Loss/val", "val_loss"),
        ("learning rate", "lr"),
        ("lr-AdamW", "lr"),
        ("grad norm", "grad_norm"),
        ("loss scale", "loss_scale"),
        ("elapsed time per iteration (ms)", "step_time_ms"),
        ("throughput per GPU (TFLOP/s/GPU)", "tflops"),
        ("tokens_per_sec", "tokens_per_s"),
        ("samples/sec", "samples_per_s"),
        ("mfu(%)", "mfu"),
        ("consumed samples", None),
    ],
)
def test_metric_names(key, name):
    assert metric_name(key) == name


def test_every_alias_names_a_standard_metric():
    from assay.operators.logs._names import _ALIASES, STANDARD_METRICS

    per_device = {"tokens_per_s_per_gpu", "samples_per_s_per_gpu"}
    assert set(_ALIASES.values()) <= set(STANDARD_METRICS) | per_device
    assert set(STANDARD_METRICS) <= set(_ALIASES.values())


def test_entity_names_and_ids_follow_the_papers_rule():
    assert canonical_model("meta-llama/Llama-2-7b-hf") == "Llama 2 7B"
    assert canonical_model("llama3 8B") == "Llama 3 8B" and canonical_model("gpt2-xl") == "GPT-2 XL"
    assert canonical_model("ResNet50") == "ResNet-50" and canonical_model("GPT 355M") == "GPT 355M"
    assert [h[0] for h in find_hardware("CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory")] == [
        "H100"
    ]
    assert [h[0] for h in find_hardware("Tesla V100-SXM2-32GB")] == ["V100"]
    assert find_hardware("step T4 done") == []
    # the papers extractor's entity ids: stable_id(type, lower case with single spaces)
    assert entity_id("system", "Megatron-LM") == stable_id("system", "megatron-lm")
    assert entity_id("hardware", " A100 ") == entity_id("hardware", "a100")
