"""The architecture as rules the build enforces (the layers of docs/architecture.md), read from the source:
who may import whom, no reaching into another package's private modules, and no module past 400 lines
unless its docstring says why it is longer (never past 600). ``make lint`` runs this file."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE_ROOTS = {"platform/assay": "assay", "operators": "assay.operators", "pipelines": "assay.pipelines",
                "dashboards": "assay.dashboards"}
#: The scheduler's core runs unchanged in the simulator and under the live scheduler: no Ray in it.
SCHEDULER_CORE = ("assay.scheduler.cost_model", "assay.scheduler.planner", "assay.scheduler.policies",
                  "assay.scheduler.simulator", "assay.scheduler.workloads", "assay.scheduler.cluster",
                  "assay.scheduler.model_spec", "assay.scheduler.layout")
#: The base of every layer: the error catalogue, the one registry, the clock and stable ids. They import
#: nothing else of assay's (but one another), so the DSL, the operators and everything above may import them.
BASE = ("assay.errors", "assay.registry", "assay.clock", "assay.ids")
MAX_LINES = 600
#: Past this a module's docstring must say why it is one module ("Why one module: ...").
READABLE_LINES = 400


def modules(root: Path = ROOT) -> dict[str, tuple[Path, list[str]]]:
    """Every production module under ``root``: its file and the modules it imports (at any depth)."""
    found = {}
    for folder, package in SOURCE_ROOTS.items():
        for path in (root / folder).rglob("*.py"):
            parts = [p for p in path.relative_to(root / folder).with_suffix("").parts if p != "__init__"]
            name = ".".join([package, *parts])
            imports = []
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    imports += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Import):
                    imports += [a.name for a in node.names]
            found[name] = (path, imports)
    return found


MODULES = modules()


def under(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def imports_of(*packages: str, mods: dict | None = None) -> list[tuple[str, str]]:
    mods = MODULES if mods is None else mods
    return [(name, imp) for name, (_, imps) in mods.items() if under(name, *packages) for imp in imps]


def test_the_base_modules_import_nothing_else_of_assay():
    assert [(m, i) for m, i in imports_of(*BASE) if under(i, "assay") and not under(i, *BASE)] == []


def test_the_dsl_imports_nothing_else_of_assay_but_the_base():
    assert [(m, i) for m, i in imports_of("assay.dsl") if under(i, "assay") and not under(i, "assay.dsl", *BASE)] == []


def operator_violations(mods: dict | None = None) -> list[tuple[str, str]]:
    """Operators import the DSL, ids, the base modules and their own family only, and neither Ray nor DuckDB."""
    return [(m, i) for m, i in imports_of("assay.operators", mods=mods)
            if (under(i, "assay") and not under(i, "assay.dsl", "assay.operators", "assay.ids", *BASE))
            or under(i, "ray", "duckdb")]


def test_operators_import_only_the_dsl_and_their_own_family():
    assert operator_violations() == []


def test_a_layering_violation_in_a_scratch_module_is_caught(tmp_path):
    # The rules read files, not imported modules: a new operator that imports Ray fails `make lint`.
    family = tmp_path / "operators" / "scratch"
    family.mkdir(parents=True)
    (family / "__init__.py").write_text("")
    (family / "reader.py").write_text("def read(record):\n    import ray\n    return record\n")
    (family / "store.py").write_text("from assay.store import write_rows\n")
    assert operator_violations(modules(tmp_path)) == [
        ("assay.operators.scratch.reader", "ray"),
        ("assay.operators.scratch.store", "assay.store"),
        ("assay.operators.scratch.store", "assay.store.write_rows"),
    ]


def test_the_scheduler_core_runs_without_ray_and_without_the_layers_above_it():
    bad = [(m, i) for m, i in imports_of(*SCHEDULER_CORE)
           if under(i, "ray", "assay.jobs", "assay.runtime", "assay.cli", "assay.dashboards")]
    assert bad == []


#: The scheduler core's only modules that touch the database, each through ``assay.store`` alone.
STORE_ADAPTERS = ("assay.scheduler.cost_model._stored", "assay.scheduler.simulator._store")


def local_imports(path: Path) -> list[str]:
    """Modules imported inside functions of ``path`` (a dependency the module's head does not show)."""
    found = []
    for fn in ast.walk(ast.parse(path.read_text())):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    found.append(node.module)
                elif isinstance(node, ast.Import):
                    found += [a.name for a in node.names]
    return found


def test_the_scheduler_core_reaches_the_database_only_through_its_store_adapters():
    bad = [(m, i) for m, i in imports_of(*SCHEDULER_CORE)
           if under(i, "duckdb", "sqlite3") or (under(i, "assay.store") and m not in STORE_ADAPTERS)]
    hidden = [(m, i) for m in STORE_ADAPTERS for i in local_imports(MODULES[m][0]) if under(i, "assay.store")]
    assert bad == [] and hidden == []


def test_the_store_depends_on_no_layer_above_it():
    bad = [(m, i) for m, i in imports_of("assay.store")
           if under(i, "assay.runtime", "assay.scheduler", "assay.jobs", "assay.cli", "assay.dashboards",
                    "assay.operators", "assay.pipelines", "ray")]
    assert bad == []


def test_only_the_store_speaks_to_duckdb():
    assert [(m, i) for m, i in imports_of("assay") if under(i, "duckdb") and not under(m, "assay.store")] == []


def test_the_training_workload_knows_the_job_spec_and_no_other_job_control():
    bad = [(m, i) for m, i in imports_of("assay.training")
           if (under(i, "assay.jobs") and not under(i, "assay.jobs.spec"))
           or under(i, "assay.store", "assay.runtime", "assay.checks", "assay.cli", "assay.dashboards")]
    assert bad == []


def test_job_control_never_imports_the_live_scheduler_that_drives_it():
    assert [(m, i) for m, i in imports_of("assay.jobs") if under(i, "assay.live.scheduler")] == []


def test_only_the_training_workload_imports_torch():
    assert [(m, i) for m, i in imports_of("assay") if under(i, "torch") and not under(m, "assay.training")] == []


def test_only_the_command_line_imports_the_command_line():
    assert [(m, i) for m, i in imports_of("assay") if under(i, "assay.cli") and not under(m, "assay.cli")] == []


def _area(name: str) -> str:
    """A package that owns its private modules: assay.X, or assay.operators.X / assay.scheduler.X."""
    parts = name.split(".")
    return ".".join(parts[:3]) if len(parts) > 2 and parts[1] in ("operators", "scheduler") else ".".join(parts[:2])


def test_no_module_reaches_into_another_packages_private_modules():
    bad = []
    for name, (_, imports) in MODULES.items():
        for imp in imports:
            segments = imp.split(".")
            private = next((i for i, s in enumerate(segments) if s.startswith("_") and not s.startswith("__")), None)
            if not imp.startswith("assay.") or private is None:
                continue
            owner = ".".join(segments[:private])
            if not under(name, owner) and _area(owner) != _area(name):
                bad.append(f"{name} imports {imp}: import it from {owner} (add it to {owner}'s __all__)")
    assert bad == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_module_stays_readable(name):
    path, _ = MODULES[name]
    text = path.read_text()
    n_lines = len(text.splitlines())
    assert n_lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {n_lines} lines: split it by what it does"
    if n_lines > READABLE_LINES:
        docstring = ast.get_docstring(ast.parse(text)) or ""
        assert "Why one module:" in docstring, (
            f"{path.relative_to(ROOT)} has {n_lines} lines: split it, or say in its docstring why it is one "
            "module (a line starting 'Why one module:')")


#: Ray's private code: it changes without notice between releases (design pitfall 14). The runtime keeps to
#: Ray's public API, so a Ray upgrade cannot break a run from inside assay.
PRIVATE_RAY = ("ray._private", "ray._raylet")


def is_private_ray(name: str) -> bool:
    """``ray._private...``, ``ray._raylet...`` or any ``ray.<x>._internal...`` (Ray Data's, Train's...)."""
    parts = name.split(".")
    return under(name, *PRIVATE_RAY) or (parts[0] == "ray" and "_internal" in parts[1:])


def private_ray_uses(mods: dict | None = None) -> list[str]:
    """Every import of Ray's private modules (at any depth, function-local ones included), and every
    ``ray._private...``/``ray._raylet...`` reached as an attribute of an imported ``ray``."""
    mods = MODULES if mods is None else mods
    found = [f"{m} imports {i}" for m, (_, imps) in mods.items() for i in imps if is_private_ray(i)]
    for name, (path, _) in mods.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "ray" \
                    and is_private_ray(f"ray.{node.attr}"):
                found.append(f"{name} reaches ray.{node.attr} (line {node.lineno})")
    return sorted(set(found))


def test_nothing_reaches_into_rays_private_modules():
    assert private_ray_uses() == []


def test_a_private_ray_import_in_a_scratch_module_is_caught(tmp_path):
    pkg = tmp_path / "platform" / "assay" / "scratch"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("import ray\nimport ray.data\n")
    (pkg / "head.py").write_text("from ray.data._internal.execution import streaming_executor\n")
    (pkg / "inside.py").write_text("def f():\n    from ray._raylet import Config\n    return Config\n")
    (pkg / "attr.py").write_text("import ray\n\ndef g():\n    return ray._private.worker.global_worker\n")
    (pkg / "train.py").write_text("import ray.train._internal.session as s\n")
    assert private_ray_uses(modules(tmp_path)) == [
        "assay.scratch.attr reaches ray._private (line 4)",
        "assay.scratch.head imports ray.data._internal.execution",
        "assay.scratch.head imports ray.data._internal.execution.streaming_executor",
        "assay.scratch.inside imports ray._raylet",
        "assay.scratch.inside imports ray._raylet.Config",
        "assay.scratch.train imports ray.train._internal.session",
    ]
