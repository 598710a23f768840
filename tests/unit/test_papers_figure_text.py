"""Figure text that reaches a paper's text as lines: an axis's tick labels and a legend's evenly stepping
values are no claims, a decimal the reader tore ("0. 7X") is not read as another number, and a results
table flattened one cell a line keeps its cells. Through the public path: read_paper on a file, then
segment_text and extract_knowledge. Every line here is written for the test."""

from __future__ import annotations

from papers_extract import file_claims

BODY = (
    "Foo is a scheduler for shared training clusters.\n\n"
    "Foo cuts the average completion time by 31% against Bar on the large trace.\n\n"
)


def values_of(tmp_path, text: str) -> list[tuple]:
    claims = file_claims(tmp_path, text)
    out = []
    for c in claims:
        if c["unit"] in ("x", "%"):
            out.append((c["value"], c["unit"]))
    return out


def test_axis_ticks_one_a_line_are_no_claims(tmp_path):
    figure = "Utilisation\n0%\n25%\n50%\n75%\n100%\nFigure 2: Busy share of the devices over a day.\n\n"
    assert values_of(tmp_path, BODY + figure) == [(31.0, "%")]


def test_ticks_of_several_panels_read_in_no_order_are_no_claims(tmp_path):
    figure = ("Share of hours\n40%\n0%\n0%\n40%\n80%\n0%\n80%\nLoad (%)\n"
              "Figure 4: Device and memory load of the jobs by their size.\n\n")
    assert values_of(tmp_path, BODY + figure) == [(31.0, "%")]


def test_a_legend_of_evenly_spaced_sizes_is_no_claim(tmp_path):
    legend = "Embedding size\n0.9x\n0.6x\n0.3x\nFigure 5: Loss over the training days for three sizes.\n\n"
    assert values_of(tmp_path, BODY + legend) == [(31.0, "%")]


def test_a_torn_decimal_is_not_read_as_a_larger_number(tmp_path):
    legend = "Target\n0. 8X\nSize\n0. 4X\nFigure 6: Sizes reached per feature.\n\n"
    assert values_of(tmp_path, BODY + legend) == [(31.0, "%")]


def test_a_flattened_results_table_keeps_its_cells(tmp_path):
    table = (
        "Table 3: Speedup of Foo over Bar per model.\n\n"
        "Model\nSpeedup\nResNet\n1.42x\nBERT\n2.07x\nGPT\n1.66x\n\n"
        "Time to accuracy\n3.10x\n2.95x\n1.80x\n\n"
    )
    assert values_of(tmp_path, BODY + table) == [
        (31.0, "%"),
        (1.42, "x"),
        (2.07, "x"),
        (1.66, "x"),
        (3.1, "x"),
        (2.95, "x"),
        (1.8, "x"),
    ]


def test_a_legend_read_as_a_table_row_is_no_claim(tmp_path):
    # rows as the readers leave them: cells joined by " | "
    legend = (
        "Table 4: Speedup of Foo per model.\n\n"
        "Model | Speedup\nRanker | 1.7x\n\n"
        "Sizes shown | 0 | Ranker-S |  | 0.9X | 0.6X | 0.3X\n\n"
    )
    assert values_of(tmp_path, BODY + legend) == [(31.0, "%"), (1.7, "x")]


def test_three_measurements_that_step_evenly_by_chance_stay(tmp_path):
    table = (
        "Table 5: Speedup of each policy over the plain runtime.\n\n"
        "Policy | Small | Medium | Large\nBalance | 0.97x | 1.05x | 1.13x\n\n"
        "Time to accuracy\n0.97x\n1.05x\n1.13x\n\n"
    )
    assert values_of(tmp_path, BODY + table) == [
        (31.0, "%"),
        (0.97, "x"),
        (1.05, "x"),
        (1.13, "x"),
        (0.97, "x"),
        (1.05, "x"),
        (1.13, "x"),
    ]


def _bars(values: list[float]) -> str:
    return "".join(f"{v:.1f}x\n" for v in values)


