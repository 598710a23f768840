"""A document's own system and its default baseline, by what the text structurally says.

* A README whose title is a name alone ("# HexaFlow"), or whose head block carries a "Name: tagline" line,
  presents that name, not a library its install notes build.
* A write-up that states no system of its own (no title name, no "we present X") has none: a name it merely
  repeats (the collective it tunes) is not the document's.
* A setup that declares its baseline by description ("The baseline is a single-process deployment ...") or
  a result set against "the full training baseline" names the default baseline of the results that name none.
* A lone adjective or participle ("exceeding the expected 2x"), a word whose number was cut off ("than
  stage 2") and a comparison closed by "but" are no baselines.

Every text is written for the test in the shapes real documents take, read through the public path."""

from __future__ import annotations

from papers_extract import claims_by_text, file_claims

INSTALL = (
    "## Install\n\n"
    "Before installing, we build PyTorch with CUDA 12 support. PyTorch 2.1 or later is needed, and a\n"
    "PyTorch nightly works too. Check the PyTorch version before you start.\n"
)

README_H1 = (
    "# HexaFlow\n\n"
    '<p align="center"><img src="logo.png"></p>\n\n'
    "## Highlights\n\n"
    "- Fine-tuning throughput improves by 35% with one line of code.\n"
    "- HexaFlow keeps the memory of each GPU low.\n\n" + INSTALL
)

README_TAGLINE = (
    '<div align="center">\n\n'
    '<img src="logo.png">\n\n'
    "HexaFlow: cheaper and faster training of large models\n\n"
    "</div>\n\n"
    "## Highlights\n\n"
    "- Fine-tuning throughput improves by 35% with one line of code.\n"
    "- HexaFlow keeps the memory of each GPU low.\n\n" + INSTALL
)


def test_a_title_that_is_a_name_alone_is_the_documents_system(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, README_H1, "README.md")}
    assert claims["35%"]["subject"] == "HexaFlow"


def test_a_name_heading_a_tagline_in_the_head_block_is_the_documents_system(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, README_TAGLINE, "README.md")}
    assert claims["35%"]["subject"] == "HexaFlow"


BLOG = (
    "# Tuning Collectives at Scale\n\n"
    "Large jobs spend much of each step in the AllGather and the ReduceScatter. We looked at where\n"
    "the AllGather waits, and at how the ReduceScatter buckets are sized.\n\n"
    "## Results\n\n"
    "Overall, the step time drops by 25% on 256 GPUs.\n\n"
    "Bucketing the AllGather by rank keeps the links busy.\n"
)


def test_a_write_up_with_no_system_of_its_own_gives_none_to_its_results(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, BLOG, "blog.md")}
    assert claims["25%"]["subject"] is None


SETUP_PAPER = (
    "Quillserve: Serving Any-to-Any Models\n\n"
    "Abstract\n\n"
    "We present Quillserve, a serving system for models with many components. Quillserve improves serving\n"
    "throughput by up to 2.5x.\n\n"
    "1 Introduction\n\n"
    "Models that mix text and audio are hard to serve.\n\n"
    "4 Evaluation\n\n"
    "Setup. We run on two nodes of eight GPUs each. The baseline is a single-process deployment\n"
    "where every component shares one executor.\n\n"
    "Throughput. Quillserve improves the throughput on eight GPUs by 2.2x.\n\n"
    "Latency. Quillserve reduces the tail latency by 3.4x.\n"
)


def test_a_baseline_the_setup_declares_by_description_is_the_default():
    claims = claims_by_text(SETUP_PAPER)
    # the statements name no baseline: the declared one is what the paper implies for them
    assert claims["2.2x"]["versus"] is None and claims["2.2x"]["implied_versus"] == "single-process deployment"
    assert claims["3.4x"]["versus"] is None and claims["3.4x"]["implied_versus"] == "single-process deployment"


