"""Chinese text among Latin names and numbers: a sentence that compares (``RPS 相较于 fp16 分别提升近 25% 和 35%``)
is prose even where its tokens are mostly names and numbers, so its ratios are claims; a table whose change column
is headed 变化 (change) sets each row's later figure against its earlier one, as ``Change`` does. A Markdown
document written for the test, read as a user's file is (``read_paper``, ``segment_text``, ``extract_knowledge``)."""

from __future__ import annotations

from papers_extract import file_claims

DOC = """# Kestrow 缓存量化

Kestrow 是一个推理引擎的 kv 缓存量化方法。

## 优势

推理高效，在 qwen2-7b 上加入 int8/int4 kv 量化，RPS 相较于 fp16 分别提升近 25% 和 35%

## 测试

在 H100 上使用 Qwen2-7B 模型进行测试：

| 指标 | Baseline (policy=0) | Kestrow (policy=4) | 变化 |
|---|---|---|---|
| 输出吞吐 | 2000.0 tok/s | 1800.0 tok/s | -10.0% |
| 平均延迟 | 5.000s | 5.500s | +10.0% |
"""


def test_a_chinese_comparison_among_latin_tokens_is_prose(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, DOC, "doc.md")}
    assert (claims["25%"]["value"], claims["25%"]["versus"]) == (25.0, "fp16")
    assert (claims["35%"]["value"], claims["35%"]["versus"]) == (35.0, "fp16")


def test_a_change_column_headed_in_chinese(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, DOC, "doc.md")}
    assert (claims["-10.0%"]["subject"], claims["-10.0%"]["versus"]) == ("Kestrow", "Baseline")
    assert (claims["10.0%"]["subject"], claims["10.0%"]["versus"]) == ("Kestrow", "Baseline")
