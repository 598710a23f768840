"""A column headed by a speedup and nothing else (``Speedup``, ``Speedup over GPipe``) holds multiples by
definition: its bare numbers are claims in ``x``, each the row's later figure against its earlier one where the
row prints both (``GPipe (ms) | Quokka (ms) | Speedup``). A column headed by another word keeps its bare numbers
unread. A Markdown paper written for the test, read as a user's file is."""

from __future__ import annotations

from papers_extract import file_claims

PAPER = """# Quokka: fast pipelined training

We present Quokka, a pipeline-parallel trainer.

## Results

Table 3: Step time of Quokka and GPipe.

| Model | GPipe (ms) | Quokka (ms) | Speedup |
|---|---|---|---|
| Wren-12 | 410 | 205 | 2.00 |
| Heron-7 | 330 | 220 | 1.50 |

Table 4: Throughput on the large cluster.

| Model | Nodes | Speedup over GPipe | Memory |
|---|---|---|---|
| Wren-12 | 8 | 1.85 | 31.5 |
"""


def test_a_speedup_column_holds_multiples(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, PAPER, "paper.md")}
    assert (claims["2.00"]["unit"], claims["2.00"]["subject"], claims["2.00"]["versus"]) == ("x", "Quokka", "GPipe")
    assert (claims["1.50"]["subject"], claims["1.50"]["versus"]) == ("Quokka", "GPipe")
    assert (claims["1.85"]["unit"], claims["1.85"]["versus"]) == ("x", "GPipe")
    assert "31.5" not in claims and "8" not in claims


def test_a_time_improvement_column_holds_multiples_and_an_accuracy_one_does_not(tmp_path):
    paper = """# Quokka: fast attention kernels

We present Quokka, a sparse attention kernel.

| Window | Time Improvement | Accuracy improvement |
|---|---|---|
| 512 | 3.13 | 1.01 |
| 256 | 2.29 | 1.05 |
"""
    claims = {c["text"]: c for c in file_claims(tmp_path, paper, "paper.md")}
    assert (claims["3.13"]["unit"], claims["2.29"]["unit"]) == ("x", "x")
    assert "1.01" not in claims and "1.05" not in claims
