"""Round 13 of the table rules: LaTeX cells written as math with a mean and its spread, whose unit only the
caption or the column's header gives; a table whose caption compares the paper's system with and without a
technique; a shape or code span that is no ratio. Own-worded documents about invented systems, each through
the whole path: ``read_paper`` on a ``.tex`` or ``.md`` file, ``segment_text``, ``extract_knowledge``."""

from __future__ import annotations

from papers_extract import claims_in_order, file_claims

_HEAD = (
    "\\documentclass{article}\n\\title{Ferrite: Cheap Adapters for Small Models}\n\\begin{document}\n\\maketitle\n"
    "\\begin{abstract}\nWe present Ferrite, an adapter method that keeps the hit rate of dense tuning at a "
    "fraction of its memory.\n\\end{abstract}\n\\section{Evaluation}\nWe compare Ferrite with DenseTune on three "
    "model sizes.\n"
)


def _tex(table: str) -> str:
    return f"{_HEAD}\\begin{{table}}[h]\n\\centering\n{table}\\end{{table}}\nFerrite also trains faster.\n\\end{{document}}\n"


def test_math_cells_with_a_spread_are_claims_at_the_captions_unit(tmp_path):
    # the unit only in the caption, "($\%$)"; the cells bold, underlined, mean ± spread; a corner cell left empty
    table = (
        "\\caption{Mean hit rate ($\\%$) over three runs of each method.}\n\\begin{tabular}{lccc}\n\\toprule\n"
        " & Small & Medium & Large \\\\\n\\midrule\n"
        "DenseTune & $\\mathbf{72.4 \\pm 1.1}$ & $68.0 \\pm 0.9$ & $61.3 \\pm 2.0$ \\\\\n"
        "Ferrite & $70.8 \\pm 1.4$ & $\\mathbf{69.5 \\pm 0.7}$ & $\\underline{64.2 \\pm 1.2}$ \\\\\n"
        "\\bottomrule\n\\end{tabular}\n"
    )
    found = [c for c in file_claims(tmp_path, _tex(table), "ferrite.tex") if c["unit"] == "%"]
    assert [c["value"] for c in found] == [72.4, 68.0, 61.3, 70.8, 69.5, 64.2]
    assert [c["subject"] for c in found] == ["DenseTune"] * 3 + ["Ferrite"] * 3
    # "over three runs" is what the mean is taken over, no baseline
    assert {c["versus"] for c in found} == {None}


def test_a_spread_cell_under_a_percent_header_is_a_measurement_beside_a_learning_rate(tmp_path):
    # the unit in the column's header, "[\%]"; a column of learning rates does not make it a settings table
    table = (
        "\\caption{Every step size we tried.}\n\\begin{tabular}{llc}\n\\toprule\n"
        "Method & Learning rate & Recall [\\%] \\\\\n\\midrule\n"
        "DenseTune & $10^{-3}$ & $55.2 \\pm 2.0$ \\\\\nFerrite & $10^{-3}$ & $\\textbf{58.9} \\pm 1.7$ \\\\\n"
        "\\bottomrule\n\\end{tabular}\n"
    )
    found = [c for c in file_claims(tmp_path, _tex(table), "ferrite.tex") if c["unit"] == "%"]
    assert [(c["value"], c["subject"]) for c in found] == [(55.2, "DenseTune"), (58.9, "Ferrite")]


def test_the_spread_after_a_figure_is_no_claim_but_a_tolerance_alone_is():
    found = claims_in_order("FooKV cuts the miss rate by 41.2% ± 1.3% over BarKV.")
    assert [(c["value"], c["versus"]) for c in found] == [(41.2, "BarKV")]
    found = claims_in_order("FooKV reaches the same accuracy as BarKV (within ±2% on every task).")
    assert [c["value"] for c in found] == [2.0]


_QUILLON = (
    "\\documentclass{article}\n\\title{Quillon: Pipelines That Prefetch}\n\\begin{document}\n\\maketitle\n"
    "\\begin{abstract}\nWe present Quillon, a pipeline trainer that prefetches the next chunk while the current one "
    "computes.\n\\end{abstract}\n\\section{Evaluation}\nQuillon trains 1.5$\\times$ faster than BarTrain on the small "
    "cluster and 1.7$\\times$ faster than BarTrain on the large one.\n"
)


