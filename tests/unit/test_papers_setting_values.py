"""Settings written with a ratio unit are no claims, read by what the text says around the number: the value
a named setting is set to (an SLO scale, a threshold, a model built at a fraction of the full size, a
parameter named by a letter), a panel's label line, a value set with an adverb in between ("is
conservatively set to"), a list of sizes a study enumerates, and "halving" naming an operation; results next
to the same words stay. Also a Markdown backslash escape ("1.2\\~1.8x") reads as its character, so the range
is one claim. Through the public path: read_paper on a file, segment_text, extract_knowledge. Every sentence
is written for the test."""

from __future__ import annotations

import pytest
from papers_extract import file_claims


def values_of(tmp_path, text: str, name: str = "paper.txt") -> list[tuple]:
    claims = file_claims(tmp_path, text, name)
    out = []
    for c in claims:
        if c["unit"] in ("x", "%"):
            value = c["value"] if c["value"] is not None else (c["value_low"], c["value_high"])
            out.append((value, c["unit"]))
    return out


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # the value a named setting is set to
        (
            "With a strict SLO scale of 1.1x on the mixed trace, Foo beats the best fixed plan by 21%.",
            [(21.0, "%")],
        ),
        ("We sweep the SLO scale from 1.0x to 1.6x relative to the solo latency of each request.", []),
        ("On the skewed mix with a 1.4x SLO scale, Foo serves 18% more requests than Bar.", [(18.0, "%")]),
        ("Panel (c) fixes the latency budget at 1.5x (budget = 1.5x) for every tenant.", []),
        # a model built at a fraction of the full size
        ("Compared to the full model, the 0.4x model scores 1.3x more queries per second.", [(1.3, "x")]),
        ("Foo keeps the accuracy of the (1x) model with a quarter of its rows.", []),
        # a parameter named by a letter
        ("Foo re-balances the shards once more than k = 8% of them drift.", []),
        # a setting verb with an adverb, and an enumerated list of sizes
        ("The drift tolerance is deliberately set to 12% in all runs.", []),
        ("So we enumerate 0.9x, 0.7x and 0.5x of the full table size.", []),
        # a change a rule waits for, and values being explained
        (
            "The scheduler restarts the warm-up if the learning rate has dropped by a factor of 8 since then.",
            [],
        ),
        ("The loop stops if the loss decreased by 30% over the window.", []),
        ("In the plots, 0.8x and 0.4x denote tables cut to 80% and 40% of their rows.", []),
        # a premise of a model or a drawing, a list of targets
        ("For simplicity, we assume that the backward pass takes twice as long as the forward pass.", []),
        ("In this example, the second stage takes 3x longer than the first one.", []),
        ("Every run trains to a target accuracy: top-1 of 71% for the small net, 77% for the large net.", []),
        # sizes listed against the whole, a rule applied on a period
        ("The study builds 0.9x, 0.7x and 0.5x of the full model size for each feature.", []),
        (
            "The score decays by a factor of 0.7 every N iterations, and the window grows by 10% every epoch.",
            [],
        ),
        # results beside the same words stay
        ("The probe overhead of Foo stays ≤ 3% on every model we tried.", [(3.0, "%")]),
        ("We assume nothing about the load; Foo is 1.6x faster than Bar.", [(1.6, "x")]),
        ("If Foo is enabled, the step time drops by 30% against Bar.", [(30.0, "%")]),
        ("Foo cuts the step time by 25% per iteration against Bar.", [(25.0, "%")]),
        ("Foo achieves 1.4x higher SLO attainment than Bar at every load.", [(1.4, "x")]),
        ("Foo trains 3x larger models than Bar on the same devices.", [(3.0, "x")]),
    ],
)
def test_settings_by_their_words(tmp_path, text, kept):
    assert values_of(tmp_path, text) == kept


def test_a_panel_label_line_is_no_claim(tmp_path):
    text = "Foo cuts the energy per epoch by 23% against Bar.\n\nTop-1 = 76%\nEpochs\nAcc. >= 88%\nSpeedup over Bar\n\n"
    assert values_of(tmp_path, text) == [(23.0, "%")]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("In the default setup of bracketed search like Successive Halving, few workers stay busy.", []),
        ("The estimate holds with window halving and a short warm-up.", []),
        ("Halving the step size from 8 to 4 slows the freezing down.", []),
        ("Foo shards the optimizer state, halving the memory of each device.", [(50.0, "%")]),
        ("Foo halves the memory of each device.", [(50.0, "%")]),
    ],
)
def test_halving_names_an_operation_unless_a_result_takes_it(tmp_path, text, kept):
    assert values_of(tmp_path, text) == kept


def test_a_markdown_escape_reads_as_its_character(tmp_path):
    text = "# Faster kernels\n\nThe new kernels bring a 1.2\\~1.8x speedup (or 15\\~44% lower latency) over the old ones.\n"
    assert values_of(tmp_path, text, "post.md") == [((1.2, 1.8), "x"), ((15.0, 44.0), "%")]
