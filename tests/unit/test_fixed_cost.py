"""What a small local run does not load (issue 27's fixed cost): a papers run imports neither Ray, torch nor
the logs family of operators; the registry imports built-in families only until the name asked for is found,
and still lists every family's names."""

from __future__ import annotations

import subprocess
import sys

from assay.registry import Registry


def _family(tmp_path, name: str, registers: str) -> str:
    module = f"fixed_cost_family_{name}_{tmp_path.name}".replace("-", "_")
    (tmp_path / f"{module}.py").write_text(
        "import assay.registry as r\n"
        f"LOADED = True\n"
        f"r.REGISTRY_UNDER_TEST.register('things', {registers!r}, {registers!r})\n")
    return module


def test_a_lookup_imports_families_until_one_has_the_name_and_a_listing_imports_all(tmp_path, monkeypatch):
    import assay.registry as registry_module

    first, second = _family(tmp_path, "a", "apple"), _family(tmp_path, "b", "berry")
    info = tmp_path / "fixed_cost_dist-1.0.dist-info"  # the built-ins' distribution, as assay's own
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fixed-cost-dist\nVersion: 1.0\n")
    # written out of order: built-ins are imported in the order of their entry points' names
    (info / "entry_points.txt").write_text(f"[assay_things]\n2-second = {second}\n1-first = {first}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = Registry(distribution="fixed-cost-dist", kinds={"things": "thing"})
    monkeypatch.setattr(registry_module, "REGISTRY_UNDER_TEST", reg, raising=False)
    assert reg.get("things", "apple") == "apple"
    assert first in sys.modules and second not in sys.modules
    assert reg.get("things", "berry") == "berry"  # a miss goes on to the next family
    assert reg.names("things") == ["apple", "berry"]


def test_a_small_papers_run_loads_no_ray_torch_or_logs_family():
    code = ("import sys\n"
            "from assay.dsl import load_pipeline\n"
            "import assay.runtime._run, assay.runtime._local\n"
            "p = load_pipeline('papers')\n"
            "print(sorted(m for m in ('ray', 'torch', 'assay.operators.logs') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
