"""Document structure: sections, captions and table/axis residue in every reader; claims keep their section."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from assay.dsl import get_operator
from assay.ids import content_id
from assay.operators.papers import segment_text
from assay.operators.papers._claims import find_claims
from assay.operators.papers._markdown import markdown_to_text
from assay.operators.papers._pdf import pdf_to_text
from assay.operators.papers._sections import Structure
from assay.operators.papers._tex import tex_to_text

DEV = Path(__file__).resolve().parents[1] / "data" / "papers_dev"
EXTRACT = get_operator("extract_knowledge")

PLAIN = """Kestrel: Scheduling Shared Clusters
Abstract
We present Kestrel, a cluster scheduler. Kestrel cuts job completion time by 31% over Tiresias.
1 Introduction
Shared clusters waste time. Kestrel keeps GPUs 92% busy.
Table 2: Completion time by policy
FIFO 10.2 h 31% 1.0x
Kestrel 7.0 h 12% 1.5x
Figure 4: CDF of completion times
100% 75% 50% 25% 0%
4 Evaluation
Kestrel is 1.5x faster than Gandiva on 128 GPUs.
References
[3] Xiao, W. Gandiva. OSDI 2018, 40% of jobs, pp. 595-610.
"""


def claims_of(text: str, **config) -> list[dict]:
    record = segment_text({"doc_id": content_id(text), "source_uri": "/x.txt", "text": text})
    out, failures = EXTRACT.bind(parse="none", **config).process([record])
    assert not failures, failures
    return out[0]["claims"]


def test_headings_name_sections_and_residue_is_not_claim_text():
    claims = {c["text"]: c for c in claims_of(PLAIN)}
    assert set(claims) == {"31%", "92%", "1.5x"}
    assert claims["31%"]["section"] == "abstract"
    assert claims["92%"]["section"] == "introduction"
    assert claims["1.5x"]["section"] == "evaluation"
    assert claims["1.5x"]["versus"] == "Gandiva"


def test_structure_reads_numbered_inline_and_chinese_headings():
    text = "Abstract—We show 2x.\nII. RELATED WORK\nOthers.\n3.1 Results\nIt is 3x.\n参考文献\n[1] x"
    s = Structure(text)
    assert [s.section(text.index(w)) for w in ("2x", "Others", "3x", "[1]")] == [
        "abstract",
        "body",
        "evaluation",
        "references",
    ]
    assert Structure("One paragraph, an abstract of 2x.").section(5) == "abstract"


def test_a_heading_is_cut_from_the_first_sentence_of_its_section():
    text = "Intro text.\n3 Evaluation\nOrca is 2x faster than Clipper."
    s = Structure(text)
    pos = text.index("2x")
    assert text[slice(*s.clip((text.index("3 Eval"), len(text)), pos))].startswith("Orca")


def test_prose_with_numbers_and_chinese_lines_are_not_residue():
    s = Structure(
        "x\nOn 64 GPUs, Orca is 2.1x faster than vLLM and 35% cheaper with 8 nodes.\n与A100相比，快1.5倍。"
    )
    assert not s.residue(s.text.index("2.1x")) and not s.residue(s.text.index("1.5倍"))


def test_latex_floats_macros_citeauthor_and_abstract_environment():
    source = r"""\newcommand{\sys}{Orca\xspace}
\title{\sys: Serving Models}
\begin{document}
\begin{abstract}\sys{} serves 2.1$\times$ more requests than vLLM.\end{abstract}
\section{Evaluation}
The \citeauthor{yu2022orca} and Triton servers reach 40\% and 55\% utilization.
As Figure~\ref{fig:a} shows, \sys is 30\% cheaper.
\begin{table}\begin{tabular}{ll} A & 99\% \\ \end{tabular}\caption{Orca at 77\%.}\end{table}
\end{document}"""
    text, title = tex_to_text(source)
    assert title == "Orca: Serving Models"
    assert "Orca serves 2.1×" in text
    # a float keeps its caption as prose and its table's rows as cells (residue, not claims)
    assert "A | 99%" in text and "Orca at 77%." in text
    assert "The Yu and Triton servers" in text
    claims = {c["text"]: c for c in claims_of(text)}
    assert "99%" not in claims
    assert claims["2.1×"]["section"] == "abstract" and claims["2.1×"]["subject"] == "Orca"
    assert claims["30%"]["subject"] == "Orca"  # not "Figure"


def test_markdown_table_rows_are_residue():
    text, _ = markdown_to_text(
        "# Results\n\nOrca is 2x faster.\n\n| model | speedup | cost |\n|---|---|---|\n| A | 3x | 9% |\n"
    )
    assert "A | 3x | 9%" in text
    # a row naming something with ratios under a results header states results (_clause.table_result)
    assert [c["text"] for c in claims_of(text)] == ["2x", "3x", "9%"]


def test_two_column_pdf_is_read_column_by_column():
    if importlib.util.find_spec("pdfplumber") is None:
        pytest.skip("pdfplumber is not installed: pypdf reads in stream order")
    text, title = pdf_to_text((DEV / "gpipe.pdf").read_bytes())
    assert title.startswith("GPipe")
    # The interleaved stream has the right column's first line right after the left column's first line.
    assert "Scaling up a neural network improves its quality,\nbut models" in text
    assert text.index("3 Evaluation") > text.index("1 Introduction")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("It changes the runtime by -63% relative to X.", [(-63.0, "%")]),
        (
            "Megatron sustains 15.1 PetaFLOPs and 39 TeraFLOPs per GPU.",
            [(15.1, "PetaFLOPs"), (39.0, "TeraFLOPs")],
        ),
        ("An A100 has HBM with bandwidth 1.5-2.0 TB/s and SRAM at 19 TB/s.", []),
        ("节点间网络为25Gbps，带宽为300GB/s。", []),
        ("Each V100 delivers 125 TFLOPS at peak.", []),
        ("We hold out 3% of the documents as a validation set.", []),
        ("取5%的数据作为验证集。", []),
        ("A perfect weak-scaling run has 100% efficiency.", []),
        ("Throughput grows 3.5x with 4x more accelerators.", [(3.5, "x")]),
        ("We run each job with 2x more GPUs to test scaling.", []),
        # a resource saving the sentence credits to the system, or sets against a baseline: a result
        ("Flexo enables us to train the 7B model with 16x fewer GPUs.", [(16.0, "x")]),
        ("Flexo fits the 7B model with 4x fewer GPUs than ZeRO-3.", [(4.0, "x")]),
        ("It reaches an aggregate bandwidth of 1.2 TB/s, 30% above NCCL.", [(1.2, "TB/s"), (30.0, "%")]),
        ("ResNet-50% is no number, 1.3-16x is a range.", [(None, "x")]),
    ],
)
def test_result_or_not(sentence, expected):
    assert [(c.value, c.unit) for c in find_claims(sentence)] == expected
