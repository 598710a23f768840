"""A traceback's first line cut where the log ends (``Traceback (m``) still says the run failed there; a line that
only mentions tracebacks is no failure. Logs written for the test."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _parsed(tmp_path, lines: list[str]):
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n")
    return parse_log(path)


def test_a_traceback_cut_at_its_first_words_is_the_runs_failure(tmp_path):
    parsed = _parsed(
        tmp_path,
        [
            " step 0 is completed and loss is 0.4120",
            " step 1 is completed and loss is 0.3981",
            "",
            "Traceback (m",
        ],
    )
    assert [(e["kind"], e["step"]) for e in parsed.events] == [("failure", 1)]
    assert parsed.run["status"] == "failed"


def test_prose_about_tracebacks_is_no_failure(tmp_path):
    parsed = _parsed(
        tmp_path,
        [
            " step 0 is completed and loss is 0.4120",
            "Traceback (most helpful) reports are printed when --debug is set",
            " step 1 is completed and loss is 0.3981",
        ],
    )
    assert parsed.events == []
