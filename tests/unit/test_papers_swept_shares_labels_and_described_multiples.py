"""Three readings of a paper of the tests' own: a table column holding the share every method was measured at
(a cache budget swept over 50% and 25% for each method) holds no results, while the results beside it stay; a
list's label in brackets (``(C1)``, ``(C2)``) is no system of the paper's; a table cell that is a sentence of its
own is read as one, and a header row read across is no name; a multiple of a system the sentence
describes rather than names (``1.8× the single-node baseline``, ``2.1× the throughput of a monolithic
baseline``) has that description as its baseline. A text file read as a user's file is."""

from __future__ import annotations

from papers_extract import file_claims

PAPER = """Sparrow: sparse attention for long prompts

We present Sparrow, a sparse attention kernel. Two properties make the problem hard: (C1) no access to the
vendor's kernels and (C2) no control over the cache layout. For (C1), we profile every kernel; for (C2), we
lay the cache out ourselves.

Table 6: Performance of each method with various cache configurations.

Model Method | k | d | Perplexity↓ | Lambada↑ | Piqa ↑ | Arc ↑
Wren-7B Full Attention | - | - | 5.1102 | 57.2 | 69.1 | 28.4
Exact TopK | 50% | - | 5.1191 | 57.2 | 68.9 | 28.3
Wren-7B Window | 50% | - | 5.1456 | 55.5 | 61.8 | 24.4
Sparrow | - | 50% | 5.3997 | 53.3 | 63.2 | 21.7
Exact TopK | 25% | - | 5.1799 | 56.9 | 68.6 | 29.4
Wren-7B Window | 25% | - | 5.2809 | 50.1 | 51.6 | 21.1
Sparrow | - | 25% | 5.4631 | 46.9 | 58.5 | 20.5
Heron-9B Full Attention | - | - | 4.1102 | 62.2 | 71.1 | 30.4
Exact TopK | 50% | - | 4.1191 | 62.2 | 70.9 | 30.3
Sparrow | - | 50% | 4.3997 | 58.3 | 65.2 | 25.7
Exact TopK | 25% | - | 4.1799 | 61.9 | 70.6 | 29.4
Sparrow | - | 25% | 4.4631 | 51.9 | 60.5 | 24.5

Sparrow reaches 1.8× the single-node baseline on two nodes, and serves requests at 2.1× the throughput of a
monolithic baseline. Sparrow cuts attention time by 37% compared to Window.
"""


def test_a_column_of_the_share_every_method_was_set_to_holds_no_results(tmp_path):
    claims = file_claims(tmp_path, PAPER, "paper.txt")
    shares = [c for c in claims if c["unit"] == "%" and float(c["value"] or 0) in (25.0, 50.0)]
    assert shares == []
    assert [c for c in claims if c["unit"] == "%" and float(c["value"]) == 37.0]


def test_a_lists_label_is_no_system(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, PAPER, "paper.txt")}
    assert claims["37%"]["subject"] == "Sparrow"
    assert all(c["subject"] not in ("C1", "C2") for c in claims.values())


def test_a_multiple_of_a_described_system_has_the_description_as_baseline(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, PAPER, "paper.txt")}
    assert claims["1.8×"]["versus"] == "single-node baseline"
    assert claims["2.1×"]["versus"] == "monolithic baseline"


UNNAMED = """Composing collectives above a closed library

Picking a collective strategy is hard on closed stacks because of two properties: (C1) no visibility into the
runtime and (C2) no low-level control. This paper introduces a new design that addresses each of them. For
(C1), an agent builds the cost model on the target itself. For (C2), it composes the vendor's primitives.

On the largest model the deployed strategy runs 1.4× faster than the vendor default. (C1) and (C2) are what
make the search hard, and (C1) is met by profiling.
"""


def test_a_paper_naming_no_system_takes_no_label_for_one(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, UNNAMED, "paper.txt")}
    assert claims["1.4×"]["subject"] not in ("C1", "C2")


README = """# Quill Kernels

Quill Kernels is a set of fused training kernels.

| Integration | What it gives |
|---|---|
| Example Trainer | Train a 7B model ~18% faster with over 35% memory reduction on a chat dataset using 4 GPUs |
| Other Trainer | 2.0 |
"""


def test_a_table_cell_that_is_a_sentence_is_read_as_one(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, README, "README.md")}
    assert set(claims) == {"18%", "35%"}
    assert all("|" not in (c["subject"] or "") for c in claims.values())  # no header row read as a name
