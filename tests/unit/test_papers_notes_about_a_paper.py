"""A note or post about one paper names that paper's system as the work of "the authors" (issue 26): "作者提出了
FlowKV" or "The authors present Brisk" in a text that never speaks as "we" is the system the note's results are
about, while in a paper of its own ("We present Quill ...") the same words credit another work. Own-written notes
in the shapes reading notes take, read through the public path."""

from __future__ import annotations

import pytest
from papers_extract import claims_by_text, proposed_ids

from assay.ids import entity_id

_ZH_NOTE = """# 论文阅读：FlowKV —— 面向长上下文推理的 KV 缓存调度

## 方法

作者提出了 FlowKV，一个 KV 缓存调度系统。FlowKV 将冷缓存卸载到 CPU 内存。

## 实验结果

- 在 Llama-3-8B 上，FlowKV 的吞吐量相比 vLLM 提升了 1.8 倍。
- 首 token 延迟降低 35%。
"""

_EN_NOTE = """# Reading notes: Brisk

The authors present Brisk, a scheduler for LoRA adapters in LLM serving.

- Time to first token falls by 35%.
- Brisk serves 2.1x more adapters than S-LoRA on one GPU.
"""


@pytest.mark.parametrize(("text", "name"), [(_ZH_NOTE, "FlowKV"), (_EN_NOTE, "Brisk")])
def test_the_authors_system_is_the_notes_own(text, name):
    assert entity_id("system", name) in proposed_ids(text)
    assert claims_by_text(text, source_uri="/notes.md")["35%"]["subject"] == name


def test_in_a_paper_of_its_own_the_authors_are_another_works():
    text = (
        "We present Quill, a scheduler for LoRA adapters. The authors present Brisk, a policy for one GPU. "
        "Quill serves 2.1x more adapters than Brisk."
    )
    ids = proposed_ids(text)
    assert entity_id("system", "Quill") in ids and entity_id("system", "Brisk") not in ids
