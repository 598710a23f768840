"""A result opened by a contrast marker ("In contrast, Quill cuts ...") is measured against what the sentence
before it, in the same paragraph, was about: its subject when that is another system, or the condition it
opens with ("Without sharing, ...")."""

from __future__ import annotations

from papers_extract import claims_by_text

FRONT = (
    "Quill: Saving Energy in Pipeline Training\n\nWe present Quill, a power manager for training jobs.\n\n"
)


def _claims(text: str) -> dict[str, dict]:
    return claims_by_text(FRONT + text)


def test_the_previous_sentences_system_is_the_baseline():
    c = _claims(
        "FooFreq lowers the clock of one stage only and keeps the others at full speed. In contrast, Quill "
        "cuts the energy of an iteration by up to 26% without slowing it down.\n"
    )
    assert (c["26%"]["subject"], c["26%"]["versus"]) == ("Quill", "FooFreq")


def test_the_previous_sentences_condition_is_the_baseline():
    c = _claims(
        "Without co-location, the twelve services need twelve accelerators. By contrast, Quill packs them "
        "onto one, a 12x reduction.\n"
    )
    assert c["12x"]["versus"] == "Without co-location"


def test_no_contrast_across_a_paragraph_or_with_a_baseline_of_its_own():
    c = _claims(
        "FooFreq lowers the clock of one stage only.\n\nIn contrast, Quill cuts the energy by up to 26%. "
        "BarPower slows every stage. In contrast, Quill saves 31% more than Zeus on every model.\n"
    )
    assert c["26%"]["versus"] != "FooFreq"
    assert c["31%"]["versus"] == "Zeus"
