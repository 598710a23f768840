"""Job specs: loading built-ins, overrides, and errors that name the field and the fix. No torch, no Ray."""

from __future__ import annotations

import subprocess
import sys

import pytest

from assay.jobs.spec import (
    JobSpec,
    SpecError,
    builtin_names,
    from_dict,
    from_json,
    load_spec,
    micro_batch_for,
    valid_layouts,
)
from assay.scheduler.layout import Layout


def test_builtin_specs_load_and_include_the_examples():
    names = builtin_names()
    for required in ("gpt-dp", "gpt-3d", "tiny"):
        assert required in names
    assert load_spec("gpt-dp").parallel == Layout(dp=2, tp=1, pp=1)
    three_d = load_spec("gpt-3d").parallel
    assert min(three_d.dp, three_d.tp, three_d.pp) >= 2
    for name in names:  # every shipped spec is valid
        assert isinstance(load_spec(name), JobSpec)


def test_overrides_reach_nested_fields_and_parse_scalars():
    spec = load_spec("gpt-dp", ["steps=60", "checkpoint_every=10", "model.hidden=128", "lr=1e-4", "tp=2"])
    assert spec.steps == 60 and spec.checkpoint_every == 10
    assert spec.model.hidden == 128
    assert spec.lr == pytest.approx(1e-4)
    assert spec.parallel == Layout(dp=2, tp=2, pp=1)
    assert load_spec("gpt-dp", ["parallel=auto"]).parallel is None


def test_spec_round_trips_through_json():
    spec = load_spec("gpt-3d", ["seed=7"])
    assert from_json(spec.to_json()) == spec
    auto = load_spec("gpt-auto")
    assert from_json(auto.to_json()).parallel is None


@pytest.mark.parametrize(
    ("overrides", "field", "fix_word"),
    [
        (["tp=3"], "parallel.tp", "divides"),
        (["pp=8"], "parallel.pp", "pp <="),
        (["global_batch=15"], "global_batch", "multiple"),
        (["micro_batch=3"], "micro_batch", "divisor"),
        (["stepz=3"], "stepz", "steps"),
        (["model.hidden=66"], "model.hidden", "multiple of heads"),
        (["dtype=float16"], "dtype", "float32"),
        (["steps=ten"], "steps", None),
        (["max_workers=1"], "max_workers", "max_workers >="),
    ],
)
def test_wrong_fields_are_named_with_a_fix(overrides, field, fix_word):
    with pytest.raises(SpecError) as info:
        load_spec("gpt-dp", overrides)
    assert info.value.field == field
    assert field in str(info.value)
    if fix_word:
        assert fix_word in str(info.value)


def test_unknown_spec_lists_the_builtins(tmp_path):
    with pytest.raises(SpecError, match="gpt-dp"):
        load_spec("no-such-spec")
    bad = tmp_path / "bad.yaml"
    bad.write_text("- just\n- a list\n")
    with pytest.raises(SpecError, match="mapping"):
        load_spec(bad)
    with pytest.raises(SpecError, match="key=value"):
        load_spec("gpt-dp", ["steps"])


def test_user_file_takes_its_name_from_the_file(tmp_path):
    path = tmp_path / "my-job.yaml"
    path.write_text("model: {layers: 2, hidden: 32, heads: 2, seq_len: 8, vocab: 32}\nsteps: 5\n")
    spec = load_spec(path)
    assert spec.name == "my-job" and spec.steps == 5 and spec.model.heads == 2


def test_model_preset_names_come_from_the_scheduler_catalogue():
    spec = from_dict({"model": "gpt-tiny", "global_batch": 32})
    assert spec.model.layers == 4 and spec.model.hidden == 64


def test_valid_layouts_respect_heads_layers_and_batch():
    spec = load_spec("tiny")  # 2 layers, 4 heads, batch 8
    assert Layout(1, 2, 2) in valid_layouts(spec, 4)
    assert Layout(4, 1, 1) in valid_layouts(spec, 4)
    assert valid_layouts(spec, 3) == []  # dp=3 splits no batch of 8, tp=3 no 4 heads, pp=3 > 2 layers
    assert all(lay.world_size == 8 for lay in valid_layouts(spec, 8))


def test_micro_batch_keeps_the_global_batch():
    spec = load_spec("tiny", ["micro_batch=4"])  # global batch 8
    assert micro_batch_for(spec, Layout(dp=1)) == 4
    assert micro_batch_for(spec, Layout(dp=4)) == 2  # per-replica batch 2: the largest divisor <= 4
    assert micro_batch_for(spec, Layout(dp=8)) == 1


def test_importing_jobs_and_their_cli_imports_neither_torch_nor_ray():
    code = ("import sys, assay.jobs, assay.live.scheduler, assay.cli._jobs, assay.cli._scheduler; "
            "print('torch' in sys.modules, 'ray' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_a_jobs_model_is_the_schedulers_model_spec_and_is_stored_as_its_dims():
    from assay.scheduler.model_spec import ModelSpec

    spec = from_dict({"name": "m", "model": {"layers": 2, "hidden": 32, "heads": 4}, "steps": 2})
    assert isinstance(spec.model, ModelSpec) and spec.model.ffn_hidden == 128
    assert spec.to_dict()["model"] == {"layers": 2, "hidden": 32, "heads": 4, "seq_len": 16, "vocab": 64,
                                       "ffn_hidden": 0}
    # ffn_hidden left out means 4 * hidden, also after hidden is overridden
    assert spec.with_overrides(["model.hidden=64"]).model.ffn_hidden == 256
    assert from_json(spec.to_json()) == spec


def test_the_spec_types_are_the_domains_under_every_name_users_import():
    # The types moved to assay.domain; assay.jobs, assay.jobs.spec and the scheduler's old modules name the
    # same classes, so users' imports and pickles that name the old paths keep working.
    import pickle

    import assay.domain as domain
    import assay.jobs as jobs
    from assay.scheduler import layout as old_layout
    from assay.scheduler import model_spec as old_model_spec

    assert jobs.JobSpec is JobSpec is domain.JobSpec and jobs.SpecError is SpecError is domain.SpecError
    assert old_layout.Layout is Layout is domain.Layout and old_model_spec.ModelSpec is domain.ModelSpec
    spec = load_spec("gpt-dp", ["steps=7"])
    assert isinstance(spec.parallel, domain.Layout) and isinstance(spec.model, domain.ModelSpec)
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert from_json(spec.to_json()) == domain.from_json(spec.to_json()) == spec
