"""The architecture as rules the build enforces, read from the source (``make lint`` runs this file).

The rule that says most is an order: :data:`LAYERS` lists assay's packages bottom to top, once, and a module
may import its own package and the layers below its own, never a layer above it nor a sibling in its own
layer (siblings are independent of each other). Imports inside functions count like those at the head: a
dependency hidden in a function is still a dependency. No cycle is allowed between packages or between
modules. ``docs/architecture.md`` draws its picture from this order.

The targeted rules after it say what an order cannot: which third-party libraries a layer may touch (no Ray
outside the one Ray boundary, ``assay.ray_session``, DuckDB only in the store, torch only in the training workload), no
reaching into another package's private modules, and no module past 400 lines unless its docstring says why
it is longer (never past 600).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE_ROOTS = {"platform/assay": "assay", "operators": "assay.operators", "pipelines": "assay.pipelines",
                "dashboards": "assay.dashboards"}
#: The scheduler's core runs unchanged in the simulator and under the live scheduler: no Ray in it.
SCHEDULER_CORE = ("assay.scheduler.cost_model", "assay.scheduler.planner", "assay.scheduler.policies",
                  "assay.scheduler.simulator", "assay.scheduler.workloads", "assay.scheduler.cluster",
                  "assay.scheduler.model_spec", "assay.scheduler.layout")
#: The base of every layer (the two bottom rows of LAYERS): the error catalogue, the one registry, the clock
#: and stable ids. The operators, which import little else of assay's, may import them.
BASE = ("assay.errors", "assay.registry", "assay.clock", "assay.ids")
#: assay's packages, bottom to top. Each row is one layer; the packages of a row are independent of each
#: other. Drawn from the imports (function-local ones included); a new package must be given its row here.
LAYERS: tuple[tuple[str, ...], ...] = (
    # the error catalogue: every error has a code and a fix
    ("assay.errors",),
    # the base: the one registry of names, the clock, stable content ids
    ("assay.registry", "assay.clock", "assay.ids"),
    # the job side's types (layout, model, job spec, a job and its states), knowing only the base
    ("assay.domain",),
    # the foundations: the database (all DDL and SQL writes; a job's row converted to and from the domain's
    # Job); the pipeline language; the one place that speaks to Ray
    ("assay.store", "assay.dsl", "assay.ray_session"),
    # the public facade: ``from assay import Pipeline, operator``, ``assay.__version__``
    ("assay",),
    # what runs on the foundations: operators (records in, records out); scoring against gold files; the
    # pipeline runtime on Ray Data; the scheduler's core (cost model, planner, policies, simulator); the
    # training workload that runs inside a job's Ray workers
    ("assay.operators", "assay.evaluation", "assay.runtime", "assay.scheduler", "assay.training"),
    # the built-in pipelines; operators calibrated against gold; job control (specs, queue, supervisors)
    ("assay.pipelines", "assay.calibration", "assay.jobs"),
    # the live scheduler: the scheduler's policies driving job control
    ("assay.live",),
    # claim checks: papers' claims against runs, the cost model and the live scheduler's jobs
    ("assay.checks",),
    # the demo and the dashboards, both reading what the layers below wrote
    ("assay.demo", "assay.dashboards"),
    # the command line, over everything
    ("assay.cli",),
)
#: Orders inside a package, read like LAYERS: its areas (sub-packages and modules), bottom to top. The
#: scheduler's core: the cluster and the pools it is cut into; the cost model and the policies on them; the
#: planner (on the cost model) and the workloads (traces whose jobs name policies' types); the simulator
#: replaying workloads under a policy; the package itself on top.
INNER_LAYERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "assay.scheduler": (
        ("assay.scheduler.cluster", "assay.scheduler.pools", "assay.scheduler.layout", "assay.scheduler.model_spec",
         "assay.scheduler._megatron_table"),
        ("assay.scheduler.cost_model", "assay.scheduler.policies"),
        ("assay.scheduler.planner", "assay.scheduler.workloads"),
        ("assay.scheduler.simulator",),
        ("assay.scheduler",),
    ),
}
#: Module cycles still being removed. The test below fails once one is gone, so its line here is deleted
#: with the fix (none left: the goodput policies share ``_utility``; the cost model's latest fit is loaded by
#: ``_stored.latest_model``, no longer by a ``CostModel`` method importing the store adapter).
KNOWN_MODULE_CYCLES: tuple[tuple[str, ...], ...] = ()
MAX_LINES = 600
#: Past this a module's docstring must say why it is one module ("Why one module: ...").
READABLE_LINES = 400


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text())


def modules(root: Path = ROOT) -> dict[str, tuple[Path, list[str]]]:
    """Every production module under ``root``: its file and the modules it imports (at any depth)."""
    found = {}
    for folder, package in SOURCE_ROOTS.items():
        for path in (root / folder).rglob("*.py"):
            parts = [p for p in path.relative_to(root / folder).with_suffix("").parts if p != "__init__"]
            name = ".".join([package, *parts])
            imports = []
            for node in ast.walk(_tree(path)):
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


# -- the layer order -------------------------------------------------------------------------------------

def package_of(name: str) -> str:
    """The unit of the layer order a module belongs to: ``assay`` itself (the facade), else ``assay.<x>``."""
    return ".".join(name.split(".")[:2])


def _known(name: str, mods: Mapping) -> str | None:
    """The module ``name`` denotes: itself, or the longest prefix of it that is a module (``a.b.func``)."""
    parts = name.split(".")
    return next((".".join(parts[:k]) for k in range(len(parts), 0, -1) if ".".join(parts[:k]) in mods), None)


def import_graph(mods: Mapping | None = None) -> dict[str, set[str]]:
    """Module -> the modules of assay it imports, function-local imports included. ``from package import
    name`` imports the module ``package.name`` where there is one (a submodule), else ``package``."""
    if mods is None:
        return _the_import_graph()
    graph: dict[str, set[str]] = {}
    for name, (path, _) in mods.items():
        targets: set[str] = set()
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                wanted = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in mods else node.module
                          for a in node.names]
            elif isinstance(node, ast.Import):
                wanted = [a.name for a in node.names]
            else:
                continue
            targets |= {t for t in map(lambda w: _known(w, mods), wanted) if t and t != name}
        graph[name] = targets
    return graph


@functools.cache
def _the_import_graph() -> dict[str, set[str]]:
    """assay's own import graph, read once for the tests of this file."""
    return import_graph(MODULES)


