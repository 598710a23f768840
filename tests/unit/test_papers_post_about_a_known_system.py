"""A post about a known library that proposes nothing by name ("the training features of Megatron-LM"),
where the operations it tunes are written more often than the library: the library is the text's own system
and its results' subject, not the most repeated name; a question word opening sentences is no name; a
subordinate clause ("where each node has 8 GPUs", "if we ...") is no subject of a study's result. Own-worded
texts, each through the whole extraction."""

from __future__ import annotations

from pathlib import Path

from papers_extract import claims_in_order, file_claims

_POST = (
    "# Faster collectives for large-scale training\n\n## 1. Introduction\nIn this post we look at the "
    "collectives behind the training features of Megatron-LM. These changes ship in Megatron-LM releases "
    "from 0.9 on.\n\n## 2. Fusing gathers\n\nThe parameters move by AllGather, in small AllGather buckets. We "
    "fuse the AllGather calls, and the AllGather time drops. After fusing, we cut the gather time by 3x on 256 "
    "GPUs. With the ReduceScatter calls fused as well, we see a 1.4x faster step. The ReduceScatter stays "
    "cheap, and the ReduceScatter buckets are large. Megatron-LM users get this by default.\n"
)


def test_the_known_library_a_post_is_about_is_its_results_subject(tmp_path: Path):
    found = file_claims(tmp_path, _POST, "post.md")
    assert [(c["value"], c["subject"]) for c in found] == [(3.0, "Megatron-LM"), (1.4, "Megatron-LM")]


def test_a_library_named_once_does_not_become_the_posts_own(tmp_path: Path):
    once = _POST.replace("These changes ship in Megatron-LM releases from 0.9 on.", "").replace(
        "Megatron-LM users get this by default.", ""
    )
    found = file_claims(tmp_path, once, "post.md")
    assert [c["value"] for c in found] == [3.0, 1.4]
    assert "Megatron-LM" not in {c["subject"] for c in found}


def test_question_words_and_subordinate_clauses_name_nothing(papers_bound):
    found = claims_in_order(
        "On our cluster, where each node has 8 GPUs, preemptible nodes are 60% cheaper than on-demand ones. If "
        "we pack jobs tightly, idle time falls by 30%. What does this mean? What we see is simple.",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found] == [(60.0, None), (30.0, None)]


def test_people_who_use_a_system_are_no_subject(papers_bound):
    found = claims_in_order(
        "We present Tallow, an offloading engine for training. Tallow moves optimizer states to the CPU. In fact, "
        "PyTorch users can enable Tallow with few lines of code change to their existing training pipeline as "
        "shown in Figure 1, allowing to train 10x larger models easily.",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found] == [(10.0, "Tallow")]
