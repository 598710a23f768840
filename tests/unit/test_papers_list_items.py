"""A Markdown list item is a statement of its own, also where it ends without a full stop (a README's
highlights): no sentence, and no baseline phrase, runs from one item into the next. A Chinese table's column
headed 提升 (improvement) sets each row's later figure against its earlier one, as ``Speedup`` does. Markdown
documents written for the test, read as a user's files are."""

from __future__ import annotations

from papers_extract import file_claims

HIGHLIGHTS = """# FastServe

FastServe is a fast inference engine.

## Highlights

- Throughput: 1.8x higher than vLLM
- Time to first token: 40% lower than TGI
- Memory: 30% smaller footprint
"""

ZH = """# FastServe

FastServe 是一个高效的大模型推理引擎。

## 性能

- **吞吐量**：相比 vLLM 提升 1.8 倍
- **显存**：节省 30% 显存

下表给出了在 A100 上的吞吐对比（tokens/s）：

| 模型 | vLLM | FastServe | 提升 |
|---|---|---|---|
| Llama2-7B | 1200 | 1800 | 1.5x |
| Qwen-14B | 800 | 1360 | 1.7x |
"""


def test_each_list_item_is_its_own_sentence(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, HIGHLIGHTS, "readme.md")}
    assert claims["1.8x"]["versus"] == "vLLM"
    assert claims["40%"]["versus"] == "TGI"
    assert claims["30%"]["versus"] is None


def test_a_chinese_list_and_an_improvement_column(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, ZH, "readme.md")}
    assert claims["1.8 倍"]["versus"] == "vLLM"
    assert claims["30%"]["versus"] is None
    assert (claims["1.5x"]["subject"], claims["1.5x"]["versus"]) == ("FastServe", "vLLM")
    assert (claims["1.7x"]["subject"], claims["1.7x"]["versus"]) == ("FastServe", "vLLM")
