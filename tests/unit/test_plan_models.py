"""`assay plan` for today's model families and for any size (issue 30): one test per family through the
command line, the preset's parameter count against the count its authors publish, a custom shape and a
size given as --params."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import replace
from types import SimpleNamespace

import pytest

from assay.cli import main
from assay.scheduler.model_spec import get_model


def plan(*args: str) -> SimpleNamespace:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(["plan", *args])
        except SystemExit as exc:
            code = exc.code
    return SimpleNamespace(exit_code=code, stdout=out.getvalue(), stderr=err.getvalue())


def plan_json(*args: str) -> dict:
    result = plan(*args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


# (family, name as a user types it, the preset it means, published parameters in billions, devices)
FAMILIES = [
    ("gpt-3", "gpt-13b", "gpt-13b", 13.0, 16),
    ("gpt-3", "gpt3-1.3b", "gpt-1.3b", 1.3, 8),
    ("llama 2", "llama-7b", "llama2-7b", 6.74, 64),
    ("llama 2", "llama2-70b", "llama2-70b", 69.0, 256),
    ("llama 3", "llama3-8b", "llama3-8b", 8.03, 32),
    ("llama 3", "llama-3-70b", "llama3-70b", 70.6, 256),
    ("mistral", "mistral-7b", "mistral-7b", 7.24, 32),
]


@pytest.mark.parametrize(("family", "typed", "preset", "billions", "workers"), FAMILIES,
                         ids=[f"{f[0]}:{f[1]}" for f in FAMILIES])
def test_each_family_plans_by_its_common_name(family, typed, preset, billions, workers):
    data = plan_json("--model", typed, "--workers", str(workers))
    assert data["dp"] * data["tp"] * data["pp"] == workers
    assert data["tokens_per_s"] > 0
    assert get_model(typed).name == preset
    assert get_model(typed).num_params == pytest.approx(billions * 1e9, rel=0.02)


def test_llama_7b_on_64_workers_prints_a_plan():
    result = plan("--model", "llama-7b", "--workers", "64")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("llama2-7b on 64 x a100-80g") and "best: dp=" in result.stdout


def test_mixtral_holds_every_expert_and_computes_two():
    dense = get_model("mistral-7b")
    moe = replace(get_model("mixtral-8x7b"), seq_len=dense.seq_len)
    assert moe.num_params == pytest.approx(46.7e9, rel=0.02)  # the weights of all eight experts
    # a token visits two experts: twice the feed-forward work of its dense sibling, not eight times
    ffn = 4.0 * dense.hidden * dense.ffn_hidden
    assert moe.layer_forward_flops_per_token - dense.layer_forward_flops_per_token == pytest.approx(ffn)
    moe_plan = plan_json("--model", "mixtral-8x7b", "--workers", "64", "--global-batch", "128",
                         "--seq-len", "4096")
    dense_plan = plan_json("--model", "mistral-7b", "--workers", "64", "--global-batch", "128",
                           "--seq-len", "4096")
    assert moe_plan["memory_gb"] > dense_plan["memory_gb"]


def test_any_model_by_its_size():
    data = plan_json("--layers", "24", "--hidden", "2048", "--heads", "16", "--seq-len", "1024",
                     "--vocab", "32000", "--workers", "8")
    assert data["dp"] * data["tp"] * data["pp"] == 8 and data["global_batch"] == 512
    bigger = plan_json("--layers", "48", "--hidden", "2048", "--heads", "16", "--seq-len", "1024",
                       "--vocab", "32000", "--workers", "8", "--global-batch", "512")
    assert bigger["step_time_s"] > data["step_time_s"]


def test_params_is_a_gpt3_shaped_model_of_that_size():
    result = plan("--params", "30b", "--workers", "128")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("gpt-shaped-30b on 128")
    longer = plan_json("--params", "30b", "--seq-len", "8192", "--workers", "128", "--global-batch", "256")
    shorter = plan_json("--params", "30b", "--workers", "128", "--global-batch", "256")
    assert longer["step_time_s"] > shorter["step_time_s"]


@pytest.mark.parametrize(("args", "flag"), [
    (("--hidden", "100", "--workers", "2"), "--layers"),
    (("--layers", "4", "--hidden", "100", "--heads", "3", "--workers", "2"), "--heads"),
    (("--params", "lots", "--workers", "2"), "--params"),
    (("--model", "gpt-13b", "--params", "13b", "--workers", "2"), "--params"),
    (("--workers", "2",), "--model"),
])
def test_a_wrong_model_is_one_line_naming_the_flag(args, flag):
    result = plan(*args)
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and flag in lines[0], result.stderr
