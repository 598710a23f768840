"""A table row's ratio cells are results when the table says what it measures: in its header, in its caption
above it (all of it, a caption wraps over lines) or in a caption set below it ("Table 3: ..."); a caption's
"across all configurations" does not make it a settings table, and a cell holding two sub-columns' ratios
("≈ 35% 1.1x") keeps both. A hyperparameter table stays residue. Through the public path: read_paper on a
Markdown file, segment_text, extract_knowledge. Every line is written for the test."""

from __future__ import annotations

from papers_extract import file_claims


def values_of(tmp_path, text: str) -> list[tuple]:
    claims = file_claims(tmp_path, text, "post.md")
    return [(c["value"], c["unit"]) for c in claims if c["unit"] in ("x", "%")]


INTRO = "# Foo\n\nFoo is a cache for model serving.\n\n"


def test_a_caption_wrapping_over_lines_names_what_the_table_measures(tmp_path):
    text = INTRO + (
        "Table 2. Copy overhead of Foo as a share of\n"
        "the decode step. Across all configurations it\n"
        "stays small.\n\n"
        "| Batch | Short | Long |\n"
        "|---|---|---|\n"
        "| BS = 2 | 0.03% | 0.06% |\n"
        "| BS = 8 | 0.04% | 0.09% |\n"
    )
    assert values_of(tmp_path, text) == [(0.03, "%"), (0.06, "%"), (0.04, "%"), (0.09, "%")]


def test_a_caption_below_the_rows_counts_too(tmp_path):
    text = INTRO + (
        "| Model | Small | Large |\n"
        "|---|---|---|\n"
        "| Ranker-A | 1.5% | 0.7% |\n\n"
        "Table 3: Overhead of Foo per model.\n"
    )
    assert values_of(tmp_path, text) == [(1.5, "%"), (0.7, "%")]


def test_a_cell_with_two_ratios_keeps_both(tmp_path):
    text = INTRO + (
        "Table 1: Summary of what Foo saves.\n\n"
        "| Model | Memory saving and speedup |\n"
        "|---|---|\n"
        "| Ranker-B | ≈ 35% 1.2× |\n"
    )
    assert values_of(tmp_path, text) == [(35.0, "%"), (1.2, "x")]


def test_a_hyperparameter_table_stays_residue(tmp_path):
    text = INTRO + (
        "Table 4: Training settings for all configurations.\n\n"
        "| Knob | Value |\n"
        "|---|---|\n"
        "| dropout | 10% |\n"
        "| warm-up | 5% |\n"
    )
    assert values_of(tmp_path, text) == []
