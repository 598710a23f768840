"""GitHub-flavoured pipe tables read through the whole path (``read_paper`` → ``extract_knowledge``): rows
without outer bars, cells parted by tabs, the header kept above the body so its units reach the cells."""

from __future__ import annotations

from papers_extract import file_claims

POST = (
    "# Quill: faster decoding\n\n"
    "Quill speeds up decoding on every model we tried.\n\n"
    "| Model | Tokens/s | Speedup (x) |\n"
    "|:------|:--------:|:-----------:|\n"
    "Llama-7B\t| 410\t|\t2.31\n"
    "Llama-13B\t| 260 |\t2.07\n"
    "Mistral-7B | 433\t| 1.96\n\n"
    "Table 1. Decoding speed of Quill.\n"
)


def test_rows_without_outer_bars_take_the_header_unit(tmp_path):
    claims = file_claims(tmp_path, POST, "quill.md")
    found = {(c["value"], c["unit"]) for c in claims}
    assert {(2.31, "x"), (2.07, "x"), (1.96, "x")} <= found
    assert not any(c["value"] in (410, 260, 433) for c in claims)


def test_a_table_with_no_leading_bar_anywhere(tmp_path):
    source = (
        "Cedar trims memory use on long contexts.\n\n"
        "Context\t| Saving (%)\n"
        "---|---\n"
        "32K\t| 18.5\n"
        "128K\t| 41.2\n"
    )
    claims = file_claims(tmp_path, source, "cedar.md")
    assert {(c["value"], c["unit"]) for c in claims} >= {(18.5, "%"), (41.2, "%")}


def test_a_delimiter_of_another_width_is_no_table(tmp_path):
    source = "Birch runs fast | and cheap\n---\n\nBirch is 1.4x faster than Oak.\n"
    claims = file_claims(tmp_path, source, "birch.md")
    assert [c["value"] for c in claims] == [1.4]


def test_a_row_label_opening_with_a_context_length_before_chinese_words_names_its_row(tmp_path):
    paper = """# MSB 笔记

本文介绍 MSB，一种稀疏注意力方法。

| 指标 | 数值 |
|---|---|
| 1M 上下文 prefill 实测加速（H800） | **14.2×** |
| 1M 上下文 decode 实测加速 | **7.6×** |
"""
    claims = {c["text"]: c for c in file_claims(tmp_path, paper, "notes.md")}
    assert {"14.2×", "7.6×"} <= set(claims) and claims["14.2×"]["subject"] == "MSB"


def test_columns_of_kernels_normalised_to_the_first_under_rows_of_devices(tmp_path):
    # rows are the GPUs measured on, the columns the kernels; the first kernel's column is the unit everywhere
    source = (
        "# Choosing an attention kernel\n\n"
        "We compare three attention kernels on three accelerators.\n\n"
        "**Throughput relative to FlashPath (64 concurrent requests):**\n\n"
        "| Hardware | FlashPath | PagedTile | NaiveAttn |\n"
        "| -------- | --------- | --------- | --------- |\n"
        "| H100     | **1.00x** | 1.12x     | 0.41x     |\n"
        "| H200     | **1.00x** | 1.18x     | 0.38x     |\n"
        "| B200     | **1.00x** | 1.25x     | 0.35x     |\n"
    )
    claims = file_claims(tmp_path, source, "kernels.md")
    cells = {c["value"]: c for c in claims if c["unit"] == "x"}
    assert 1.0 not in cells  # the reference's own unit is no result
    assert cells[1.25]["subject"] == "PagedTile" and cells[1.25]["versus"] == "FlashPath"
    assert cells[0.38]["subject"] == "NaiveAttn" and cells[0.38]["versus"] == "FlashPath"


def test_a_result_that_came_out_at_one_in_a_later_column_stays_a_result(tmp_path):
    source = (
        "# Spruce\n\n"
        "Spruce speeds up feature pipelines.\n\n"
        "| Technique | Toxic | Music | Instant |\n"
        "| --------- | ----- | ----- | ------- |\n"
        "| Top-K     | 1.3x  | 5.9x  | 1.0x    |\n"
        "| Cascades  | 1.2x  | 6.1x  | 1.0x    |\n"
    )
    claims = file_claims(tmp_path, source, "spruce.md")
    assert sorted(c["value"] for c in claims if c["unit"] == "x").count(1.0) == 2


def test_an_html_images_alt_text_is_read_as_a_markdown_images_is(tmp_path):
    source = (
        "# Wren 2\n\n"
        "Wren 2 ships a new scheduler.\n\n"
        '<p align="center">\n  <img src="fig1.png" alt="Up to 2.6x higher throughput with Wren 2 than Wren 1" width="500"/>\n</p>\n\n'
        "![Up to 40% lower latency with Wren 2 than Wren 1](fig2.png)\n"
    )
    found = {(c["value"], c["unit"]) for c in file_claims(tmp_path, source, "wren.md")}
    assert {(2.6, "x"), (40.0, "%")} <= found


