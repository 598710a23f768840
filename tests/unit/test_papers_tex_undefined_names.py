"""A LaTeX section file whose paper defines its macros in another file: the system's name macro (``\\tool``) is
used between words and undefined here. It reads as its name in capitals, the only name the file gives, so the
results are that system's; LaTeX's own commands between words (``\\em``, ``\\item``) are no names, and the Latin
abbreviations papers define as macros (``\\eg``) read as written. Sources written for the test, read as a user's
file is (``read_paper``, ``segment_text``, ``extract_knowledge``)."""

from __future__ import annotations

from papers_extract import file_claims

from assay.operators.papers._tex import tex_to_text

SECTION = r"""\section{Evaluation}
\label{sec:eval}
We compare \tool against FooServe and BarShare, \eg on a single GPU shared by two tasks.
\begin{itemize}
\item Does \tool isolate the high-priority task from paging?
\end{itemize}
{\em In short}, \tool{} keeps the serving task fast.
Compared to the best baseline, \tool reduces the median latency by 12$\times$.
\tool{}DYN improves the throughput of the low-priority task by 2$\times$ over static \tool.
"""


def test_an_undefined_name_macro_is_the_systems_name(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, SECTION, "eval.tex")}
    assert (claims["12×"]["subject"], claims["12×"]["versus"]) == ("TOOL", "best baseline")
    # "\tool{}DYN", the variant, against "static \tool"
    assert (claims["2×"]["subject"], claims["2×"]["versus"]) == ("TOOLDYN", "static TOOL")


def test_latex_commands_between_words_stay_commands():
    text, _ = tex_to_text(SECTION)
    assert "We compare TOOL against FooServe and BarShare, e.g. on a single GPU" in text
    assert "Does TOOL isolate" in text
    assert "In short, TOOL keeps" in text
    assert "EM" not in text and "ITEM" not in text


def test_a_macro_used_once_is_dropped_as_before():
    # One use between words is no evidence of a name: "\hfil" or an author's note macro.
    text, _ = tex_to_text(r"The cluster has 64 GPUs \todo and 8 nodes.")
    assert text == "The cluster has 64 GPUs and 8 nodes."


def test_a_defined_macro_keeps_its_definition():
    source = r"\newcommand{\tool}{Quarrel}" + "\n" + SECTION
    text, _ = tex_to_text(source)
    assert "We compare Quarrel against FooServe" in text
    assert "TOOL" not in text


PAPER_WITH_ARGUMENT_MACRO = r"""\documentclass{article}
\newcommand{\pname}[1]{Quill{#1}}
\newcommand{\todo}[1]{\textcolor{red}{#1}}
\title{\pname{}: Faster Prefix Caching}
\begin{document}
\maketitle
\section{Introduction}
We present \pname{}, a prefix cache for serving. \pname{} cuts the time to first token by 2.1$\times$ over
FooCache, and the \pname{}-based planner saves 30\% of the reads. \todo{check the numbers}
\end{document}
"""


def test_a_name_macro_that_takes_an_argument_reads_as_the_name(tmp_path):
    text, _ = tex_to_text(PAPER_WITH_ARGUMENT_MACRO)
    assert "We present Quill, a prefix cache" in text and "Quill-based planner" in text
    assert "check the numbers" in text  # a macro that only typesets its argument keeps it as text
    claims = {c["text"]: c for c in file_claims(tmp_path, PAPER_WITH_ARGUMENT_MACRO, "paper.tex")}
    assert (claims["2.1×"]["subject"], claims["2.1×"]["versus"]) == ("Quill", "FooCache")
