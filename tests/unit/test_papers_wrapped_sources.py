"""A Markdown or LaTeX source wrapped by its editor reads as the same paper unwrapped.

Both formats read a single line break inside a paragraph as a space; a source is usually wrapped at 72 or 80
columns, so a comparison phrase is often broken over two lines. Each test reads one paper of its own twice
through the whole path of a user's file (``read_paper``, ``segment_text``, ``extract_knowledge``): once with
one paragraph a line, once wrapped, and asserts the same claims, subjects and baselines (the reading of the
unwrapped source is the reference; a paper that read no claim would fail its own check)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from papers_extract import claims_in_order, file_claims

from assay.operators.papers._markdown import markdown_to_text
from assay.operators.papers._tex import tex_to_text

_PARAGRAPHS = [
    "We present Quillo, a scheduler for elastic training jobs on shared clusters of mixed accelerators.",
    "On a 64-GPU cluster, Quillo completes jobs 1.8x faster on average than the widely deployed baseline "
    "scheduler Tessaly, and it reduces the makespan of the whole trace by 27% compared to the "
    "heterogeneity-aware policy of Morvent.",
    "Its planner adds an overhead of less than 2% of each round, and the checkpoint-restart path recovers "
    "a failed job 3.1x sooner than restarting it from the last epoch under Tessaly.",
]


def _wrapped(paragraph: str, width: int) -> str:
    """``paragraph`` wrapped at ``width`` columns; width 0: broken inside each comparison instead (after
    ``than the``, ``compared to the``, ``than``, before the system's name), where a phrase cut at the break
    could lose its baseline or its subject."""
    if width == 0:
        for phrase in ("than the", "compared to the", "sooner than", "cluster,"):
            paragraph = paragraph.replace(phrase + " ", phrase + "\n")
        return paragraph
    return "\n".join(textwrap.wrap(paragraph, width, break_long_words=False, break_on_hyphens=False))


def _markdown(width: int | None) -> str:
    body = [p if width is None else _wrapped(p, width) for p in _PARAGRAPHS]
    return "# Quillo\n\n" + "\n\n".join(body) + "\n"


def _tex(width: int | None) -> str:
    body = [(p if width is None else _wrapped(p, width)).replace("%", r"\%") for p in _PARAGRAPHS]
    return (
        "\\documentclass{article}\n\\title{Quillo}\n\\begin{document}\n\\maketitle\n\\section{Introduction}\n"
        + "\n\n".join(body)
        + "\n\\end{document}\n"
    )


def _read(claims: list[dict]) -> list[tuple]:
    return [(c["value"], c["unit"], c.get("subject"), c.get("versus")) for c in claims]


@pytest.mark.parametrize("width", [0, 40, 60, 72])
@pytest.mark.parametrize(("name", "source"), [("paper.md", _markdown), ("paper.tex", _tex)])
def test_a_wrapped_source_reads_as_the_same_paper(tmp_path: Path, width: int, name: str, source) -> None:
    plain = _read(file_claims(tmp_path, source(None), name))
    assert any(versus for *_rest, versus in plain), f"the {name} paper itself reads no baseline: {plain}"
    assert _read(file_claims(tmp_path, source(width), name)) == plain


def test_markdown_blocks_keep_their_lines() -> None:
    """Only a paragraph's (or a list item's) lines are joined: list items, a table's rows, a fenced block, a
    heading and a line of a chart's tick labels keep theirs."""
    source = (
        "# Results\n\nThe planner is\nfast.\n\n- first item\n  goes on\n- second item\n\n"
        "| system | speedup |\n|---|---|\n| A | 1.5x |\n| B | 2.0x |\n\n```\nrun --fast\nrun --slow\n```\n\n"
        "Figure 3: throughput per GPU.\n100% 80% 60% 40%\n"
    )
    text, _title = markdown_to_text(source)
    lines = text.split("\n")
    assert "The planner is fast." in lines
    assert "• first item goes on" in lines and "• second item" in lines  # (an item keeps a bullet: a sentence's start)
    assert "A | 1.5x" in lines and "B | 2.0x" in lines
    assert "run --fast" in lines and "run --slow" in lines
    assert "100% 80% 60% 40%" in lines


def test_tex_paragraphs_join_and_blank_lines_part_them() -> None:
    text, _title = tex_to_text("\\begin{document}\nOne line\nand the next.\n\nA new paragraph.\n\\end{document}")
    assert text.split("\n\n") == ["One line and the next.", "A new paragraph."]


def test_a_front_matter_summary_folded_over_lines_is_the_lede() -> None:
    source = '---\ntitle: "Quillo"\nsummary: "Quillo finishes jobs 1.8x faster\n  than Tessaly."\n---\n\nBody.\n'
    text, title = markdown_to_text(source)
    assert title == "Quillo"
    assert "Quillo finishes jobs 1.8x faster than Tessaly." in text.split("\n\n")


def test_numbers_of_a_list_measuring_two_things_keep_their_own_units() -> None:
    """``a perplexity of 10.8 and 66.5% accuracy``: the 10.8 is the perplexity's, no percentage; a list of one
    measure still shares its last number's unit."""
    claims = claims_in_order("The 9B model reaches a perplexity of 10.8 and 66.5% accuracy on the task.")
    assert [(c["value"], c["unit"]) for c in claims] == [(66.5, "%")]
    claims = claims_in_order("Quillo cuts the step time by 1.3, 1.5 and 2.0x on the three clusters.")
    assert [(c["value"], c["unit"]) for c in claims] == [(1.3, "x"), (1.5, "x"), (2.0, "x")]