def package_graph(mods: Mapping | None = None) -> dict[str, set[str]]:
    """Package -> the other packages its modules import."""
    graph: dict[str, set[str]] = {}
    for name, targets in import_graph(mods).items():
        graph.setdefault(package_of(name), set()).update(package_of(t) for t in targets)
    return {p: targets - {p} for p, targets in graph.items()}


def cycles(graph: Mapping[str, set[str]]) -> list[tuple[str, ...]]:
    """Every set of nodes that reach one another (a strongly connected component of more than one node,
    Tarjan's algorithm without recursion), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(sorted(graph.get(root, ()))))]
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while not component or component[-1] != node:
                    component.append(stack.pop())
                    on_stack.discard(component[-1])
                if len(component) > 1:
                    found.append(tuple(sorted(component)))
    return sorted(found)


def area_of(name: str, package: str) -> str:
    """The area of ``package`` (a sub-package or module of it, or the package itself) ``name`` is in."""
    return ".".join(name.split(".")[:package.count(".") + 2])


def order_violations(layers: Sequence[Sequence[str]] = LAYERS, mods: Mapping | None = None,
                     within: str | None = None) -> list[str]:
    """Every import of a package in a layer above the importer's, or of a sibling in its own layer; with
    ``within``, of an area of that package by another (``layers`` is then that package's inner order)."""
    row = {package: i for i, packages in enumerate(layers) for package in packages}
    unit = package_of if within is None else (lambda name: area_of(name, within))
    bad = []
    for name, targets in sorted(import_graph(mods).items()):
        if within is not None and not under(name, within):
            continue
        mine = unit(name)
        for target in sorted(targets):
            theirs = unit(target)
            if theirs == mine or mine not in row or theirs not in row or row[theirs] < row[mine]:
                continue
            where = "its sibling" if row[theirs] == row[mine] else "a layer above it"
            table = "LAYERS" if within is None else f"INNER_LAYERS[{within!r}]"
            bad.append(f"{name} imports {target}: {mine} may not import {theirs}, {where} in {table}")
    return bad


def test_every_package_has_one_place_in_the_layer_order():
    placed = [package for packages in LAYERS for package in packages]
    packages = {package_of(name) for name in MODULES}
    assert sorted({p for p in placed if placed.count(p) > 1}) == [], "a package is listed twice in LAYERS"
    assert sorted(packages - set(placed)) == [], "give each new package its row in LAYERS"
    assert sorted(set(placed) - packages) == [], "LAYERS lists a package that is gone"


def test_no_module_imports_a_layer_above_its_own_or_a_sibling():
    assert order_violations() == []


@pytest.mark.parametrize("package", sorted(INNER_LAYERS))
def test_a_package_with_an_inner_order_keeps_it(package):
    placed = [area for areas in INNER_LAYERS[package] for area in areas]
    areas = {area_of(name, package) for name in MODULES if under(name, package)}
    assert sorted(areas - set(placed)) == [], f"give each new area of {package} its row in INNER_LAYERS"
    assert sorted(set(placed) - areas) == [], f"INNER_LAYERS lists an area of {package} that is gone"
    assert order_violations(INNER_LAYERS[package], within=package) == []


def test_no_two_packages_import_each_other_directly_or_through_others():
    assert cycles(package_graph()) == []


def test_no_two_modules_import_each_other_but_the_known_cycles_being_removed():
    found = cycles(import_graph())
    assert [c for c in found if c not in KNOWN_MODULE_CYCLES] == []
    assert [c for c in KNOWN_MODULE_CYCLES if c not in found] == [], "fixed: delete it from KNOWN_MODULE_CYCLES"


def drawn_layers(doc: str) -> list[tuple[str, ...]]:
    """The rows of the order as ``docs/architecture.md`` draws them (top row first in the picture), bottom to
    top: each picture line is ``N  a | b | c   what they are``."""
    block = doc.split("## Layers: the order, bottom to top", 1)[1].split("```", 2)[1]
    rows = []
    for line in block.splitlines():
        number, _, rest = line.strip().partition(" ")
        if number.isdigit():
            names = re.split(r"\s{2,}|\s\(", rest.strip(), maxsplit=1)[0]
            rows.append(tuple("assay" if n.strip() == "assay" else f"assay.{n.strip()}" for n in names.split("|")))
    return rows[::-1]


def test_the_architecture_page_draws_this_order():
    assert drawn_layers((ROOT / "docs" / "architecture.md").read_text()) == list(LAYERS)

def _bound_names(path: Path) -> set[str]:
    """The names a module binds at its top level (definitions, assignments, imports, also under a top-level
    ``if`` such as ``TYPE_CHECKING``) or exports in ``__all__`` (a name loaded on first use)."""
    names = set()
    body = list(_tree(path).body)
    body += [inner for node in body if isinstance(node, ast.If) for inner in node.body + node.orelse]
    for node in body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            names |= {e.value for e in getattr(node.value, "elts", []) if isinstance(e, ast.Constant)}
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


DOTTED = re.compile(r"[\w.]+")


def job_path_hops(doc: str) -> list[tuple[str, str]]:
    """(caller, callee) of every arrow of the job path in ``docs/architecture.md``, each as ``assay.<dotted>``;
    a line's caller is the nearest line above it that is indented less (the command lines are the CLI's)."""
    block = doc.split("## The job path", 1)[1].split("```", 2)[1]
    hops, stack = [], []  # stack: (indent, the last name on that line)
    for line in block.splitlines():
        if not line.strip() or "->" not in line and not line.startswith("assay "):
            continue
        indent = len(line) - len(line.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if "->" not in line:  # a command: `assay jobs submit ...`
            stack.append((indent, "assay.cli"))
            continue
        names = ["assay." + DOTTED.match(part.strip()).group(0) for part in line.split("->")[1:]]
        caller = stack[-1][1]
        for name in names:
            hops.append((caller, name))
            caller = name
        stack.append((indent, names[-1]))
    return hops


def job_path_problems(doc: str) -> list[str]:
    """A name of the drawn job path that is not in the code, and a hop that points up the layer order."""
    row = {package: i for i, packages in enumerate(LAYERS) for package in packages}
    problems = []
    for caller, callee in job_path_hops(doc):
        module = _known(callee, MODULES)
        rest = callee[len(module) + 1:].split(".")[0] if module and callee != module else None
        if module is None or (rest and rest not in _bound_names(MODULES[module][0])):
            problems.append(f"{callee} is not in the code")
        elif row[package_of(callee)] > row[package_of(caller)]:
            problems.append(f"{caller} -> {callee} points up")
    return problems


def test_the_job_path_names_real_code_and_every_hop_points_down():
    doc = (ROOT / "docs" / "architecture.md").read_text()
    assert len(job_path_hops(doc)) >= 10 and job_path_problems(doc) == []
    drawn = doc.split("## The job path", 1)[1].split("```", 2)[1]
    wrong = drawn.replace("-> domain.job_spec.from_json ", "-> jobs.spec.from_json ").replace(
        "-> jobs._layout.plan ", "-> jobs._layout.plan_it ")
    assert job_path_problems(doc.replace(drawn, wrong)) == [
        "assay.jobs._layout.plan_it is not in the code",
        "assay.training.worker.TrainWorker -> assay.jobs.spec.from_json points up",
    ]

def test_the_order_catches_upward_and_sideways_imports_and_cycles_in_scratch_packages(tmp_path):
    root = tmp_path / "platform" / "assay"
    files = {
        "low/__init__.py": "",
        # an upward import hidden in a function: still a dependency
        "low/reader.py": "def read():\n    from assay.high import run\n    return run\n",
        "high/__init__.py": "",
        "high/run.py": "from assay.low.reader import read\n",
        "loop/__init__.py": "",
        "loop/one.py": "from assay.loop import two\n",
        "loop/two.py": "def back():\n    import assay.loop.one\n",
        "loop/side.py": "import assay.high\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    mods = modules(tmp_path)
    layers = (("assay.low",), ("assay.high", "assay.loop"))
    assert order_violations(layers, mods) == [
        "assay.loop.side imports assay.high: assay.loop may not import assay.high, its sibling in LAYERS",
        "assay.low.reader imports assay.high.run: assay.low may not import assay.high, a layer above it in LAYERS",
    ]
    assert cycles(package_graph(mods)) == [("assay.high", "assay.low")]
    assert cycles(import_graph(mods)) == [("assay.high.run", "assay.low.reader"), ("assay.loop.one", "assay.loop.two")]
    inner = (("assay.loop.two",), ("assay.loop.one", "assay.loop.side"), ("assay.loop",))
    assert order_violations(inner, mods, within="assay.loop") == [
        "assay.loop.two imports assay.loop.one: assay.loop.two may not import assay.loop.one, a layer above it in "
        "INNER_LAYERS['assay.loop']"]
    assert order_violations(tuple(reversed(layers)), mods) == [
        "assay.high.run imports assay.low.reader: assay.high may not import assay.low, a layer above it in LAYERS",
        "assay.loop.side imports assay.high: assay.loop may not import assay.high, its sibling in LAYERS",
    ]


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


#: The one Ray boundary: the only package whose modules import Ray. The runtime, job control, the live
#: scheduler and the training workers reach Ray through it (its ``gangs`` for placement groups and actors).
RAY_BOUNDARY = ("assay.ray_session",)


def ray_imports_outside_the_boundary(mods: dict | None = None) -> list[tuple[str, str]]:
    """Every import of Ray (``ray`` or ``ray.*``, function-local ones included) by a module outside
    :data:`RAY_BOUNDARY`."""
    return sorted((m, i) for m, i in imports_of("assay", mods=mods) if under(i, "ray") and not under(m, *RAY_BOUNDARY))


def test_only_the_ray_boundary_imports_ray():
    assert ray_imports_outside_the_boundary() == []


def test_a_ray_import_outside_the_boundary_in_a_scratch_module_is_caught(tmp_path):
    root = tmp_path / "platform" / "assay"
    files = {
        "ray_session/__init__.py": "",
        "ray_session/gangs.py": "def reserve():\n    from ray.util.placement_group import placement_group\n",
        "jobs/__init__.py": "",
        # a gang started by job control itself, Ray imported inside a function: still caught
        "jobs/_scratch.py": "def start(cls):\n    import ray\n    return ray.remote(cls)\n",
        "live/__init__.py": "from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy\n",
        "training/worker.py": "import ray.exceptions as rex\n",
        # a package whose name only starts like the boundary's is not it
        "ray_sessions.py": "import ray\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    assert ray_imports_outside_the_boundary(modules(tmp_path)) == [
        ("assay.jobs._scratch", "ray"),
        ("assay.live", "ray.util.scheduling_strategies"),
        ("assay.live", "ray.util.scheduling_strategies.PlacementGroupSchedulingStrategy"),
        ("assay.ray_sessions", "ray"),
        ("assay.training.worker", "ray.exceptions"),
    ]


def test_the_scheduler_core_runs_without_ray():
    # What it may import of assay's is the layer order's; this says the simulator needs no cluster.
    assert [(m, i) for m, i in imports_of(*SCHEDULER_CORE) if under(i, "ray")] == []


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


def test_only_the_store_speaks_to_duckdb():
    assert [(m, i) for m, i in imports_of("assay") if under(i, "duckdb") and not under(m, "assay.store")] == []


def test_the_domain_is_plain_python():
    # Every layer above passes the domain's values around, the simulator and Ray workers included: it
    # needs no cluster, no GPU library, no database, no array library to import.
    heavy = ("ray", "torch", "duckdb", "numpy", "pyarrow", "pandas")
    assert [(m, i) for m, i in imports_of("assay.domain") if under(i, *heavy)] == []


def test_the_training_workers_never_reach_the_database():
    # The order lets training import the store (it is lower); Ray workers must not open the one database
    # file (design pitfall 1): the supervisor records what they report.
    assert [(m, i) for m, i in imports_of("assay.training") if under(i, "assay.store", "duckdb")] == []


def test_only_the_training_workload_imports_torch():
    assert [(m, i) for m, i in imports_of("assay") if under(i, "torch") and not under(m, "assay.training")] == []


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
        for node in ast.walk(_tree(path)):
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
