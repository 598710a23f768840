"""A number set against another number ("2-9% vs 70-75%", "6.1%, compared to 29.4% under X"): the second is the
comparand's own figure, its subject the system the text gives it, with no baseline. Own-worded sentences, each
through the whole extraction (``extract_knowledge``)."""

from __future__ import annotations

from papers_extract import claims_in_order


def subjects_and_baselines(papers_bound, text: str) -> list[tuple[str | None, str | None]]:
    return [(c["subject"], c["versus"]) for c in claims_in_order(text, papers_bound)]


def test_the_figure_after_vs_is_the_baselines_own(papers_bound):
    found = subjects_and_baselines(
        papers_bound,
        "We present Quill, a tracer. Quill's probes show far lower overhead than Ferret (2-9% vs 70-75%) "
        "thanks to batching.",
    )
    assert found == [("Quill", "Ferret"), ("Ferret", None)]


def test_a_system_after_the_compared_figure_owns_it(papers_bound):
    found = subjects_and_baselines(
        papers_bound,
        "We present Quill, a tracer. With Quill the gap between the slowest and the fastest stage is only "
        "6.1%, compared to 29.4% under Megatron-LM's partitioning.",
    )
    assert found[1] == ("Megatron-LM", None)
    assert found[0][0] == "Quill"


def test_a_setting_after_the_compared_figure_is_no_owner(papers_bound):
    found = subjects_and_baselines(
        papers_bound, "We present Quill, a tracer. Quill cuts the stall time by 20%, compared to 14% for the static trace."
    )
    assert [s for s, _ in found] == ["Quill", "Quill"]
