"""Tables that state their unit or their comparison somewhere other than the column headers: a caption saying
the table holds speedups (``Average speedups of three kernels over the direct kernel``) makes its bare cells
multiples against what it names; a row labelled by a measure with its unit (``Improved (%)``) makes that row's
cells percentages, and under two rows of figures labelled by who measured them (``FooDNN (ms)``, ``Kestrow
(ms)``) each is the later row's change against the earlier's. A LaTeX paper written for the test, read as a
user's file is (``read_paper``, ``segment_text``, ``extract_knowledge``)."""

from __future__ import annotations

import pytest
from papers_extract import file_claims

PAPER = r"""\documentclass{article}
\begin{document}
\title{Fast Grouped Convolutions on Small GPUs}
\maketitle
\begin{abstract}
We present Kestrow, a library of grouped convolution kernels for small GPUs.
\end{abstract}
\section{Evaluation}
We compare Kestrow against FooDNN, the vendor library.
\begin{table}
\caption{Average speedups of three kernels over the direct kernel.}
\begin{tabular}{lcc}
\toprule
 & Small board & Large board \\
\midrule
SLOWALG & 1.1 & 1.3 \\
FooDNN & 1.4 & 1.2 \\
Kestrow & 2.6 & 3.1 \\
\bottomrule
\end{tabular}
\end{table}
\begin{table}
\caption{Inference time of two models on the small board.}
\begin{tabular}{lcccc}
\toprule
 & Batch & 1 & 8 & 32 \\
\midrule
\multirow{3}{*}{ModelA} & FooDNN (ms) & 8.0 & 10.0 & 20.0 \\
 & Kestrow (ms) & 6.0 & 9.0 & 15.0 \\
 & Improved (\%) & 25.0 & 10.0 & 25.0 \\
\bottomrule
\end{tabular}
\end{table}
\begin{table}
\caption{Memory of the two libraries.}
\begin{tabular}{lcc}
 & Small board & Large board \\
FooDNN & 1.5 & 2.5 \\
Kestrow & 1.2 & 2.0 \\
\end{tabular}
\end{table}
\end{document}
"""


@pytest.fixture(scope="module")
def claims(tmp_path_factory):
    return file_claims(tmp_path_factory.mktemp("paper"), PAPER, "paper.tex")


def test_a_speedup_caption_makes_bare_cells_multiples(claims):
    speedups = {(c["subject"], c["value"]) for c in claims if c["unit"] == "x" and c["versus"] == "direct kernel"}
    assert speedups == {("SLOWALG", 1.1), ("SLOWALG", 1.3), ("FooDNN", 1.4), ("FooDNN", 1.2),
                        ("Kestrow", 2.6), ("Kestrow", 3.1)}


def test_a_row_labelled_by_a_change_is_the_later_rows_against_the_earlier(claims):
    changes = [(c["value"], c["unit"], c["subject"], c["versus"]) for c in claims if c["unit"] == "%"]
    assert changes == [(25.0, "%", "Kestrow", "FooDNN"), (10.0, "%", "Kestrow", "FooDNN"),
                       (25.0, "%", "Kestrow", "FooDNN")]


def test_figures_with_no_unit_anywhere_are_no_claims(claims):
    # the times of the change table and a memory table whose caption names no ratio
    values = {c["value"] for c in claims}
    assert not values & {8.0, 6.0, 9.0, 15.0, 20.0, 1.5, 2.5, 2.0}


SPANNED = """# Kestrow: Energy Planning

We present Kestrow, an energy planner for pipeline training.

## Evaluation

Table 4: Energy savings of Kestrow given the number of microbatches.

| Model | GPU |  | Savings (%) | Savings (%) |  |
|---|---|---|---|---|---|
| FooLM 175B | A100 | 12 | 24 | 48 | 96 |
| FooLM 175B | A100 | 15.20 | 14.19 | 13.62 | 13.32 |
| BarLM 176B | A40 | 6.97 | 4.49 | 3.12 | 2.41 |
"""


def test_a_group_title_over_the_middle_columns_spans_its_empty_neighbours(tmp_path):
    # a PDF's grid writes a group's title over the middle columns only; the empty header cells beside them
    # are the group's, where their cells hold decimals; the first row of whole numbers is the header's second
    # line (the microbatch counts the group spans)
    claims = file_claims(tmp_path, SPANNED, "paper.md")
    assert [(c["value"], c["unit"]) for c in claims] == [
        (15.2, "%"), (14.19, "%"), (13.62, "%"), (13.32, "%"), (6.97, "%"), (4.49, "%"), (3.12, "%"), (2.41, "%")
    ]
    assert all(c["subject"] == "Kestrow" for c in claims)
    assert not {12.0, 24.0, 48.0, 96.0} & {c["value"] for c in claims}


SPEEDUP_BESIDE = """# Quill kernels for fine-tuning

We present Quill, fused transformer kernels for fine-tuning.

## Results

| Micro batch size | Eager | Quill | Speedup (x) |
| --- | --- | --- | --- |
| 4 | 36.34 | 50.76 | 1.4 |
| 6 | 43.81 | 55.97 | 1.3 |
| 8 | OOM | 54.16 | 1.5 |

Table 2: Samples per second of fine-tuning with the eager kernels and with Quill.
"""


def test_a_speedup_column_beside_two_systems_figures(tmp_path):
    # a row whose eager run ran out of memory takes the pair its column's other rows show; the rows whose speedup
    # is the quotient of their two figures are the table's results too, under a column headed by the speedup
    # (P8); the pair is found within the cell's printed rounding (55.97 / 43.81 is 1.28, printed 1.3)
    from assay.operators.papers._table_compare import change_pair

    header = ["Micro batch size", "Eager", "Quill", "Speedup (x)"]
    assert change_pair(header, ["6", "43.81", "55.97", "1.3"], 3) == ("Quill", "Eager")
    claims = [c for c in file_claims(tmp_path, SPEEDUP_BESIDE, "paper.md") if c["unit"] == "x"]
    assert [(c["value"], c["subject"], c["versus"]) for c in claims] == [
        (1.4, "Quill", "Eager"), (1.3, "Quill", "Eager"), (1.5, "Quill", "Eager")
    ]
