"""LaTeX tables as papers write them (issue 26): a cell spanning rows (``\\multirow``), columns
(``\\multicolumn``) or lines (``\\makecell``) is read as the plain cell it stands for, so its row keeps its
result and the cells under a spanning header keep their columns; a column headed by a system whose name opens
with a measure's word (``PowerSGD``, ``FasterTransformer``) is that system's. Own-worded papers, each read as a
user's file."""

from __future__ import annotations

from pathlib import Path

import pytest
from papers_extract import file_claims

from assay.operators.papers._tex import tex_to_text

_SPANNING = r"""\documentclass{article}
\title{Zephra: overlapping gradient compression with communication}
\begin{document}
\maketitle
We present Zephra, a gradient compression library.
\begin{table}
\caption{Time to accuracy (hours). Improvement is relative to Hvdx.}
\begin{tabular}{l|c|c|c}
\hline
Model & Hvdx & Zephra & \makecell{Improve-\\ment} \\
\hline
\multirow{2}{*}{ResNet-50} & 10.2 & 6.1 & 40.2\% \\
 & 11.0 & 6.9 & 37.3\% \\
\multicolumn{4}{c}{\textit{Language models}} \\
BERT & 14.5 & 8.8 & 39.3\% \\
\hline
\end{tabular}
\end{table}
\end{document}
"""


def test_spanning_cells_are_read_as_the_cells_they_stand_for() -> None:
    text, _ = tex_to_text(_SPANNING)
    assert "ResNet-50 | 10.2 | 6.1 | 40.2%" in text
    assert "Model | Hvdx | Zephra | Improve- ment" in text
    assert "Language models | Language models | Language models | Language models" in text
    assert "2*" not in text and "4c" not in text


def test_a_row_led_by_a_multirow_label_keeps_its_result(tmp_path: Path) -> None:
    claims = {c["text"]: c for c in file_claims(tmp_path, _SPANNING, "paper.tex")}
    assert {"40.2%", "37.3%", "39.3%"} <= set(claims)
    assert claims["40.2%"]["subject"] == "Zephra" and claims["40.2%"]["versus"] == "Hvdx"


_NAMES_WITH_MEASURE_WORDS = r"""\documentclass{article}
\title{Zephra: overlapping gradient compression with communication}
\begin{document}
\maketitle
We present Zephra, a gradient compression library. Zephra trains BERT 1.8$\times$ faster than NAME.
\begin{table}
\caption{Communication volume reduction of each method relative to uncompressed all-reduce.}
\begin{tabular}{lccc}
\toprule
 & Top-k & NAME & Zephra \\
\midrule
ResNet-50 & 12.1$\times$ & 8.4$\times$ & 15.3$\times$ \\
\bottomrule
\end{tabular}
\end{table}
\end{document}
"""


@pytest.mark.parametrize("name", ["PowerSGD", "FasterTransformer", "CostNet", "TimeWarp"])
def test_a_column_headed_by_a_name_opening_with_a_measure_word_is_that_system(tmp_path: Path, name: str) -> None:
    claims = {c["text"]: c for c in file_claims(tmp_path, _NAMES_WITH_MEASURE_WORDS.replace("NAME", name), "p.tex")}
    assert claims["8.4×"]["subject"] == name
    assert claims["15.3×"]["subject"] == "Zephra"
    assert claims["12.1×"]["subject"] == "Top-k"
