"""Where assay's one Ray session helper connects: the address given, else RAY_ADDRESS, else embedded Ray; and
the one Ray boundary (issue 27): every call into Ray from the pipelines' runtime goes through
``assay.ray_session``, which sits below the runtime and job control and imports neither."""

import ast
import subprocess
import sys
from pathlib import Path

import assay.ray_session
import assay.runtime
from assay.ray_session import cluster_address


def test_an_address_given_wins_over_ray_address(monkeypatch):
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    assert cluster_address("auto") == "auto"


def test_ray_address_is_honoured_when_no_address_is_given(monkeypatch):
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    assert cluster_address(None) == "10.0.0.1:6379"


def test_no_address_anywhere_means_embedded_ray(monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert cluster_address(None) is None
    monkeypatch.setenv("RAY_ADDRESS", "")
    assert cluster_address("") is None


def _imports(package) -> dict[str, list[str]]:
    """Each module of ``package`` and the modules it imports (function-local imports included)."""
    found = {}
    for path in Path(package.__file__).parent.glob("*.py"):
        names = []
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.append(node.module)
            elif isinstance(node, ast.Import):
                names += [a.name for a in node.names]
        found[path.name] = names
    return found


def test_the_boundary_imports_nothing_of_assay_above_it():
    above = ("assay.runtime", "assay.jobs", "assay.cli", "assay.live", "assay.training", "assay.store", "assay.dsl")
    bad = [(m, i) for m, imps in _imports(assay.ray_session).items() for i in imps
           if any(i == a or i.startswith(a + ".") for a in above)]
    assert bad == []


def test_the_runtime_reaches_ray_only_through_the_boundary():
    bad = [(m, i) for m, imps in _imports(assay.runtime).items() for i in imps if i == "ray" or i.startswith("ray.")]
    assert bad == []


def test_the_names_other_code_imports_stay_where_they_were():
    assert assay.runtime.ClusterError is assay.ray_session.ClusterError
    assert assay.runtime.prefer_token_auth is assay.ray_session.prefer_token_auth
    for name in ("ensure_ray", "shutdown_ray", "quiet_ray", "cluster_address", "own_autoscaler_monitors"):
        assert callable(getattr(assay.ray_session, name))


def test_importing_the_boundary_and_the_runtime_loads_no_ray():
    code = ("import sys, assay.ray_session, assay.runtime._run, assay.runtime._watchdog; "
            "print('ray' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
