"""A results table whose header is a path, a group's title over sub-columns (``Speedup (%) / BarRT +Cache``, as
``_pdf_tables`` leaves a PDF's two-level header): each sub-column that names a system, alone, joined with ``+``
or by an abbreviation the paper defines, is that system's result, whatever the caption names; the caption's
``relative to X`` is the baseline. Sub-columns that name no system keep the caption's subject, the paper's own.
Through the whole extraction, on own-written text."""

from __future__ import annotations

from assay.dsl import get_operator
from assay.ids import content_id
from assay.operators.papers import segment_text

EXTRACT = get_operator("extract_knowledge")

PROSE = (
    "1 Introduction\n"
    "We present QuillServe, a serving engine that batches requests by their expected length.\n"
    "5 Evaluation\n"
    "We compare QuillServe with BarRT and with two variants of BarRT:\n"
    "• BarRT + Cache (\u201cB+C\u201d), which keeps the prefix cache of every request;\n"
    "• BarRT + Prefetch (\u201cB+P\u201d), which loads the next layer ahead of time.\n"
    "QuillServe cuts the latency by 21% compared to BarRT on average.\n\n"
)
PATH_TABLE = (
    "Table 2: Latency reduction (%) of every method relative to BaseRT on each model.\n\n"
    "Model | Latency Reduction (%) / BarRT +Cache | Latency Reduction (%) / B+P | Latency Reduction (%) / QuillServe\n"
    "Alpha-7B | 3.4 | 5.6 | 12.7\n"
    "Beta-13B | 2.3 | 4.5 | 11.9\n\n"
)
OWN_TABLE = (
    "Table 3: Latency reduction (%) of QuillServe relative to BaseRT.\n\n"
    "Batch | Latency Reduction (%) / Short | Latency Reduction (%) / Long\n"
    "8 | 14.2 | 17.6\n"
    "16 | 15.3 | 18.8\n\n"
)


def _claims(text: str) -> dict[float, dict]:
    record = segment_text({"doc_id": content_id(text), "source_uri": "/x.pdf", "text": text})
    out, failures = EXTRACT.bind(parse="none").process([record])
    assert not failures, failures
    return {c["value"]: c for c in out[0]["claims"] if c["unit"] == "%"}


def test_a_sub_column_joined_with_plus_is_that_systems_result():
    found = _claims(PROSE + PATH_TABLE)
    assert found[3.4]["subject"] == "BarRT + Cache" and found[2.3]["subject"] == "BarRT + Cache"
    assert found[12.7]["subject"] == "QuillServe"
    assert found[3.4]["versus"] == "BaseRT" and found[12.7]["versus"] == "BaseRT"


def test_a_sub_column_headed_by_an_abbreviation_the_paper_defines_is_what_it_stands_for():
    found = _claims(PROSE + PATH_TABLE)
    assert found[5.6]["subject"] == "BarRT + Prefetch" and found[4.5]["subject"] == "BarRT + Prefetch"
    assert found[5.6]["versus"] == "BaseRT"


def test_sub_columns_naming_no_system_keep_the_captions_own_system():
    found = _claims(PROSE + OWN_TABLE)
    assert {found[v]["subject"] for v in (14.2, 17.6, 15.3, 18.8)} == {"QuillServe"}
    assert found[17.6]["versus"] == "BaseRT"


SIZED_TABLE = (
    "Table 4: Latency reduction (%) relative to BarRT + Cache for B+P and QuillServe.\n\n"
    "| Latency Reduction (%) / B+P | Latency Reduction (%) / QuillServe\n"
    "7B TP4 8 2K | 6.1 | 13.2\n"
    "1.5B TP8 16 4K | 5.2 | 14.3\n\n"
)


def test_a_header_whose_first_cell_is_empty_stands_over_the_rows_labelled_by_a_models_size():
    # the PDF reader strips the header line's empty first cell (``| Latency ...``); labels open with a size
    found = _claims(PROSE + SIZED_TABLE)
    assert found[6.1]["subject"] == "BarRT + Prefetch" and found[14.3]["subject"] == "QuillServe"
    assert found[13.2]["versus"] == "BarRT + Cache" and found[5.2]["versus"] == "BarRT + Cache"
