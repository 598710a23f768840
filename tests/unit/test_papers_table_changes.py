"""A table whose cells are changes states results: a header that names a benefit, or cells written with their
sign (``+21.3%``), are a comparison's figures even where nothing else names what the table measures. Papers
written for the test."""

from __future__ import annotations

from papers_extract import extracted_claims

_HEAD = "Quill: Overlapped Expert Pipelines\n\nAbstract. Quill raises prefill throughput by 19% over Megatron-LM.\n\n"


def _values(text: str) -> set[float]:
    return {c["value"] for c in extracted_claims(_HEAD + text, source_uri="/x.md") if c["unit"] == "%"}


def test_a_benefit_header_makes_its_cells_results():
    table = (
        "Table 3: Prefill of two MoE models on 8 GPUs.\n\n"
        "Prefill benefit | 1K | 2K | 4K\nModelA [P=4] | 14.2% | 12.9% | 8.1%\nModelA [P=1] | 9.7% | 7.4% | 5.5%\n"
    )
    assert {14.2, 12.9, 8.1, 9.7, 7.4, 5.5} <= _values(table)


def test_signed_cells_are_changes_whatever_the_header():
    table = (
        "Table 4: Prefill of two MoE models on 8 GPUs.\n\n"
        "Model | 1K | 2K | 4K\nModelA | +14.2% | +12.9% | +8.1%\nModelB | +9.7% | +7.4% | -0.5%\n"
    )
    assert {14.2, 12.9, 8.1, 9.7, 7.4} <= _values(table)


def test_bare_shares_in_a_table_that_names_no_measure_stay_out():
    table = (
        "Table 5: Prefill of two MoE models on 8 GPUs.\n\n"
        "Model | 1K | 2K | 4K\nModelA | 14.2% | 12.9% | 8.1%\nModelB | 9.7% | 7.4% | 5.5%\n"
    )
    assert not {14.2, 12.9, 8.1, 9.7, 7.4, 5.5} & _values(table)


def test_an_unknown_row_among_known_systems_is_a_system_too():
    text = (
        "We compare Quill with cuBLAS and TensorRT on five kernels.\n\n"
        "Table 2: Hardware utilization of each library on five kernels.\n\n"
        "Library | K1 | K2 | K3\ncuBLAS | 78% | 87% | 68%\nTensorRT | 71% | 80% | 66%\nZorblas | 64% | 38% | 45%\n"
    )
    subjects = {c["value"]: c["subject"] for c in extracted_claims(_HEAD + text, source_uri="/x.md") if c["unit"] == "%"}
    assert subjects[78.0] == "cuBLAS" and subjects[64.0] == "Zorblas"  # not the paper's Quill
