"""A table column that holds the settings the paper's system chose for each row (``Quokka Config``: ``9-3``,
``Straight``) does not make the table's columns systems: the speedup columns beside it, grouped under a
title (``Speedup over DP / Step time``, ``Speedup over DP / TTR``), name measures, so each cell is the paper's
own system against the title's baseline. A Markdown paper written for the test, read as a user's file is."""

from __future__ import annotations

from papers_extract import file_claims

PAPER = """# Quokka: fast pipelined training

We present Quokka, a pipeline-parallel trainer. We compare Quokka with data parallelism (DP) throughout.

Table 2: Summary of results comparing Quokka with data parallelism (DP) on three models.

| Model | Servers | Quokka Config | Speedup over DP / Step time | Speedup over DP / TTR |
|---|---|---|---|---|
| Wren-12 | 2x4 | 9-3 | 3.10× | 2.80× |
| Heron-7 | 4x4 | Straight | 1.70× | 1.90× |
| Finch-2 | 1x8 | 4-4 | 2.20× | 2.05× |
"""


def test_speedup_sub_columns_beside_a_settings_column_are_the_papers_system(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, PAPER, "paper.md")}
    for cell in ("3.10×", "2.80×", "1.90×", "2.05×"):
        assert (claims[cell]["subject"], claims[cell]["versus"]) == ("Quokka", "DP"), cell


def test_a_column_headed_by_the_system_alone_still_makes_the_columns_systems(tmp_path):
    paper = PAPER.replace("Quokka Config", "Quokka").replace("| 9-3 |", "| 4.1× |").replace(
        "| Straight |", "| 2.0× |").replace("| 4-4 |", "| 2.9× |")
    claims = {c["text"]: c for c in file_claims(tmp_path, paper, "paper.md")}
    assert claims["4.1×"]["subject"] == "Quokka"
