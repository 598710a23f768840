"""A caption that says what its figure's numbers are normalised to ("Throughput of Kiwi normalized to FSDP.")
makes that name the baseline of the later claims of its paragraph that name none of their own; a claim that
names its own keeps it, and the next paragraph is not reached. A LaTeX paper written for the test, read as a
user's file is."""

from __future__ import annotations

from papers_extract import file_claims

PAPER = r"""\documentclass{article}
\newcommand{\sys}{\textsc{Kiwi}\xspace}
\begin{document}
\title{\sys: Memory-Efficient Fine-Tuning at Scale}
\maketitle
\section{Evaluation}
We present \sys, a system for memory-efficient fine-tuning.

\begin{figure}
\caption{Throughput of \sys normalized to FSDP. \sys is up to 2.6$\times$ faster, and 1.9$\times$ faster than
ZeRO-3 on the small models.}
\end{figure}

\sys also cuts the checkpoint time by 35\%.
\end{document}
"""


def test_a_caption_s_normalisation_is_the_baseline_of_its_later_claims(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, PAPER, "main.tex")}
    assert (claims["2.6×"]["subject"], claims["2.6×"]["versus"]) == ("Kiwi", "FSDP")
    assert claims["1.9×"]["versus"] == "ZeRO-3"
    assert claims["35%"]["versus"] != "FSDP"
