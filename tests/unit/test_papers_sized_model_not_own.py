"""A name the paper writes with a parameter count joined to it (``Zephyrix-13B``) is a model it runs, not its
own system, even where sentences open with it and no gazetteer knows it. Through the public papers path."""

from __future__ import annotations

from papers_extract import claims_by_text

PAPER = (
    "Faster Collectives on a Closed Vendor Stack\n\n"
    "Abstract\n\n"
    "We study how collective strategies can be composed above a vendor library.\n\n"
    "1 Introduction\n\n"
    "Zephyrix routes every token to two experts, so its all-to-all traffic dominates a training step. "
    "Zephyrix shards its experts over eight devices. "
    "We train Zephyrix-13B on eight devices. "
    "The composed strategies run 1.6x faster than the vendor default.\n"
)


def test_a_sized_model_is_not_the_paper_s_system():
    claims = claims_by_text(PAPER)
    assert claims["1.6x"]["subject"] != "Zephyrix"
    assert claims["1.6x"]["versus"] == "vendor default"


def test_a_system_the_paper_presents_stays_its_own_with_a_sized_model_beside_it():
    paper = PAPER.replace(
        "We study how collective strategies", "We present Colmix, a search loop showing how collective strategies"
    ).replace("The composed strategies run", "Colmix runs")
    claims = claims_by_text(paper)
    assert claims["1.6x"]["subject"] == "Colmix"
