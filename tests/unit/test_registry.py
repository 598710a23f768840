"""The one registry: namespaces, names, "did you mean", built-ins loaded on the first miss and not on
``import assay``, and every lookup that used to keep its own dict (operators, log formats, policies, model and
cluster presets, workload generators, job specs) now reading and writing it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from assay import registry
from assay.registry import Registry, UnknownName


@pytest.fixture
def own():
    return Registry(distribution=None, kinds={"colours": "colour"})  # no built-ins: nothing but what a test adds


@pytest.fixture
def probe():
    """``probe(namespace, name, obj)`` registers into the product's registry until the test ends."""
    added = []

    def add(namespace, name, obj):
        added.append((namespace, name))
        return registry.register(namespace, name, obj)

    yield add
    for namespace, name in added:
        registry.unregister(namespace, name)


def test_register_get_and_list_by_namespace(own):
    own.register("colours", "red", 1)  # a namespace is created by its first entry
    own.register("colours", "green", 2)
    own.register("shapes", "square", 4)
    own.register("colours", "red", 3)  # again: replaced, in its first place
    assert own.get("colours", "red") == 3 and own.names("colours") == ["red", "green"]
    assert own.namespaces() == ["colours", "shapes"] and own.has("shapes", "square")
    assert dict(own.view("colours")) == {"red": 3, "green": 2} and "blue" not in own.view("colours")
    own.unregister("colours", "green")
    assert own.names("colours") == ["red"]


def test_an_unknown_name_is_a_catalogued_key_error_with_suggestions(own):
    for name in ("crimson", "cyan", "green-blue"):
        own.register("colours", name, name)
    with pytest.raises(KeyError) as err:
        own.get("colours", "crimsn")
    error = err.value
    assert isinstance(error, UnknownName) and error.code == "E002"
    assert error.suggestions == ["crimson"] and "Did you mean crimson?" in str(error)
    assert str(error).startswith("unknown colour 'crimsn'; known: crimson, cyan, green-blue.")
    assert UnknownName("colours", "x", ["crimson"], "colour").suggestions == []
    with pytest.raises(UnknownName, match="unknown registry namespace 'colors'.*Did you mean colours"):
        own.names("colors")


