"""The logs pipeline on the real-log measuring set (``<repo>/../shared/reallogs``), scored against what a person
read from each file: at least 95 % of the gold fields right. Skipped where the set is absent (CI has no
``../shared``); the scorer itself is ``tests/reallogs_score.py``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
REALLOGS = REPO.parent / "shared" / "reallogs"
GOAL = 0.95


def _scorer():
    spec = importlib.util.spec_from_file_location("reallogs_score", REPO / "tests" / "reallogs_score.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not (REALLOGS / "gold.jsonl").exists(), reason="no ../shared/reallogs here")
def test_pipeline_reads_the_real_logs_as_a_person_does(ray_local, tmp_path):
    scorer = _scorer()
    scores = scorer.score_set(REALLOGS, pipeline_db=tmp_path / "assay.duckdb")
    misses = {s.file: s.mismatches for s in scores if s.mismatches}
    assert scorer.share_right(scores) >= GOAL, misses
