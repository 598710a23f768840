"""Ratios written with their sign first ("79 ± 1 (x1.46)", "the speedup of only x3.3", "up to x9.7"), a notation a
caption defines once ("the numbers in () show the speedup of A over B") read the same way in the later tables,
a Speed-up column whose header says which way is better (``Speed-up ↑``) and whose cells are the quotient of the
figures beside it, and nouns that look like a multiple's verb ("100 triples are used"). Papers written for the
test."""

from __future__ import annotations

from papers_extract import claims_in_order, extracted_claims, file_claims

_HEAD = "Almo: Partitioned Matrix Multiplication on CPUs\n\nAbstract\nWe present Almo, a matmul partitioning for CPUs.\n\n"

_TABLES = _HEAD + """Results

#threads | onednn-base | onednn-normal | Almo
1 | 115 | 82 | 79 ± 1 (x1.46)
2 | 83 | 50 | 50 ± 1 (x1.66)

Table 1: BERT-base inference latency (ms). The numbers in () show the speedup of Almo over onednn-base.

#threads | onednn-base | onednn-normal | Almo
1 | 230 | 160 | 150 (x1.53)
2 | 160 | 101 | 99 (x1.62)

Table 2: RoBERTa inference latency (ms).
"""


def test_a_ratio_with_its_sign_first_is_a_multiple():
    text = _HEAD + "We achieve the speedup of only x3.3 with 16 threads; the speedup goes up to x9.7 for long inputs.\n"
    assert [(c["value"], c["unit"]) for c in extracted_claims(text)] == [(3.3, "x"), (9.7, "x")]


def test_a_lane_count_is_no_multiple():
    assert extracted_claims(_HEAD + "Each GPU sits on a PCIe x16 link beside x86 cores.\n") == []


def test_bracketed_ratios_follow_the_notation_a_caption_defined(tmp_path):
    cells = [(c["value"], c["subject"], c["versus"]) for c in file_claims(tmp_path, _TABLES, "paper.md")]
    assert cells == [(v, "Almo", "onednn-base") for v in (1.46, 1.66, 1.53, 1.62)]


def test_a_speedup_column_with_an_arrow_holds_the_tables_results(tmp_path):
    text = _HEAD + (
        "Results\n\nModel | Tokens/sec ↑ / baseline | Tokens/sec ↑ / Almo | Time (sec) ↓ / baseline | "
        "Time (sec) ↓ / Almo | Speed-up ↑\n7B | 23.9 | 59.2 | 511.2 | 206.0 | 2.48x\n13B | 18.5 | 41.1 | 658.4 | 296.8 | 2.22x\n\n"
        "Table 3: Time comparison for retrieval-augmented generation.\n"
    )
    cells = [(c["value"], c["subject"], c["versus"]) for c in file_claims(tmp_path, text, "paper.md")]
    assert cells == [(2.48, "Almo", "baseline"), (2.22, "Almo", "baseline")]


def test_a_noun_is_no_multiple():
    text = _HEAD + "We produce 200 triples of (x, y, D). 100 triples are used for tuning. Batching triples the throughput.\n"
    assert [c["text"] for c in extracted_claims(text)] == ["triples"]
    assert [c["start"] for c in extracted_claims(text)] == [text.index("triples the") ]


def test_a_statistic_the_paper_presents_is_not_its_system():
    text = (
        "Partitioned matrix multiplication on CPUs\n\nAbstract\nWe also present the standard deviation where it "
        "was high; the standard deviation stays small. With adaptive matmul partitioning, inference runs 1.4x faster "
        "than the base library, and adaptive matmul partitioning needs no tuning.\n"
    )
    assert {c["subject"] for c in extracted_claims(text)} != {"standard deviation"}


def test_a_multiple_signed_first_after_words_broken_over_a_line():
    text = (
        "With eight threads the speedup of only\nx2.1 is reached on short inputs; the speedup goes up\n"
        "to x7.4 on long ones.\n"
    )
    assert sorted(c["value"] for c in extracted_claims(text)) == [2.1, 7.4]


def test_a_bracket_glued_to_a_name_is_a_functions_argument(papers_bound):
    found = claims_in_order(
        "We present ParX, a coded serving layer. The goal is to return F(X1) and F(X2) from the parity F(P). "
        "ParX takes 79 ± 1 (x1.46) against the copy, and its speedup (x2.3) holds.",
        papers_bound,
    )
    assert [c["value"] for c in found] == [1.46, 2.3]
