"""The measuring scripts refuse an option they do not read, with one line naming it and the ones they do: a
mistyped or imagined option ("--dev-only") was silently ignored, and the output read as if it had applied."""

from __future__ import annotations

import pytest
import reallogs_score
import realpapers_score


@pytest.mark.parametrize("scorer", [reallogs_score, realpapers_score])
def test_an_unknown_option_is_refused_with_the_options_named(scorer, capsys):
    assert scorer.main(["--dev-only"]) == 2
    out = capsys.readouterr().out.strip()
    assert len(out.splitlines()) == 1
    assert "--dev-only" in out and "--quiet" in out
