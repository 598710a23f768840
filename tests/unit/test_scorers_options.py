"""The measuring scripts refuse an option they do not read, with one line naming it and the ones they do: a
mistyped or imagined option ("--dev-only") was silently ignored, and the output read as if it had applied."""

from __future__ import annotations

import json

import pytest
import reallogs_score
import realpapers_score


@pytest.mark.parametrize("scorer", [reallogs_score, realpapers_score])
def test_an_unknown_option_is_refused_with_the_options_named(scorer, capsys):
    assert scorer.main(["--dev-only"]) == 2
    out = capsys.readouterr().out.strip()
    assert len(out.splitlines()) == 1
    assert "--dev-only" in out and "--quiet" in out


def test_the_papers_scorer_lists_a_test_documents_mismatches_only_when_asked(tmp_path, capsys):
    # "bilby" falls in the test part by its name's hash, so its mismatches are measured, never listed, unless the
    # whole set is opened for development with --all-mismatches
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "bilby.md").write_text("# Bilby\n\nBilby trains 2.5x faster than Wombat.\n")
    claim = {"value": 2.5, "unit": "x", "subject": "Platypus", "versus": "Wombat", "type": "result"}
    (tmp_path / "gold.jsonl").write_text(json.dumps({"doc": "bilby", "claims": [claim]}) + "\n")
    assert realpapers_score.main([str(tmp_path)]) == 0
    assert "(gold 'Platypus')" not in capsys.readouterr().out
    assert realpapers_score.main([str(tmp_path), "--all-mismatches"]) == 0
    assert "(gold 'Platypus')" in capsys.readouterr().out
