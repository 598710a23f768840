"""A passive comparison whose subject the clause before leaves out ("Quill beats A by 1.3x and is only slightly
outperformed by B by 1.05x"): the agent is what the number measures, the left-out subject its baseline. A
"factor of" a line break splits ("by a factor of\\n1.05") is still a multiple."""

from __future__ import annotations

from papers_extract import extracted_claims

_OWN = "We present Quill, an in-network aggregator.\n\n"


def _got(text: str) -> list[tuple[float, str, str | None]]:
    return [(c["value"], c["subject"], c["versus"]) for c in extracted_claims(_OWN + text) if c["unit"] == "x"]


def test_the_agent_of_a_passive_with_its_subject_left_out_is_measured():
    got = _got("Quill beats BarPipe by 1.3x and is only slightly outperformed by SwitchX* by 1.05x.\n")
    assert got == [(1.3, "Quill", "BarPipe"), (1.05, "SwitchX*", "Quill")]


def test_a_factor_broken_over_lines_is_read():
    got = _got(
        "Quill improves the training time by a factor\nof 1.34x over the ring baseline and is slightly "
        "outperformed by SwitchX by a factor of\n1.05, as the figure shows.\n"
    )
    assert [(v, s) for v, s, _ in got] == [(1.34, "Quill"), (1.05, "SwitchX")]
    assert got[1][2] == "Quill"
