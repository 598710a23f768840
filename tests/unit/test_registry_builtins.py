"""assay's built-ins are entry points of its own packaging metadata (pyproject.toml's
``[project.entry-points.assay_<namespace>]``), not a table in the core: the installed metadata says what
pyproject.toml says, every namespace has its words and every declared module exists, and no module of the
operators or policies registers an entry that the declared entry points do not reach (a family added without
its entry point). Without the metadata a lookup says which command installs it.

Run as a script (``python test_registry_builtins.py PACKAGE...``) it prints, as JSON, what importing every
module under the packages adds to the registry after all the built-ins were loaded: the tests run it in a
fresh interpreter, where nothing was imported before."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from assay import registry
from assay.registry import KINDS, NotInstalled, Registry

ROOT = Path(__file__).resolve().parents[2]
#: Where built-in operators and policies live: every module under these is imported by the completeness test.
FAMILIES = ("assay.operators", "assay.scheduler.policies")
REINSTALL = "assay's installed metadata is stale: run `pip install -e .` (or make install)"


def declared() -> dict[str, dict[str, str]]:
    """pyproject.toml's built-ins: namespace -> {entry point name: module}."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {group.removeprefix("assay_"): dict(points)
            for group, points in project.get("entry-points", {}).items() if group.startswith("assay_")}


def unreached(reg: Registry, packages: tuple[str, ...]) -> dict[str, list[str]]:
    """namespace -> the names that importing every module under ``packages`` registers in ``reg`` beyond what
    loading all its built-ins registered (empty lists: every built-in is reached by an entry point)."""
    before = {ns: set(reg.names(ns)) for ns in reg.namespaces()}
    for package in packages:
        for info in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
            importlib.import_module(info.name)
    return {ns: sorted(set(reg.names(ns)) - before.get(ns, set())) for ns in reg.namespaces()}


def _source(module: str) -> Path | None:
    """The file of ``module`` in the source tree, through pyproject.toml's package-dir (nothing imported)."""
    folders = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    prefix = max((p for p in folders if p and (module == p or module.startswith(p + "."))), key=len, default="")
    base = ROOT / folders[prefix] / Path(*module.removeprefix(prefix).lstrip(".").split("."))
    return next((f for f in (base.with_suffix(".py"), base / "__init__.py") if f.is_file()), None)


def test_the_installed_metadata_declares_what_pyproject_declares():
    installed: dict[str, dict[str, str]] = {}
    for point in metadata.distribution("assay").entry_points:
        if point.group.startswith("assay_"):
            installed.setdefault(point.group.removeprefix("assay_"), {})[point.name] = point.value
    assert installed == declared(), REINSTALL


def test_every_namespace_has_its_words_and_every_declared_module_exists():
    builtins = declared()
    assert sorted(builtins) == sorted(KINDS) == registry.namespaces()
    for namespace, points in builtins.items():
        for name, value in points.items():
            assert ":" not in value, f"{namespace} {name}: a built-in is a module that registers its entries"
            assert _source(value), f"{namespace} {name} = {value}: no such module in the source tree"
    # the operators are imported in their names' order: papers first, so a papers run never imports logs
    assert list(builtins["operators"].values()) == ["assay.operators.papers", "assay.operators.logs"]
    assert sorted(builtins["operators"]) == list(builtins["operators"])


def test_no_operator_or_policy_module_registers_beyond_the_entry_points():
    out = subprocess.run([sys.executable, __file__, *FAMILIES], capture_output=True, text=True, check=True)
    added = json.loads(out.stdout)
    assert {"operators", "log_parsers", "policies"} <= set(added)
    assert {ns: names for ns, names in added.items() if names} == {}, \
        "modules that register built-ins without an entry point in pyproject.toml (then reinstall)"


def test_the_completeness_check_finds_a_family_without_an_entry_point(tmp_path, monkeypatch):
    """The check above, shown failing: a scratch distribution declares family ``a`` but not ``b``."""
    import assay.registry as registry_module

    package = f"scratch_family_{tmp_path.name}".replace("-", "_")
    (tmp_path / package).mkdir()
    (tmp_path / package / "__init__.py").write_text("")
    for family in ("a", "b"):
        (tmp_path / package / f"{family}.py").write_text(
            f"import assay.registry as r\nr.REGISTRY_UNDER_TEST.register('things', 'from_{family}', 1)\n")
    info = tmp_path / "scratch_dist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: scratch-dist\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[assay_things]\na = {package}.a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    scratch = Registry(distribution="scratch-dist", kinds={"things": "thing"})
    monkeypatch.setattr(registry_module, "REGISTRY_UNDER_TEST", scratch, raising=False)
    try:
        assert scratch.names("things") == ["from_a"]
        assert unreached(scratch, (package,)) == {"things": ["from_b"]}
    finally:
        for name in [m for m in sys.modules if m.startswith(package)]:
            del sys.modules[name]


def test_without_its_metadata_a_lookup_says_how_to_install(tmp_path, monkeypatch):
    missing = Registry(distribution="assay-never-installed-here")
    with pytest.raises(NotInstalled) as caught:
        missing.get("policies", "fifo")
    assert caught.value.code == "E003" and "never installed" in str(caught.value)
    assert "pip install -e ." in caught.value.fix
    # metadata written before the built-ins were entry points (none declared) says the same
    info = tmp_path / "old_assay-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: old-assay\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[console_scripts]\nold-assay = old_assay.cli:main\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(NotInstalled, match="declares no assay_\\* entry points.*Fix: install it: pip install"):
        Registry(distribution="old-assay").names("policies")


def test_a_declared_module_that_is_gone_says_the_metadata_is_stale(tmp_path, monkeypatch):
    info = tmp_path / "moved_dist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: moved-dist\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[assay_things]\nold = a_module_that_moved_away\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(NotInstalled, match="names the module a_module_that_moved_away .*does not exist"):
        Registry(distribution="moved-dist").get("things", "x")


if __name__ == "__main__":
    print(json.dumps(unreached(registry.REGISTRY, tuple(sys.argv[1:]))))
