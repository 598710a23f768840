"""A post's sentence-case headline names its system (``Contoso Megatron-LM achieves record training times``): the
verb may be lower case where the subject has a name's shape, and the body writing the product without its maker
(``Megatron-LM``) makes the product the post's system; an ordinary capitalised word before a lower-case verb
(``Prefetching reduces ...``) names none. A table cell saying a run ran out of memory (``OOM``) is never a
name; a title that is a name with its acronym in brackets (``Contoso Paged Retrieval (CPR)``) names the
acronym. Markdown posts written for the test, read as a user's file is."""

from __future__ import annotations

from papers_extract import file_claims


def test_a_sentence_case_headline_names_the_product_its_body_writes(tmp_path):
    text = """# Contoso Megatron-LM achieves record training times

Good news! With the new kernels, pre-training now takes 44 minutes on 1024 GPUs. This is a 30% improvement over
the best published result, and up to 1.8x larger batches fit in memory.

| Batch | Eager (ms) | Megatron-LM (ms) | Note |
|---|---|---|---|
| 8 | OOM | 54.16 | OOM before |
| 16 | OOM | 60.70 | OOM before |

Megatron-LM ships the kernels in its next release.
"""
    claims = {c["text"]: c for c in file_claims(tmp_path, text, "post.md")}
    assert claims["30%"]["subject"] == "Megatron-LM"
    assert claims["1.8x"]["subject"] == "Megatron-LM"


def test_an_ordinary_word_before_a_lower_case_verb_names_nothing(tmp_path):
    text = """# Prefetching reduces the cost of long prompts

Splitting each prompt into pieces, the first token comes 40% sooner with prefetching, and prefetching keeps
decoding steady.
"""
    claims = {c["text"]: c for c in file_claims(tmp_path, text, "post.md")}
    assert claims["40%"]["subject"] != "Prefetching"


def test_a_title_with_its_acronym_names_the_acronym(tmp_path):
    text = """# Contoso Paged Retrieval (CPR)

## 核心信息

作者在内核里实现了 CPR 的检索，也给出了 CPR 的理论分析。

## 结果

在 1M 上下文上，prefill 相较于 FooAttn 加速 **9.5×**，decode 加速 **4.2×**。
"""
    claims = {c["text"]: c for c in file_claims(tmp_path, text, "note.md")}
    assert claims["9.5×"]["subject"] == "CPR"
    assert claims["4.2×"]["subject"] == "CPR"
