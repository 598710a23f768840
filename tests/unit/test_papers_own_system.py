"""The paper's own system is the one its body presents, by evidence: a title's lead that is a phrase
("Taming Scale: ...") and that the body never uses as a name is no system; "we present ... a library called X"
counts when the sentence wraps over a line; a system that a related-work sentence credits to others
("Park et al. introduce X, a ...", "FooLib [4] introduces X, a ...") is not the paper's; an ordinary word
before an appositive ("measured with Nsight Compute, a profiling tool") is no proposal. Every text is written
for the test in the shapes real papers take, read through the public path (``segment_text`` then
``extract_knowledge``)."""

from __future__ import annotations

import pytest
from papers_extract import claims_by_text, proposed_ids

from assay.dsl import get_operator
from assay.ids import entity_id

# A two-column PDF's abstract: lines wrapped mid-sentence, the system named at the end of the sentence.
PHRASE_TITLE = (
    "Taming Scale: Open Training of Large Models on Shared Clusters\n"
    "Ana Ruiz, Li Wei\n"
    "Example University, USA\n\n"
    "Abstract\n\n"
    "Training large models needs thousands of accelerators and a\n"
    "scalable software stack. In this work, we present a hybrid\n"
    "parallel algorithm implemented in a portable, open-source\n"
    "library called Quillon. We describe several optimizations in\n"
    "Quillon that overlap collectives with computation.\n\n"
    "1 Introduction\n\n"
    "Quillon runs on three supercomputers. Its kernels are tuned\n"
    "for each platform.\n\n"
    "4 Evaluation\n\n"
    "Overall, the time per iteration falls by 3.2x compared to FooSched.\n"
    "On 512 GPUs, the sustained throughput reaches 41% of the advertised peak.\n"
)

RELATED_WORK = (
    "Quokka: Elastic Scheduling for Shared GPU Clusters\n\n"
    "Abstract\n\n"
    "We present Quokka, a scheduler for shared GPU clusters.\n\n"
    "2 Related Work\n\n"
    "Park et al. introduce Tarnlib, an out-of-core training framework that moves\n"
    "tensors to host memory. Jain et al. [4] extend Tarnlib to mixed precision.\n"
    "BarPipe [7] introduces Velmora, a pipeline planner for small clusters.\n"
    "We measured kernel times with Nsight Compute, a profiling tool, and compute the peak from them.\n\n"
    "5 Evaluation\n\n"
    "Quokka finishes jobs 1.8x sooner than Tarnlib and 1.3x sooner than Velmora.\n"
    "On 64 GPUs, the average job completion time falls by 35% relative to FooSched.\n"
)


@pytest.fixture(scope="module")
def rules():
    return get_operator("extract_knowledge").bind(parse="none")



def test_a_phrase_title_gives_way_to_the_system_the_body_presents(rules):
    c = claims_by_text(PHRASE_TITLE, rules)
    assert c["3.2x"]["subject"] == "Quillon"
    assert c["41%"]["subject"] == "Quillon"


def test_a_phrase_title_is_no_proposal(rules):
    proposed = proposed_ids(PHRASE_TITLE, rules)
    assert entity_id("system", "Quillon") in proposed
    assert entity_id("system", "Taming Scale") not in proposed


def test_a_phrase_title_the_body_uses_as_a_name_stays(rules):
    text = PHRASE_TITLE.replace("Quillon", "Taming Scale")
    c = claims_by_text(text, rules)
    assert c["3.2x"]["subject"] == "Taming Scale"


def test_systems_credited_to_others_are_not_the_papers(rules):
    proposed = proposed_ids(RELATED_WORK, rules)
    assert entity_id("system", "Quokka") in proposed
    for name in ("Tarnlib", "Velmora", "Compute"):
        assert entity_id("system", name) not in proposed, name
    c = claims_by_text(RELATED_WORK, rules)
    assert c["1.8x"]["subject"] == "Quokka"
    assert c["1.8x"]["versus"] == "Tarnlib"
    assert c["1.3x"]["versus"] == "Velmora"
    assert c["35%"]["subject"] == "Quokka"


