"""The logs pipeline on the real-log measuring set (``<repo>/../shared/reallogs``), scored against what a person
read from each file, per part of the set (``tests/shared_split.py``): a ratchet, the shares of gold fields right
may not fall below what main reached when the set was last measured (``docs/logs.md``). The issue's goal is 95 %
on logs nobody tuned on; the floors rise as the figures do. Skipped where the set is absent; the scorer itself
is ``tests/reallogs_score.py``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
REALLOGS = REPO.parent / "shared" / "reallogs"

#: Floors per part, as main measured them through the pipeline (dev 97.7 %, test 79.2 %, all 90.9 %) less
#: about two points.
FLOORS = {"dev": 0.95, "test": 0.77, "all": 0.88}


def _scorer():
    spec = importlib.util.spec_from_file_location("reallogs_score", REPO / "tests" / "reallogs_score.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not (REALLOGS / "gold.jsonl").exists(), reason="no ../shared/reallogs here")
def test_pipeline_reads_the_real_logs_no_worse_than_main_did(tmp_path, monkeypatch):
    monkeypatch.setenv("ASSAY_RUNNER", "local")  # what the pipeline reads, not where: the same rows on Ray
    scorer = _scorer()
    scores = scorer.score_set(REALLOGS, pipeline_db=tmp_path / "assay.duckdb")
    parts = {**scorer.by_part(scores), "all": scores}
    for part, floor in FLOORS.items():
        share = scorer.share_right(parts[part])
        misses = {s.file: s.mismatches for s in parts[part] if s.mismatches and part == "dev"}
        assert share >= floor, f"{part}: {share:.3f} < {floor}; dev mismatches: {misses}"