def test_bar_labels_between_a_log_axis_ticks_are_no_claims(tmp_path):
    # a bar chart's value over each bar, the log axis's 10^3 ... 10^0 read without their raise ("103")
    figure = (
        "(a) Eight accelerators\n"
        + _bars([1.2, 2.4, 1.8, 3.1])
        + "103\n"
        + _bars([1.1, 2.6, 1.9])
        + "102\n"
        + _bars([1.4, 2.2])
        + "101\n100\nJoules per request\n\n"
    )
    assert values_of(tmp_path, BODY + figure) == [(31.0, "%")]


def test_a_long_run_of_bar_labels_is_no_claim_but_a_table_naming_its_rows_keeps_its_cells(tmp_path):
    labels = [1.0 + ((7 * k) % 23) / 10 for k in range(18)]  # no even steps, no axis: only the run's length
    figure = "(b) Four accelerators\n" + _bars(labels) + "Energy per request\n\n"
    rows = "".join(f"Model{k}\n{v:.1f}x\n{v + 0.3:.1f}x\n" for k, v in enumerate(labels[:6]))
    table = "Table 6: Speedup of Foo per model.\n\n" + "Model\nSmall\nLarge\n" + rows + "\n"
    values = values_of(tmp_path, BODY + figure + table)
    assert values[0] == (31.0, "%")
    assert len(values) == 1 + 12  # the table's twelve cells, none of the figure's eighteen labels


def test_two_panels_ticks_read_together_are_no_claims(tmp_path):
    # each tick of two side-by-side panels read twice in a row, then two axes one after the other
    paired = "Slowdown\n5%\n5%\n10%\n10%\n15%\n15%\n20%\n20%\nFigure 7: Tail latency of two tenants.\n\n"
    stacked = "Share\n10%\n20%\n30%\n40%\n10%\n20%\n30%\n40%\nFigure 8: Busy share per tenant.\n\n"
    assert values_of(tmp_path, BODY + paired + stacked) == [(31.0, "%")]


def test_a_row_of_changes_mostly_none_is_no_axis(tmp_path):
    # "0%, 0%, 0%, -12%": a tick each twice in a row would be "0%, 0%, -12%, -12%"; most changes being none is
    # no axis, and each cell is a result of the row
    rows = "Speed | -30% | -25% | 0% | +14%\nAccuracy | 0% | 0% | 0% | -12%\n\n"
    found = values_of(tmp_path, BODY + rows)
    assert found.count((0.0, "%")) == 4 and (-12.0, "%") in found


def test_a_table_column_read_a_cell_a_line_keeps_its_uneven_cells(tmp_path):
    column = "Speedup\n1.42x\n1.42x\n2.10x\n2.10x\n2.95x\nTable 3: Speedup of Foo per model.\n\n"
    assert (2.95, "x") in values_of(tmp_path, BODY + column)


def test_a_diagrams_labels_are_no_claims(tmp_path):
    # a design figure's boxes and arrows as a reader leaves them: short lines, several of them words alone
    diagram = (
        "Plain loop: Step 1 A\nB Step 2 A\nB\nSlow Kernel\nA\nB\nPicked by\nUnroll Factor=2\n2X width:\n"
        "Step 1\nStep 2\n2X buffers\nTuner\nA\nB\nUnroll Factor=4\nA\nPicked by\n4X width: Step 1\n4X buffers\n"
        "Tuner\nA\nB\nFigure 4: How the tuner unrolls the loop.\n\n"
    )
    assert values_of(tmp_path, BODY + diagram) == [(31.0, "%")]


def test_a_flattened_table_with_named_cells_keeps_them(tmp_path):
    # one row a line, each naming its model beside its figure: numbers on most lines, so no diagram
    table = (
        "Table 5: Speedup of Foo over Bar per model.\n\n"
        "Model Speedup\nResNet 1.42x\nBERT 2.07x\nGPT 1.66x\nT5 1.31x\nViT 1.25x\nOPT 1.90x\nMLP 1.12x\n\n"
    )
    assert values_of(tmp_path, BODY + table) == [
        (31.0, "%"), (1.42, "x"), (2.07, "x"), (1.66, "x"), (1.31, "x"), (1.25, "x"), (1.9, "x"), (1.12, "x"),
    ]


