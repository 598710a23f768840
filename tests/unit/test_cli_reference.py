"""``docs/cli.md`` is what the commands say about themselves, ``docs/errors.md`` what the error catalogue
holds: regenerated here and compared."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from assay.cli.reference import reference
from assay.errors import reference as errors_reference

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("doc", "write"), [("cli.md", reference), ("errors.md", errors_reference)])
def test_the_generated_references_are_up_to_date(doc, write):
    written = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    stale = "".join(difflib.unified_diff(written.splitlines(True), write().splitlines(True), f"docs/{doc}",
                                         "as written now", n=1))
    assert not stale, f"docs/{doc} is stale; run `make docs`:\n{stale[:3000]}"


def test_the_reference_walks_into_groups():
    text = reference()
    for command in ("## assay run", "## assay jobs", "## assay jobs run", "## assay jobs resume", "## assay check"):
        assert f"\n{command}\n" in text, command
    assert "(#assay-jobs-submit)" in text