DESCRIBED = (
    "QuickFreeze: Freezing Converged Layers\n\n"
    "Abstract\n\n"
    "We present QuickFreeze, a training system that stops updating layers once they converge.\n\n"
    "2 Motivation\n\n"
    "Freezing a layer too early is risky: in our study it cuts the final accuracy by nearly 3%.\n\n"
    "5 Evaluation\n\n"
    "Figure 7. QuickFreeze trains models to the target accuracy compared to the full training baseline,\n"
    "without losing accuracy.\n\n"
    "Image models. QuickFreeze speeds up the training of the residual network by 28%.\n\n"
    "Language models. QuickFreeze accelerates the translation model by 39%.\n"
)


def test_the_full_training_baseline_is_a_default_named_by_its_description():
    claims = claims_by_text(DESCRIBED)
    assert claims["28%"]["implied_versus"] == "full training baseline"
    assert claims["39%"]["implied_versus"] == "full training baseline"
    assert claims["28%"]["versus"] is None  # the statement names none
    assert claims["3%"]["implied_versus"] is None  # the motivation's measurement, before the evaluation declares it


JUNK = (
    "Quillserve: Serving Any-to-Any Models\n\n"
    "Abstract\n\n"
    "We present Quillserve, a serving system for models with many components.\n\n"
    "4 Evaluation\n\n"
    "Going to sixteen GPUs, Quillserve's throughput grows by 2.4x, exceeding the expected 2x of perfect\n"
    "scaling. The planner splits stage 3, which is larger than stage 2 (18%), into smaller parts.\n"
    "Caching helps image models more than language models but stays under 9% of the step time.\n\n"
    "Latency. Quillserve reduces the tail latency by 3.4x.\n"
)


def test_an_adjective_a_numbered_item_or_a_but_clause_is_no_baseline():
    claims = claims_by_text(JUNK)
    versus = {c["text"]: c["versus"] for c in claims.values()}
    assert versus.get("3.4x") != "expected"
    assert all(v not in ("expected", "stage", "language models but") for v in versus.values()), versus
    assert claims["9%"]["versus"] is None


COMPARANDS = (
    "QuickFreeze: Freezing Converged Layers\n\n"
    "Abstract\n\n"
    "We present QuickFreeze, a training system that stops updating layers once they converge.\n\n"
    "3 Design\n\n"
    "We find that our drift score ranks layers in the same order as CKA-Sim but costs ~12x less to compute.\n\n"
    "5 Evaluation\n\n"
    "Over 80 epochs, QuickFreeze keeps the final accuracy while LayerDrop and FreezeOut each lose 1.7% and\n"
    "2.9% of it. QuickFreeze matches full fine-tuning while cutting the GPU hours of four ViT models by\n"
    "1.6x.\n"
)


def test_a_comparand_named_by_as_but_or_set_against_a_while_clause():
    claims = claims_by_text(COMPARANDS)
    assert claims["12x"]["versus"] == "CKA-Sim"
    assert claims["1.7%"]["versus"] == "QuickFreeze"
    assert claims["2.9%"]["versus"] == "QuickFreeze"
    # a while-clause of a participle goes on about the main clause's subject: nothing set against it
    assert claims["1.6x"]["subject"] == "QuickFreeze" and claims["1.6x"]["versus"] != "QuickFreeze"


ZH_NOUN_NAME = (
    "流水线并行训练常被气泡拖慢。本文提出了一种面向异构集群的流水线调度器Pipora，它按阶段的耗时重新划分模型。"
    "实验表明，每轮训练时间平均缩短了27%。在64个GPU上，Pipora的吞吐量提高了1.9倍。"
)


def test_a_chinese_name_right_after_its_kind_of_system_is_proposed():
    claims = claims_by_text(ZH_NOUN_NAME)
    assert claims["27%"]["subject"] == "Pipora"


SIZES = (
    "Quillserve: Serving Any-to-Any Models\n\n"
    "Abstract\n\n"
    "We present Quillserve, a serving system for models with many components.\n\n"
    "4 Evaluation\n\n"
    "Figure 9 shows the top job sizes by resource requests, with about 35% being small jobs requesting fewer\n"
    "than eight GPUs. Quillserve cuts the queueing delay of these jobs by 2.1x compared with FIFO.\n"
)


def test_a_count_of_machines_after_than_is_a_size_not_a_baseline():
    claims = claims_by_text(SIZES)
    assert claims["35%"]["versus"] is None
    assert claims["2.1x"]["versus"] == "FIFO"
