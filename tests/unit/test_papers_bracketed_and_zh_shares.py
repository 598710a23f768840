"""A number alone in brackets right after a name is that system's figure ("outperforming the FooSpec baseline
(1.01x)"), and a Chinese share of a peak or maximum names that whole before its number ("低于峰值的 5%"): the
peak is what the share is measured against. Papers written for the test."""

from __future__ import annotations

from papers_extract import extracted_claims

_EN = "Quill: Specializing Kernels\n\nAbstract\nWe present Quill, a compiler pass that specializes kernels.\n\nEvaluation\n"


def _claims(text: str, uri: str = "/x.txt") -> list[tuple[float, str | None, str | None]]:
    return [(c["value"], c["subject"], c["versus"]) for c in extracted_claims(text, source_uri=uri)]


def test_a_bracketed_number_after_a_name_is_that_systems():
    text = _EN + "Overall, Quill achieves a mean speedup of 1.05x, outperforming the FooSpec baseline (1.01x).\n"
    assert _claims(text) == [(1.05, "Quill", "FooSpec"), (1.01, "FooSpec", None)]


def test_a_bracket_after_a_figure_reference_names_no_system():
    claims = _claims(_EN + "As Figure 3 (1.5x) shows, Quill is faster than FooSpec.\n")
    assert all(subject != "Figure" for _, subject, _ in claims)


def test_a_chinese_share_of_the_peak_is_measured_against_the_peak():
    text = (
        "# Quill：内核特化\n\n我们提出 Quill，一个内核特化编译器。\n\n"
        "Quill 的有效性能比现有系统高 12 倍，这表明它们的运行速度低于峰值的 6%。\n\n"
        "现有系统的训练效率通常还不到这些机器所能达到的最大效率的4%。\n"
    )
    versus = {value: v for value, _, v in _claims(text, "/x.md")}
    assert versus[12.0] == "现有系统"
    assert versus[6.0] == "峰值"
    assert versus[4.0] == "这些机器所能达到的最大效率"


def test_a_class_of_other_systems_opening_the_clause_is_its_subject():
    text = _EN + (
        "Existing systems achieve less than 5% of the peak.\n"
        "Even with such resources, existing open-source frameworks typically reach less than 7% of the peak.\n"
        "Quill is 1.5x faster than existing systems.\n"
    )
    subjects = {value: s for value, s, _ in _claims(text)}
    assert subjects == {5.0: "Existing systems", 7.0: "existing open-source frameworks", 1.5: "Quill"}


def test_a_chinese_class_of_other_systems_opening_the_clause_is_its_subject():
    text = "# Quill：内核特化\n\n我们提出 Quill，一个内核特化编译器。\n\n即使有了这样的资源，现有的开源系统的训练效率通常还不到峰值的4%。\n"
    assert _claims(text, "/x.md") == [(4.0, "现有的开源系统", "峰值")]
