"""A table of ratios whose columns divide one name by another (``Tern/Quokka``) under a caption that says so
(``Peak memory ratio``): each bare number is a multiple, the denominator's result against the numerator (a
speedup is the baseline's time over the system's), the paper's own system the subject where the numerator names
it. A rate's unit (``tok/s``) divides no names, and a caption that says nothing of ratios leaves the cells
unread. Papers written for the test, read as a user's files are."""

from __future__ import annotations

from papers_extract import file_claims

LATEX = r"""\documentclass{article}
\begin{document}
\title{Quokka: convolution without copies}
\maketitle
\section{Evaluation}
Quokka lowers the memory of every layer we measured.
\begin{table}[t]
\caption{Peak memory ratio (baseline/Quokka). Values above 1 mean Quokka uses less memory.}
\begin{tabular}{c|c|c|c}
Layer & Tern/Quokka & Heron/Quokka & Throughput (tok/s) \\ \hline
1 & 4.12 & 1.35 & 812 \\
2 & 3.07 & 2.20 & 790 \\
\end{tabular}
\end{table}
\end{document}
"""

MARKDOWN = """# Quokka: convolution without copies

Quokka lowers the memory of every layer we measured.

Table 2: Throughput ratio of each layer, normalized as Quokka/Tern.

| Layer | Quokka/Tern |
|---|---|
| 1 | 1.64 |
| 2 | 1.22 |

Table 3: Memory of each layer.

| Layer | Tern/Heron |
|---|---|
| 1 | 2.50 |
"""


def test_a_ratio_tables_quotient_columns_hold_multiples_of_the_denominator_against_the_numerator(tmp_path):
    claims = {c["text"].split(" & ")[0] + "|" + str(c["value"]): c for c in file_claims(tmp_path, LATEX, "q.tex")}
    cells = {(c["value"], c["unit"], c["subject"], c["versus"]) for c in claims.values()}
    assert (4.12, "x", "Quokka", "Tern") in cells
    assert (1.35, "x", "Quokka", "Heron") in cells
    assert (2.2, "x", "Quokka", "Heron") in cells
    assert not any(c["value"] in (812.0, 790.0) for c in claims.values())  # a rate's unit divides no names


def test_the_papers_own_system_over_another_is_its_result_and_a_caption_without_ratios_reads_nothing(tmp_path):
    cells = {(c["value"], c["unit"], c["subject"], c["versus"]) for c in file_claims(tmp_path, MARKDOWN, "q.md")}
    assert (1.64, "x", "Quokka", "Tern") in cells
    assert (1.22, "x", "Quokka", "Tern") in cells
    assert not any(v == 2.5 for v, *_ in cells)
