"""Registration by package entry points: an installed package adds policies, model presets (any namespace)
to the one registry through the group ``assay_<namespace>``, with no table in the core. Each test installs a
small distribution (a ``.dist-info`` folder and its module) on a temporary ``sys.path`` entry, then goes
through the public lookups users call."""

from __future__ import annotations

import logging
import sys

import pytest

from assay import registry
from assay.domain import from_dict, get_model
from assay.scheduler.policies import available_policies, get_policy


@pytest.fixture
def install(tmp_path, monkeypatch):
    """install(dist, entry_points_txt, {module: source}): a distribution importable for this test only; the
    names it registered and its modules are gone afterwards."""
    before = {ns: registry.names(ns) for ns in ("policies", "model_presets")}
    modules: list[str] = []

    def add(dist: str, entry_points: str, sources: dict[str, str]) -> None:
        info = tmp_path / f"{dist.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(entry_points)
        for module, text in sources.items():
            (tmp_path / f"{module}.py").write_text(text)
            modules.append(module)
        monkeypatch.syspath_prepend(str(tmp_path))

    yield add
    monkeypatch.undo()
    for module in modules:
        sys.modules.pop(module, None)
    for ns, names in before.items():
        for name in set(registry.names(ns)) - set(names):
            registry.unregister(ns, name)


POLICY = '''
class SteadyPolicy:
    """Gives every job what it asks for, in order."""
    name = "steady"

    def decide(self, jobs, cluster, now):
        return {}
'''


def test_an_installed_package_registers_a_policy_by_entry_point(install):
    install("plug-steady", "[assay_policies]\nsteady = plug_steady:SteadyPolicy\n", {"plug_steady": POLICY})
    policy = get_policy("steady")
    assert type(policy).__name__ == "SteadyPolicy" and policy.name == "steady"
    assert {"steady", "fifo", "goodput"} <= set(available_policies())


def test_a_plugin_module_registers_its_own_entries_on_import(install):
    source = ("from assay.domain import ModelSpec\nfrom assay.registry import register\n\n"
              "register('model_presets', 'plug-gpt', ModelSpec(name='plug-gpt', layers=2, hidden=96, heads=4,"
              " seq_len=32, vocab=128))\n")
    install("plug-models", "[assay_model_presets]\nmy_models = plug_models\n", {"plug_models": source})
    assert get_model("plug-gpt").hidden == 96
    # and through a job spec naming the preset
    assert from_dict({"model": "plug-gpt", "steps": 3}).model.hidden == 96
    assert "my_models" not in registry.names("model_presets")  # a module's entry point is only a label


def test_a_plugin_never_replaces_a_name_already_registered(install, caplog):
    source = ("from assay.registry import register\n\nclass Impostor:\n    name = 'impostor'\n\n"
              "register('policies', 'goodput', Impostor)\n")
    install("plug-impostor", "[assay_policies]\nfifo = plug_impostor:Impostor\nmore = plug_impostor\n",
            {"plug_impostor": source})
    with caplog.at_level(logging.WARNING, logger="assay.registry"):
        names = available_policies()
    assert "impostor" not in names and {"fifo", "goodput"} <= set(names)
    assert type(get_policy("fifo")).__name__ != "Impostor"
    assert type(get_policy("goodput")).__name__ != "Impostor"
    assert [r.getMessage().split(" (")[0] for r in caplog.records] == [
        "entry point fifo = plug_impostor:Impostor", "entry point more = plug_impostor"]


def test_a_broken_plugin_fails_naming_its_package_and_entry_point(install):
    install("plug-broken", "[assay_policies]\nbroken = plug_broken:Policy\n",
            {"plug_broken": "import a_module_nobody_installed\n"})
    with pytest.raises(ModuleNotFoundError) as caught:
        get_policy("broken")
    assert any("broken = plug_broken:Policy of plug-broken (group assay_policies)" in note
               for note in caught.value.__notes__)
    with pytest.raises(ModuleNotFoundError):  # every lookup says so, not only the first
        available_policies()
