"""A table column headed by a setting and a measure ("A100 slowdown", "A40 error rate") names what is measured
where, not a system the cells are set against (issue 26): its cells keep the paper's system and no baseline,
while a column headed by a system's name alone ("Megatron-LM") still is the cells' baseline. Own-worded papers
in Markdown and LaTeX, each read as a user's file."""

from __future__ import annotations

from pathlib import Path

import pytest
from papers_extract import file_claims

_MARKDOWN = """# Quillo: trimming GPU energy in large model training

We present Quillo, which lowers GPU frequencies on non-critical pipeline stages.
Savings are relative to running every GPU at its maximum frequency.

Table 3: Energy savings (%) and {measure} (%) of Quillo on each workload.

| Workload | A100 savings | A100 {measure} | A40 savings | A40 {measure} |
|---|---|---|---|---|
| GPT-3 | 15.2 | 0.3 | 12.1 | 0.2 |
| Bloom | 13.4 | 0.1 | 11.0 | 0.4 |

Table 4: Iteration time speedup of Quillo on each workload.

| Workload | Megatron-LM | DeepSpeed |
|---|---|---|
| GPT-3 | 1.21x | 1.35x |
| Bloom | 1.18x | 1.40x |
"""

_LATEX = r"""\documentclass{article}
\title{Quillo: trimming GPU energy in large model training}
\begin{document}
\maketitle
We present Quillo, which lowers GPU frequencies on non-critical pipeline stages.
Savings are relative to running every GPU at its maximum frequency.
\begin{table}
\caption{Energy savings (\%) and MEASURE (\%) of Quillo on each workload.}
\begin{tabular}{lcccc}
\toprule
Workload & A100 savings & A100 MEASURE & A40 savings & A40 MEASURE \\
\midrule
GPT-3 & 15.2 & 0.3 & 12.1 & 0.2 \\
Bloom & 13.4 & 0.1 & 11.0 & 0.4 \\
\bottomrule
\end{tabular}
\end{table}
\begin{table}
\caption{Iteration time speedup of Quillo on each workload.}
\begin{tabular}{lcc}
\toprule
Workload & Megatron-LM & DeepSpeed \\
\midrule
GPT-3 & 1.21$\times$ & 1.35$\times$ \\
Bloom & 1.18$\times$ & 1.40$\times$ \\
\bottomrule
\end{tabular}
\end{table}
\end{document}
"""


@pytest.mark.parametrize("measure", ["slowdown", "degradation", "error rate", "score drop"])
@pytest.mark.parametrize("form", ["md", "tex"])
def test_a_setting_and_a_measure_head_no_baseline(tmp_path: Path, measure: str, form: str) -> None:
    if form == "md":
        claims = file_claims(tmp_path, _MARKDOWN.format(measure=measure), "paper.md")
    else:
        claims = file_claims(tmp_path, _LATEX.replace("MEASURE", measure), "paper.tex")
    percent = [(c["value"], c["subject"], c["versus"]) for c in claims if c["unit"] == "%"]
    assert len(percent) == 8
    assert {(s, v) for _, s, v in percent} == {("Quillo", None)}
    times = sorted((c["value"], c["subject"], c["versus"]) for c in claims if c["unit"] == "x")
    assert times == [
        (1.18, "Quillo", "Megatron-LM"),
        (1.21, "Quillo", "Megatron-LM"),
        (1.35, "Quillo", "DeepSpeed"),
        (1.4, "Quillo", "DeepSpeed"),
    ]
