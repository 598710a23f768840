"""LaTeX as papers write their numbers (issue 26): siunitx's quantities (``\\SI{35}{\\percent}``,
``\\qty{2.1}{\\times}``, ``\\SIrange{15}{40}{\\percent}``, ``\\num{1.7}``) read as the text prints them, a
footnote's aside kept out of its sentence, and a later conjunct that names only its workload ("and 2.4x faster
on DCN") keeping the earlier baseline. An own-written paper read as a user's file."""

from __future__ import annotations

from pathlib import Path

from papers_extract import file_claims

from assay.operators.papers._tex import tex_to_text

_PAPER = r"""\documentclass{article}
\usepackage{siunitx}
\usepackage{xspace}
\newcommand{\sys}{Falcor\xspace}
\title{\sys: Elastic Sharding for Recommendation Training}
\begin{document}
\maketitle
\begin{abstract}
We present \sys, an elastic embedding sharding system. \sys improves training throughput by \SI{35}{\percent}
over RecLib and reduces memory by \qty{2.1}{\times} relative to EmbBag.
\end{abstract}
\section{Evaluation}
\sys is \num{1.7}$\times$ faster than HugeRec on DLRM, and \textbf{2.4$\times$} faster on DCN.
\sys cuts the step time by \SIrange{15}{40}{\percent} and a step takes \SI{33}{\milli\second}.
\sys achieves a \SI{3.2}{\times} speedup over Persik\footnote{We use Persik v1.0 with its default settings.}.
\end{document}
"""


def test_quantities_read_as_printed_and_footnotes_kept_apart():
    text, _ = tex_to_text(_PAPER)
    assert "by 35% over RecLib" in text and "by 2.1× relative" in text and "is 1.7× faster" in text
    assert "by 15–40%" in text and "takes 33 ms" in text
    assert "speedup over Persik." in text and "default settings" not in text


def test_claims_of_quantities_and_a_conjunct_on_another_workload(tmp_path: Path):
    claims = {c["text"]: c for c in file_claims(tmp_path, _PAPER, "paper.tex")}
    assert claims["35%"]["versus"] == "RecLib" and claims["35%"]["subject"] == "Falcor"
    assert claims["2.4×"]["versus"] == "HugeRec"
    assert claims["3.2×"]["versus"] == "Persik"
    assert (claims["15–40%"]["value_low"], claims["15–40%"]["value_high"]) == (15.0, 40.0)