def test_a_caption_with_and_without_a_component_sets_the_system_with_it_against_it_without(tmp_path):
    table = (
        "\\begin{table}[h]\n\\caption{Step time of Quillon with and without chunk prefetching.}\n"
        "\\begin{tabular}{lccc}\n\\toprule\nModel & Prefetch & Step (s) & Speedup \\\\\n\\midrule\n"
        "Tiny & \\checkmark & 3.10 & 1.42$\\times$ \\\\\nTiny & -- & 4.40 & -- \\\\\n"
        "Base & \\checkmark & 6.05 & 1.27$\\times$ \\\\\nBase & -- & 7.68 & -- \\\\\n\\bottomrule\n\\end{tabular}\n"
        "\\end{table}\nThe gain is largest on the small model.\n\\end{document}\n"
    )
    found = file_claims(tmp_path, _QUILLON + table, "quillon.tex")
    assert [(c["value"], c["subject"], c["versus"]) for c in found] == [
        (1.5, "Quillon", "BarTrain"),
        (1.7, "Quillon", "BarTrain"),
        (1.42, "Quillon with chunk prefetching", "Quillon without chunk prefetching"),
        (1.27, "Quillon with chunk prefetching", "Quillon without chunk prefetching"),
    ]


def test_w_and_wo_in_a_markdown_tables_caption_names_the_component(tmp_path):
    text = (
        "# Quillon: Pipelines That Prefetch\n\nWe present Quillon, a pipeline trainer. Quillon trains 1.5x faster "
        "than BarTrain on small clusters and 1.7x faster than BarTrain on large ones.\n\n"
        "Table 3: Peak memory of Quillon w/ and w/o activation offload.\n\n"
        "| Model | Peak (GB) | Reduction |\n|---|---|---|\n| Tiny | 11.2 | 31% |\n| Base | 20.4 | 24% |\n"
    )
    found = [c for c in file_claims(tmp_path, text, "quillon.md") if c["unit"] == "%"]
    assert [(c["value"], c["subject"], c["versus"]) for c in found] == [
        (31.0, "Quillon with activation offload", "Quillon without activation offload"),
        (24.0, "Quillon with activation offload", "Quillon without activation offload"),
    ]


def test_a_header_naming_the_baseline_wins_over_the_captions_with_and_without(tmp_path):
    text = (
        "# Quillon: Pipelines That Prefetch\n\nWe present Quillon, a pipeline trainer.\n\n"
        "Table 2: Quillon with and without chunk prefetching.\n\n"
        "| Model | Speedup over BarTrain |\n|---|---|\n| Tiny | 1.42x |\n"
    )
    found = file_claims(tmp_path, text, "quillon.md")
    assert [(c["value"], c["subject"], c["versus"]) for c in found] == [(1.42, "Quillon", "BarTrain")]


def test_a_shape_in_a_code_span_is_no_ratio(tmp_path):
    text = (
        "# FooGrid: Event Graphs Compiled Once\n\nWe present FooGrid, a compiler for event graphs. The template "
        "`(B,H)` is compiled once; at run time `B=1` makes it `1×H` and `B=2` makes it `2×H`, and a 4×N grid "
        "covers the experts. FooGrid decodes 1.3x faster than BarGraph.\n"
    )
    found = file_claims(tmp_path, text, "foogrid.md")
    assert [(c["value"], c["unit"], c["versus"]) for c in found] == [(1.3, "x", "BarGraph")]


def test_rows_labelled_by_a_grid_of_counts_under_a_speedup_over_header_are_results_against_its_name(papers_bound):
    # "4x4 (A) 15-1": servers x GPUs, a cluster and a configuration; the header names the baseline, so the
    # reference rows' 1x do not make the column a curve normalised to one of its settings
    text = (
        "We present FooPipe, a pipeline training system. FooPipe is 2.1x faster than DP.\n\n"
        "Task Model # Servers Config | Speedup over DP / Epoch time | Speedup over DP / TTA\n"
        "4x4 (A) 15-1 | 4.28× | 4.26×\n"
        "Image BarNet-16 Quux 68% top-1 |  |\n"
        "2x8 (B) 15-1 | 2.88× | 2.36×\n"
        "4x4 (A) 16 | 1× | 1×\n\n"
        "Table 1: Summary of results comparing FooPipe with data parallelism (DP).\n\n"
        "On the second cluster, FooPipe reaches a speedup of 2.88× with 16 GPUs.\n"
    )
    found = claims_in_order(text, papers_bound)
    cells = [(c["value"], c["versus"]) for c in found if c["value"] in (4.28, 4.26, 2.88, 2.36)]
    assert cells == [(4.28, "DP"), (4.26, "DP"), (2.88, "DP"), (2.36, "DP"), (2.88, "DP")]
    assert 68.0 not in [c["value"] for c in found]  # an accuracy target in a label is no claim
