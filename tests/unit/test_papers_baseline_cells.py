"""A comparison phrase ends where a table's cell ends: a PDF reader flattens a results table one cell a line,
so "Speedup over DDP" is followed by the next header's cells, which are not part of the baseline's name;
prose broken over its layout's lines still runs on."""

from __future__ import annotations

from papers_extract import claims_by_text


def _claims(text: str) -> dict[str, dict]:
    return claims_by_text(text)


def test_a_header_cell_ends_the_baseline():
    c = _claims(
        "Quill: Fast Pipelines for Small Clusters\n\n"
        "We present Quill, a trainer that keeps every stage of a pipeline busy.\n\n"
        "Table 2: Training time of Quill on four models.\nModel\nNodes\nSpeedup over DDP\nBucket\n"
        "per stage (Cluster)\nBERT\n2x4\n2.4×\nGPT-2\n4x4\n3.1×\n"
    )
    assert c["2.4×"]["versus"] == c["3.1×"]["versus"] == "DDP"


def test_a_prose_line_break_does_not_end_the_baseline():
    c = _claims(
        "We present Quill, a trainer that keeps every stage of a pipeline busy. On the same cluster\n"
        "Quill finishes an epoch 1.8x sooner than the BarPipe\ntrainer on eight GPUs with its default plan.\n"
    )
    assert c["1.8x"]["versus"] == "BarPipe trainer"
