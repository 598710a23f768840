"""Chinese sentences with spaced numbers and names with digits: a line closed by a Chinese full stop is a
sentence, not a table row, however many of its tokens are numbers (``在 8 卡 A100 上，... 减少了 41%。``); in
``A 是 B 的 N 倍`` the baseline B may hold digits (``FP16``, ``A100``), as in ``比 FP16 快`` and ``优于 BF16``.
A Markdown document written for the test, read as a user's file is."""

from __future__ import annotations

from papers_extract import file_claims

DOC = """# FastServe 推理框架

FastServe 是一个面向大语言模型的高效推理与部署工具箱。

## 性能

在 8 卡 A100 上，FastServe 的显存占用减少了 41%。

使用 4 张 H800 时，FastServe 的首字延迟降低了 27%。

4bit 模型的推理效率是 FP16 的 2.2 倍。

FastServe 的吞吐量是 A100 单卡基线的 1.7 倍。

FastServe 的生成速度优于 BF16 推理 1.3 倍。
"""


def _claims(tmp_path):
    return {c["text"]: c for c in file_claims(tmp_path, DOC, "doc.md")}


def test_a_line_closed_by_a_chinese_full_stop_is_a_sentence(tmp_path):
    claims = _claims(tmp_path)
    assert claims["41%"]["subject"] == "FastServe"
    assert claims["27%"]["subject"] == "FastServe"


def test_a_baseline_with_digits_in_a_multiple_of_it(tmp_path):
    claims = _claims(tmp_path)
    assert claims["2.2 倍"]["versus"] == "FP16"
    assert claims["1.7 倍"]["versus"].startswith("A100")
    assert claims["1.3 倍"]["versus"].startswith("BF16")


# Neither document says "我们提出" (we propose): one names its work in a Chinese title, the other in the
# sentence that says what kind of software it is; a result whose sentence names no system is the work's.
TITLED = """# Lumo 推理框架

Lumo 面向大语言模型的在线服务。

## 性能

通过算子融合，单卡吞吐提升 20%。

推理延迟仅为 vLLM 的 60%。
"""

INTRODUCED = """# 训练加速

飞梭（Shuttle）是一款面向大模型训练的加速框架。

## 性能

我们的方法比 ZeRO-3 快 2.1 倍，比 FSDP 快 1.6 倍。

显存占用优于 ZeRO-2 约 1.4 倍。
"""


def test_a_name_leading_a_chinese_title_is_the_works(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, TITLED, "doc.md")}
    assert claims["20%"]["subject"] == "Lumo"
    assert (claims["60%"]["subject"], claims["60%"]["versus"]) == ("Lumo", "vLLM")


def test_the_software_a_sentence_says_it_is_is_the_works(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, INTRODUCED, "doc.md")}
    assert (claims["2.1 倍"]["subject"], claims["2.1 倍"]["versus"]) == ("Shuttle", "ZeRO-3")
    assert (claims["1.6 倍"]["subject"], claims["1.6 倍"]["versus"]) == ("Shuttle", "FSDP")
    assert claims["1.4 倍"]["versus"] == "ZeRO-2"