def test_bar_labels_between_a_plots_decimal_ticks_are_no_claims(tmp_path):
    # a bar plot's value axis (0.30 ... 0.00) read with its legend and the error printed over each bar
    plot = (
        "0.30\nSmall (1 GPU)\nLarge (4 GPUs)\nMeasured\nSimulated\n-1.84%\n0.20\n0.10\n0.63%\n-0.27%\n"
        "0.31% -1.12%\n0.00\nTrace-A Trace-B\nFigure 7: Simulated against measured latency per trace.\n\n"
    )
    assert values_of(tmp_path, BODY + plot) == [(31.0, "%")]


def test_a_table_with_an_unevenly_stepping_decimal_column_keeps_its_cells(tmp_path):
    table = (
        "Table 6: Loss and speedup of Foo per model.\n\n"
        "Model\nLoss\nSpeedup\nResNet\n0.41\n1.42x\nBERT\n0.17\n2.07x\nGPT\n0.93\n1.66x\n\n"
    )
    assert values_of(tmp_path, BODY + table) == [(31.0, "%"), (1.42, "x"), (2.07, "x"), (1.66, "x")]


def test_bar_labels_over_an_axis_of_whole_ticks_inside_a_sentence_are_no_claims(tmp_path):
    # a two-panel bar chart the reader put inside a paragraph: the legend, each bar's value, the axis's ticks
    # falling from the top (whole, then decimal), the lowest glued to the first category under it
    figure = (
        "Figure 7 and Figure 8 show the capacity of each system\n"
        "Alpha\nBeta\nFoo\n2.31x\n2.07x\n2\n2.52x\n3.90x\n1\n0 Tight\nLoose\nTight\nLoose\nSmall\nLarge\n"
        "1.0\n1.88x\n1.74x\n0.5\n1.66x\n1.59x\n0.0 Tight\nLoose\nTight\nLoose\nSmall\nLarge\n"
        "under load. Foo sustains up to 3.9x higher load than Alpha.\n\n"
    )
    assert values_of(tmp_path, BODY + figure) == [(31.0, "%"), (3.9, "x")]


def test_a_flattened_table_with_row_numbers_keeps_its_cells(tmp_path):
    # row numbers rise down the page; an axis read top to bottom falls
    table = "Table 2: Speedup of Foo over Bar.\n\nRun\nModel\nSpeedup\n1\nResNet\n1.42x\n2\nBERT\n2.07x\n3\nGPT\n1.66x\n\n"
    assert values_of(tmp_path, BODY + table) == [(31.0, "%"), (1.42, "x"), (2.07, "x"), (1.66, "x")]


def test_a_multiple_in_brackets_after_a_figure_of_a_flattened_row_is_a_result(tmp_path):
    paper = (
        "Quokka: Fast Attention Kernels\n\nAbstract\n\nWe present Quokka, an attention kernel for mixed batches.\n\n"
        "5 Evaluation\n\n"
        "Table 4: Runtime (ms) of the attention kernels per layer count.\n"
        "Layers Serial Quokka-A Quokka-B\n"
        "28 1.93 1.68 (0.87×) 1.45 (0.75×)\n"
        "29 1.96 1.69 (0.86×) 1.45 (0.74×)\n"
        "30 1.98 1.71 (0.86×) 1.45 (0.73×)\n\n"
        "Quokka cuts the runtime by 1.3× over the serial kernels.\n"
    )
    found = values_of(tmp_path, paper)
    assert {(0.87, "x"), (0.75, "x"), (0.73, "x"), (1.3, "x")} <= set(found)
    assert (1.93, "x") not in found and len(found) == 7