def test_rows_labelled_by_a_count_with_its_noun_state_the_tables_results(tmp_path):
    post = (
        "# Quillo: a smaller KV cache\n\n"
        "We present Quillo, a KV cache for long contexts.\n\n"
        "| Interval | Storage | Reduction | Latency | Latency increase |\n"
        "|---|---|---|---|---|\n"
        "| 128 tokens (default) | 20.1 GB | baseline | 2900 ms | baseline |\n"
        "| 1,024 tokens | 6.2 GB | −69% | 3300 ms | +14% |\n"
        "| 8,192 tokens | 4.4 GB | −78% | 4400 ms | +52% |\n\n"
        "在一百万 token 上测量：\n\n"
        "| 检查点间隔 | 存储 | 降幅 | 命中时延迟 | 延迟增量 |\n"
        "|---|---|---|---|---|\n"
        "| 1,024 token | 6.2 GB | −66% | 3300 ms | +12% |\n"
    )
    claims = file_claims(tmp_path, post, "elm.md")
    found = {(c["value"], c["unit"]) for c in claims}
    assert {(-69.0, "%"), (14.0, "%"), (-78.0, "%"), (52.0, "%"), (-66.0, "%"), (12.0, "%")} <= found
    assert all(c["subject"] == "Quillo" for c in claims if c["unit"] == "%")


def test_a_column_headed_by_what_it_is_set_against_holds_multiples(tmp_path):
    # "v.s. kv fp16": each cell is the row's figure as a multiple of fp16's; the fp16 row's own 1.0 is the
    # reference (P8); a "-" under the model repeats the label above it; "test settings" names the runs' setup
    source = (
        "# KVQ: a quantised cache\n\nWe present KVQ, a quantised cache.\n\n## Speed\n\n"
        "| model | kv type | test settings | RPS | v.s. kv fp16 |\n"
        "| ----- | ------- | ------------- | --- | ------------ |\n"
        "| llama-7b | fp16 | tp1 / bs 256 | 14.98 | 1.0 |\n"
        "| - | int8 | tp1 / bs 256 | 19.01 | 1.27 |\n"
        "| - | int4 | tp1 / bs 256 | 20.81 | 1.39 |\n"
        "| llama-13b | fp16 | tp1 / bs 128 | 8.55 | 1.00 |\n"
        "| - | int8 | tp1 / bs 128 | 10.96 | 1.28 |\n"
    )
    claims = file_claims(tmp_path, source, "kvq.md")
    assert [(c["value"], c["unit"]) for c in claims] == [(1.27, "x"), (1.39, "x"), (1.28, "x")]


def test_a_figure_with_its_change_beside_it_states_the_change_against_the_reference_row(tmp_path):
    source = (
        "# 并行策略对比\n\n"
        "下表给出 Wren 在不同并行策略下的时延与显存。\n\n"
        "| 卡数 | 并行类型 | 时延 | 加速比 | 显存占用 |\n"
        "|------|----------|------|--------|----------|\n"
        "| 1 | Baseline | 200.1s | 1.00x | 80,000M |\n"
        "| 2 | TP | 101.5s | 0.99x | 50,400M ▼37.0% |\n"
        "| 4 | SP | 52.0s | 0.96x | 68,000M (-15.0%) |\n"
    )
    claims = {c["value"]: c for c in file_claims(tmp_path, source, "wren_zh.md") if c["unit"] == "%"}
    assert set(claims) == {37.0, -15.0}  # the changes; the figures (50,400M) are no ratio
    assert [(claims[v]["subject"], claims[v]["versus"]) for v in (37.0, -15.0)] == [("TP", "Baseline"), ("SP", "Baseline")]
    multiples = {c["value"]: c for c in file_claims(tmp_path, source, "wren_zh.md") if c["unit"] == "x"}
    assert 1.0 not in multiples  # the reference row's own normalisation
    assert (multiples[0.99]["subject"], multiples[0.99]["versus"]) == ("TP", "Baseline")


def test_a_figure_with_no_mark_of_change_is_no_claim(tmp_path):
    source = (
        "# Memory\n\n"
        "| GPUs | Type | Memory |\n|---|---|---|\n"
        "| 1 | Baseline | 80,000M |\n| 2 | TP | 50,400M 37.0% |\n"
    )
    assert not [c for c in file_claims(tmp_path, source, "plain.md") if c["unit"] == "%"]


def test_a_captions_normalisation_reaches_only_the_measure_it_names(tmp_path):
    source = (
        "# Lark: routing experts\n\n"
        "Lark routes tokens to experts by their estimated popularity.\n\n"
        "| Model | Path | Norm. Inference Time (x) | Fine-tuning (%) | Estimation Accuracy (%) |\n"
        "|---|---|---|---|---|\n"
        "| GPT-M | 1 | 1.41 | 76.5 | 31.6 |\n"
        "| GPT-M | 3 | 1.16 | 25.7 | 60.4 |\n\n"
        "Table 5. Lark's performance with different path lengths. Inference time is normalized to Ideal.\n"
    )
    claims = {c["value"]: c for c in file_claims(tmp_path, source, "lark.md")}
    assert claims[1.41]["versus"] == "Ideal"
    assert [claims[v]["versus"] for v in (76.5, 31.6, 25.7, 60.4)] == [None, None, None, None]
