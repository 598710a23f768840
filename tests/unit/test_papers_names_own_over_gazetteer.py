"""The paper's own system whose name starts with a known one ("DeepSpeed-Flex" beside the gazetteer's
"DeepSpeed") is named whole: the longest rule-based mention wins, so a claim's subject is the paper's system,
not the product its name begins with."""

from __future__ import annotations

from papers_extract import claims_by_text


def test_own_name_that_starts_with_a_known_name_is_the_subject_whole():
    c = claims_by_text(
        "DeepSpeed-Flex: Elastic Tensor Parallelism\n\n"
        "In this work, we present DeepSpeed-Flex, a trainer that reshapes tensor parallel groups at run time. "
        "DeepSpeed is a training library that we extend.\n\n"
        "On 64 GPUs, DeepSpeed-Flex trains 1.7x faster than Megatron-LM. "
        "Across the cluster sizes we tried, DeepSpeed-Flex supports 2.5x larger models than DeepSpeed-MoE.\n"
    )
    assert c["1.7x"]["subject"] == "DeepSpeed-Flex"
    assert c["2.5x"]["subject"] == "DeepSpeed-Flex"


def test_the_framework_the_paper_builds_in_is_not_the_subject():
    # "We implement our approach in X": X hosts the paper's system; the result is the paper's own
    c = claims_by_text(
        "DeepSpeed-Flex: Elastic Expert Parallelism\n\n"
        "In this work, we present DeepSpeed-Flex, a hybrid parallel trainer for mixture-of-experts models. "
        "DeepSpeed is a training library that we extend. We implement our approach in DeepSpeed and achieve "
        "speedups of 26% over a baseline without our communication optimizations.\n\n"
        "DeepSpeed-Flex trains 1.4x faster than Megatron-LM on 64 GPUs.\n"
    )
    assert c["26%"]["subject"] == "DeepSpeed-Flex"