def test_importing_assay_loads_no_namespace_and_a_lookup_loads_only_its_own():
    code = ("import sys, assay, assay.registry as r\n"
            "before = sorted(m for m in sys.modules if m.startswith(('assay.operators', 'assay.scheduler', "
            "'assay.jobs')))\n"
            "policy = r.get('policies', 'fifo')\n"
            "print(before, policy.__name__, 'assay.operators' in sys.modules, 'ray' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["[]", "Fifo", "False", "False"]


def test_every_namespace_of_the_product_is_listed_with_its_built_ins():
    assert set(registry.namespaces()) >= {"operators", "log_parsers", "policies", "model_presets",
                                          "cluster_presets", "workloads", "job_specs"}
    expected = {"operators": "read_paper", "log_parsers": "megatron", "policies": "goodput",
                "model_presets": "gpt-175b", "cluster_presets": "a100-80g", "workloads": "philly",
                "job_specs": "gpt-dp"}
    for namespace, name in expected.items():
        assert name in registry.names(namespace), namespace


def test_no_package_keeps_a_second_dict_of_names():
    import assay.dsl._operator
    import assay.operators.logs._base
    import assay.scheduler.policies._base

    for module in (assay.dsl._operator, assay.operators.logs._base, assay.scheduler.policies._base):
        assert not hasattr(module, "_REGISTRY"), module.__name__


def test_operators_are_found_and_registered_through_the_registry():
    from assay.dsl import PipelineError, get_operator, list_operators, operator

    assert get_operator("read_paper") is registry.get("operators", "read_paper")

    @operator(name="t_registry_probe", requires=["text"], produces=["x"])
    def probe_op(record):
        return record

    try:
        assert registry.get("operators", "t_registry_probe") is probe_op and probe_op in list_operators()
        with pytest.raises(PipelineError, match="E001.*Did you mean t_registry_probe"):
            get_operator("t_registry_prob")
    finally:
        registry.unregister("operators", "t_registry_probe")


def test_log_formats_are_registered_there(probe):
    from assay.operators.logs import LogParser, registered_parsers
    from assay.operators.logs._base import parser_named

    assert parser_named("megatron") is registry.get("log_parsers", "megatron")

    class Probe(LogParser):
        name = "t_probe_format"

    probe("log_parsers", Probe.name, Probe)
    assert Probe in registered_parsers() and parser_named("t_probe_format") is Probe
    with pytest.raises(KeyError, match="Did you mean megatron"):
        parser_named("megatorn")


def test_register_parser_puts_a_format_in_the_registry():
    from assay.operators.logs import LogParser, register_parser

    class Nameless(LogParser):
        pass

    with pytest.raises(ValueError, match="needs a `name`"):
        register_parser(Nameless)
    Nameless.name = "t_probe_decorated"
    try:
        assert register_parser(Nameless) is Nameless and registry.get("log_parsers", "t_probe_decorated") is Nameless
    finally:
        registry.unregister("log_parsers", "t_probe_decorated")


def test_policies_are_registered_there(probe):
    from assay.scheduler.policies import available_policies, get_policy, register_policy

    assert type(get_policy("tiresias")) is registry.get("policies", "tiresias")
    probe("policies", "t-probe", None)  # unregistered at the end, whoever registers it next
    register_policy("t-probe", registry.get("policies", "fifo"))
    assert "t-probe" in available_policies() and get_policy("t-probe").name == "fifo"
    with pytest.raises(KeyError, match="known: .*fifo.*Did you mean tiresias"):
        get_policy("tiresia")


def test_model_and_cluster_presets_are_registered_there(probe):
    from assay.scheduler.cluster import get_cluster
    from assay.scheduler.model_spec import PRESETS, ModelSpec, get_model

    assert get_model("GPT_TINY") is registry.get("model_presets", "gpt-tiny")
    assert get_cluster("A100-SXM4-80GB") is registry.get("cluster_presets", "a100-80g")
    mine = probe("model_presets", "t-probe-model",
                 ModelSpec("t-probe-model", layers=2, hidden=32, heads=4, seq_len=16, vocab=64))
    assert PRESETS["t-probe-model"] is mine and get_model("t_probe_model") is mine  # the view is live
    with pytest.raises(KeyError, match="Did you mean gpt-tiny"):
        get_model("gpt-tiyn")


def test_workload_generators_are_registered_there(probe):
    from assay.scheduler.workloads import WorkloadError, named_workload, philly_workload

    assert len(named_workload("philly:5", seed=1).jobs) == 5
    probe("workloads", "tprobe", lambda arg, seed=0: philly_workload(int(arg) * 2, seed=seed))
    assert len(named_workload("tprobe:3").jobs) == 6
    with pytest.raises(WorkloadError, match=r"did you mean philly:\?"):
        named_workload("phily:3")
    with pytest.raises(WorkloadError, match="whole number"):
        named_workload("philly:many")


def test_job_specs_are_registered_there(tmp_path, probe):
    from assay.jobs.spec import SpecError, builtin_names, load_spec, resolve

    assert resolve("gpt-dp") == registry.get("job_specs", "gpt-dp") and "gpt-dp" in builtin_names()
    own = tmp_path / "mine.yaml"
    own.write_text("model: gpt-tiny\nsteps: 3\n")
    probe("job_specs", "t-probe-spec", own)
    assert load_spec("t-probe-spec").steps == 3 and isinstance(resolve("gpt-3d"), Path)
    with pytest.raises(SpecError, match="did you mean gpt-auto"):
        resolve("gpt-autp")