def test_our_own_statement_after_a_citation_stays_ours(rules):
    text = (
        "Cloud Training at Scale\n\n"
        "Abstract\n\n"
        "Building on prior planners [3, 5], we introduce Ravelin, a planner for elastic training jobs.\n\n"
        "4 Evaluation\n\n"
        "Overall, the cost of a training run falls by 27% compared to FooSched.\n"
    )
    assert entity_id("system", "Ravelin") in proposed_ids(text, rules)
    assert claims_by_text(text, rules)["27%"]["subject"] == "Ravelin"


def test_chinese_proposals_credited_to_others_are_not_the_papers(rules):
    text = (
        "# 弹性训练调度\n\n"
        "张等人提出了Tarnlib，这是一个离线训练框架。"
        "本文提出了Quillon，这是一个面向共享集群的调度系统。\n\n"
        "实验表明，与Tarnlib相比，Quillon将训练时间缩短了35%。\n"
    )
    proposed = proposed_ids(text, rules)
    assert entity_id("system", "Quillon") in proposed
    assert entity_id("system", "Tarnlib") not in proposed
    c = claims_by_text(text, rules)
    assert c["35%"]["subject"] == "Quillon"


def test_the_system_the_paper_calls_its_own(rules):
    # No "we present X" survives the reader (a two-column abstract's lines interleave); the body calls it
    # "our ... framework" and a legend marks it "(ours)". A machine named after "our cluster" is no system.
    text = (
        "Scaling Out: Parallel Training on Leadership Machines\n\n"
        "Abstract\n\n"
        "We describe a hybrid parallel algorithm and its tuning.\n\n"
        "1 Introduction\n\n"
        "We have built all of these ideas into Zephyrix [9], [11], our open-source framework for parallel\n"
        "training. We ran it on our largest cluster, Perlmutter, and on two others.\n"
        "Table 1 lists the results of this work with our training\n"
        "framework, Zephyrix, beside earlier studies.\n\n"
        "5 Evaluation\n\n"
        "Figure 4: Zephyrix (ours) and FooSched on 64 nodes.\n"
        "Overall, the time per batch falls by 2.4x compared to FooSched.\n"
        "On Perlmutter, the sustained throughput reaches 48% of the advertised peak.\n"
    )
    proposed = proposed_ids(text, rules)
    assert entity_id("system", "Zephyrix") in proposed
    assert entity_id("system", "Perlmutter") not in proposed
    c = claims_by_text(text, rules)
    assert c["2.4x"]["subject"] == "Zephyrix"
    assert c["48%"]["subject"] == "Zephyrix"


def test_a_benchmark_the_paper_presents_is_its_own_and_a_centre_it_thanks_is_none(rules):
    # the gazetteer knows DLRM as a model: named by others it is what a paper trains; presented, it is the paper's
    text = (
        "Recommendation Models at Scale\n\n"
        "Abstract\n\n"
        "We therefore present DLRM, a recommendation model with a parallel embedding design.\n\n"
        "5 Evaluation\n\n"
        "Its training throughput rises by 2.4x over a data-parallel baseline on 64 GPUs.\n\n"
        "Acknowledgements\n\n"
        "Work at Example University received support from the Data Systems Research\n"
        "Center, a Joint Center sponsored by 12 member companies, whose funding grew 30% last year.\n\n"
        # a PDF's page sets a figure's caption in after the thanks, before the references
        "Figure 6. Throughput by cluster size. It grows by 3.1x from 8 to 64 GPUs.\n\n"
        "References\n\n"
    )
    c = claims_by_text(text, rules)
    assert c["2.4x"]["subject"] == "DLRM"
    assert "30%" not in c  # the acknowledgements state no result
    assert "3.1x" in c  # a caption set in among them still does
    assert entity_id("system", "Center") not in proposed_ids(text, rules)
