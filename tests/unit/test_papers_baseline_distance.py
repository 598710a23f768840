"""A distance written in brackets between a closeness word and what it is measured from ("not far (30%) from
X", "close (within 4%) to X", "the gap (9%) between ours and X") names X as the number's baseline."""

from __future__ import annotations

from papers_extract import claims_by_text


def _claims(text: str) -> dict[str, dict]:
    return claims_by_text(text)


def test_a_bracketed_distance_names_what_it_is_measured_from():
    c = _claims(
        "We present Quill, a fair scheduler. Even with fairness on, Quill stays not far (25%) from OracleSJF "
        "that knows every job's length. The small gap (7%) between Quill and OracleSJF at full load comes "
        "from preemption.\n"
    )
    assert c["25%"]["versus"] == "OracleSJF"
    assert c["7%"]["versus"] == "OracleSJF"


def test_brackets_without_a_closeness_word_name_nothing():
    c = _claims("We present Quill, a fair scheduler. Quill serves most jobs (80%) from its cache.\n")
    assert c.get("80%", {}).get("versus") is None
