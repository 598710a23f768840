"""The papers operators on the real-papers measuring set (``<repo>/../shared/realpapers``), scored against what
a person read from each paper: a ratchet, the figures may not fall below what main reached when the set was
last measured (``docs/papers.md``). Skipped where the set is absent (CI has no ``../shared``); the scorer
itself is ``tests/realpapers_score.py``. Raise the floors when the figures rise."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
REALPAPERS = REPO.parent / "shared" / "realpapers"

#: Floors per part: precision, recall, and of the matched ratio claims the share with subject and baseline
#: both right, as main measured at d13dcb1 (a clean checkout; dev 0.935/0.966/0.611, test 0.932/0.911/0.496,
#: all 0.934/0.949/0.577) less 0.02, rounded down; "both" raised after 6463293 (dev 0.980/0.987/0.656,
#: test 0.932/0.911/0.504, all 0.965/0.963/0.612), the only figure that rose in both parts; raised again
#: after the paper's default baseline (fb7983d: both dev 0.697, test 0.602, all 0.669; P and R unchanged).
FLOORS = {
    "dev": {"precision": 0.91, "recall": 0.94, "both": 0.67},
    "test": {"precision": 0.91, "recall": 0.89, "both": 0.58},
    "all": {"precision": 0.91, "recall": 0.92, "both": 0.64},
}


def _scorer():
    spec = importlib.util.spec_from_file_location("realpapers_score", REPO / "tests" / "realpapers_score.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not (REALPAPERS / "gold.jsonl").exists(), reason="no ../shared/realpapers here")
def test_papers_operators_read_the_real_papers_no_worse_than_main_did():
    result = _scorer().score_set(REALPAPERS)
    measured = {"dev": result.part("dev"), "test": result.part("test"), "all": result.total}
    for part, floors in FLOORS.items():
        s = measured[part]
        got = {"precision": s.precision, "recall": s.recall, "both": s.attribution}
        for name, floor in floors.items():
            assert got[name] >= floor, f"{part} {name} {got[name]:.3f} < {floor} ({got})"
