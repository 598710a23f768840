"""A system the paper works on, introduced as someone else's ("We targeted FooInfer, a state-of-the-art attention
library widely used in ..."), is not the paper's own; and a table whose corner names its columns as settings
(``Config``) over rows that are measures lists no systems across. Papers written for the test."""

from __future__ import annotations

from papers_extract import extracted_claims

_PAPER = (
    "Trimmer: Debloating Kernel Libraries\n\nAbstract\nWe present Trimmer, a compiler pass that removes "
    "unreachable kernels from operator libraries.\n\nEvaluation\n"
    "We targeted FooInfer, a state-of-the-art attention kernel library widely used in serving systems. "
    "Trimmer reduces the binary size of the FooInfer library from 500MB to 20MB. On average, Trimmer achieves a "
    "96.1% reduction in binary size.\n\n"
    "Config | Llama (32, 32, 128) | Qwen (32, 8, 128) | Average\n"
    "Binary Size (MB) | 19.2 | 18.9 | 19.1\n"
    "Reduction Ratio | 96.3% | 96.4% | 96.1%\n\n"
    "Table 4. Binary size and reduction ratio of the FooInfer library under different model configurations.\n"
)


def test_someone_elses_system_in_an_apposition_is_not_the_papers():
    subjects = {c["subject"] for c in extracted_claims(_PAPER, source_uri="/x.md")}
    assert "FooInfer" not in subjects


def test_setting_columns_name_no_system():
    cells = [c for c in extracted_claims(_PAPER, source_uri="/x.md") if c["value"] in (96.3, 96.4)]
    assert cells and all(c["subject"] == "Trimmer" and c["versus"] is None for c in cells)
