"""``docs/cli.md`` is what the commands say about themselves: regenerated here and compared."""

from __future__ import annotations

import difflib
from pathlib import Path

from assay.cli.reference import reference

ROOT = Path(__file__).resolve().parents[2]


def test_the_cli_reference_is_up_to_date():
    written = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    current = reference()
    stale = "".join(difflib.unified_diff(written.splitlines(True), current.splitlines(True), "docs/cli.md",
                                         "the commands now", n=1))
    assert not stale, f"docs/cli.md is stale; run `make docs`:\n{stale[:3000]}"


def test_the_reference_walks_into_groups():
    text = reference()
    for command in ("## assay run", "## assay jobs", "## assay jobs run", "## assay jobs resume", "## assay check"):
        assert f"\n{command}\n" in text, command
    assert "(#assay-jobs-submit)" in text
