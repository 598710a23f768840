"""An inventory, as data, of how papers name their own work and of how a clause makes something else the subject
of a result (issue 26, "papers as published"): each row a small paper written for this test (a title, an
abstract, a result sentence or two, some with an introduction or evaluation paragraph) and the subject each of
its result claims should get. Every row runs the whole path (``segment_text`` then ``extract_knowledge``, the
rules alone) and a subject counts as right as the real-paper scorer counts it (case, spaces and punctuation
dropped, one name containing the other, any listed alias).

The shapes: a title "Foo: ..."; "We present/propose/introduce/design Foo, a ..."; "which we call Foo", "dubbed
Foo", "named Foo"; "Foo (ours)"; "our system, Foo,"; an acronym defined in parentheses; a technique with no
product name (the subject is the technique's phrase, as the measuring sets' readers write it); a title naming a
product and an abstract a code name; a measurement study (the system measured); release posts; Chinese
"我们提出了Foo" / "本文提出Foo"; and clauses whose subject is not the paper's system: related work, a baseline
named as the clause's subject, a component of the paper's system, a while-clause.

``python tests/unit/test_papers_own_system_inventory.py`` prints the share of claims right and the misses.
"""

from __future__ import annotations

import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from papers_extract import claims_in_order, file_claims  # noqa: E402

from assay.dsl import get_operator  # noqa: E402


@dataclass(frozen=True)
class Row:
    """One small paper: ``expected`` maps the text of a claim's number (as written: "2.3x", "41%") to its
    subject, or to a tuple of acceptable spellings (a system named two ways)."""

    key: str
    text: str
    expected: dict[str, str | tuple[str, ...]]
    #: Why a row still fails, when it does: the shape the rules do not read yet.
    open: str = field(default="", compare=False)
    #: A file name when the row is read as a user's file of that format (``read_paper`` first: a Markdown
    #: post's front matter gives its title); none: the text goes straight to ``segment_text``.
    file: str = ""


ROWS: list[Row] = [
    # -- a title "Foo: ..." ---------------------------------------------------------------------------------
    Row(
        "title_colon",
        "Quarrel: Fast Checkpointing for Large Model Training\n\n"
        "Abstract\n\n"
        "Checkpoints stall training for minutes on large clusters. We describe an asynchronous design that\n"
        "copies model state to host memory while the next step runs.\n\n"
        "5 Evaluation\n\n"
        "Quarrel cuts checkpoint stalls by 4.2x compared to a synchronous writer.\n",
        {"4.2x": "Quarrel"},
    ),
    Row(
        "title_colon_no_we",
        "Lindwurm: Memory-Balanced Pipeline Partitioning\n\n"
        "Abstract\n\n"
        "Lindwurm partitions a model into pipeline stages by their peak memory rather than their compute time.\n"
        "On eight-stage pipelines, throughput improves by 37% over a compute-balanced partition.\n",
        {"37%": "Lindwurm"},
    ),
    Row(
        "title_name_for_domain",
        "Garnet-MoE for Speech: Cutting the Cost of Training Acoustic Models\n\n"
        "Automatic speech recognition (referred to as ASR in the rest of this post) models keep growing, and\n"
        "training ASR models takes weeks. We show that sparsely gated experts carry over to ASR models: a\n"
        "quality-equivalent ASR model trains at 3.6x lower cost than a dense one.\n",
        {"3.6x": "Garnet-MoE"},
    ),
    Row(
        "title_platform_with_feature",
        "Skylark with 2-phase Sparsify: 6x Less Traffic and 2.8x Faster Training\n\n"
        "Skylark is a library for training large models on commodity clusters. Sending every update over a\n"
        "slow network stalls it, so 2-phase Sparsify sends only the largest updates after a dense warm-up.\n"
        "On a 40 Gbit Ethernet cluster, 2-phase Sparsify is 2.8x faster than dense updates in Skylark, and\n"
        "each step moves 6x fewer bytes through the Skylark communication layer.\n",
        {"2.8x": "2-phase Sparsify", "6x": "2-phase Sparsify"},
    ),
    Row(
        "title_system_with_feature_named_once",
        "Brisket with Learned Prefetching: Faster Input Pipelines\n\n"
        "Brisket is a data loader that prefetches training samples by a learned model of access order.\n"
        "Brisket raises GPU utilisation by 31% over a round-robin loader on image training jobs.\n",
        {"31%": "Brisket"},
    ),
    Row(
        "title_release",
        "Skiff 2.0: Faster Fine-Tuning on One Node\n\n"
        "Today we release the second major version of our fine-tuning library. Fine-tuning a 7B model now takes\n"
        "2.7x less time than with the previous release, and peak memory drops by 44%.\n",
        {"2.7x": "Skiff", "44%": "Skiff"},
    ),
    Row(
        "title_phrase_body_names",
        "Scaling Without Stalls: Overlapping Collectives in Data-Parallel Training\n\n"
        "Abstract\n\n"
        "This paper presents Trellis, a runtime that splits gradients into buckets and starts each reduction as\n"
        "soon as its bucket is ready. Trellis raises the scaling efficiency on 256 GPUs to 91%.\n",
        {"91%": "Trellis"},
    ),
    # -- "we present / propose / introduce / design Foo, a ..." ------------------------------------------------
    Row(
        "we_propose_apposition",
        "Scheduling Deep Learning Jobs under Deadlines\n\n"
        "Abstract\n\n"
        "We propose Vessel, a deadline-aware cluster scheduler that admits a job only when its deadline can be\n"
        "met. On a trace from a production cluster, Vessel reduces deadline misses by 41% relative to a\n"
        "first-in-first-out queue.\n",
        {"41%": "Vessel"},
    ),
    Row(
        "we_introduce_eval_no_name",
        "Elastic Sharding for Recommendation Models\n\n"
        "Abstract\n\n"
        "We introduce Marlowe, a system that moves embedding shards between servers as their load shifts.\n\n"
        "6 Evaluation\n\n"
        "On 64 GPUs, the average iteration time falls by 28% relative to static sharding, and tail latency\n"
        "drops by 35%.\n",
        {"28%": "Marlowe", "35%": "Marlowe"},
    ),
    Row(
        "we_design_and_implement",
        "A Fault-Tolerant Runtime for Spot Training\n\n"
        "Abstract\n\n"
        "We design and implement Corvid, a training runtime that survives the loss of spot instances by\n"
        "keeping redundant pipeline stages. Corvid finishes training 1.9x sooner than restarting from\n"
        "checkpoints.\n",
        {"1.9x": "Corvid"},
    ),
    Row(
        "this_paper_presents",
        "Communication Compression for Pipeline Parallelism\n\n"
        "Abstract\n\n"
        "This paper presents Sable, a library that compresses the activations sent between pipeline stages.\n"
        "Sable lowers inter-stage traffic by 68% with no loss in final accuracy.\n",
        {"68%": "Sable"},
    ),
    Row(
        "in_this_work_we_develop",
        "Placing Experts Across Racks\n\n"
        "In this work, we develop Wren, an expert placement planner for mixture-of-experts training. Across\n"
        "four models, Wren shortens the all-to-all phase by 2.2x.\n",
        {"2.2x": "Wren"},
    ),
    # -- "which we call Foo", "dubbed Foo", "named Foo", "we call ... Foo" --------------------------------------
    Row(
        "which_we_call",
        "Bubble-Free Pipelines\n\n"
        "Abstract\n\n"
        "We propose a new pipeline schedule, which we call Zigzag, that interleaves forward and backward\n"
        "passes of two micro-batch streams. The schedule lowers the bubble time by 52%.\n",
        {"52%": "Zigzag"},
    ),
    Row(
        "dubbed",
        "Serving Long Prompts Quickly\n\n"
        "Abstract\n\n"
        "We build a serving framework, dubbed Pelican, that splits long prompts across devices. Time to first\n"
        "token falls by 3.4x on prompts of 32K tokens.\n",
        {"3.4x": "Pelican"},
    ),
    Row(
        "named",
        "Adaptive Batching for Inference\n\n"
        "Abstract\n\n"
        "We present a runtime named Osprey that sizes each batch by the queue it sees. Osprey serves 2.5x more\n"
        "requests per second than static batching at the same latency target.\n",
        {"2.5x": "Osprey"},
    ),
    Row(
        "we_call_our_system",
        "Reusing Activations Across Fine-Tuning Runs\n\n"
        "Abstract\n\n"
        "Many fine-tuning runs share their frozen layers. We cache those layers' activations once and reuse them\n"
        "across runs; we call our system Harrow. Harrow trains eight adapters 4.1x faster than training them one\n"
        "after another.\n",
        {"4.1x": "Harrow"},
    ),
    # -- "Foo (ours)", "our system, Foo," --------------------------------------------------------------------
    Row(
        "ours_in_parentheses",
        "Fast Attention on Older Accelerators\n\n"
        "5 Evaluation\n\n"
        "We compare three kernels. Brisk (ours) reaches 1.7x the throughput of the vendor kernel on sequences of\n"
        "4K tokens. Brisk (ours) also keeps memory flat as sequences grow.\n",
        {"1.7x": "Brisk"},
    ),
    Row(
        "our_system_comma",
        "Overlapping Offload and Compute\n\n"
        "Abstract\n\n"
        "Offloading optimizer state to the host frees accelerator memory but stalls each step. Our system,\n"
        "Kestrel, overlaps the transfers with the backward pass. Kestrel shortens each step by 33% compared to\n"
        "blocking offload.\n",
        {"33%": "Kestrel"},
    ),
    # -- an acronym defined in parentheses ----------------------------------------------------------------------
    Row(
        "acronym_proposed",
        "Training Through Preemptions\n\n"
        "Abstract\n\n"
        "We propose Elastic Pipeline Training (EPT), which re-plans pipeline stages whenever devices join or\n"
        "leave. EPT improves goodput by 2.3x on a preemptible cluster.\n",
        {"2.3x": ("EPT", "Elastic Pipeline Training")},
    ),
    Row(
        "acronym_later_results_unnamed",
        "Sparse Gradient Exchange\n\n"
        "Abstract\n\n"
        "We present Adaptive Sparse Communication (ASC), a gradient exchange scheme that sends only the\n"
        "entries that changed most. ASC reduces network traffic by 76%. End-to-end training is 1.6x faster on\n"
        "a 10 Gbps network.\n",
        {"76%": ("ASC", "Adaptive Sparse Communication"), "1.6x": ("ASC", "Adaptive Sparse Communication")},
    ),
    # -- a technique with no product name -------------------------------------------------------------------------
    Row(
        "technique_subject_of_clause",
        "Balancing Frozen Encoders in Multimodal Pipelines\n\n"
        "Abstract\n\n"
        "Multimodal models train some encoders frozen, which existing partitioners ignore. We propose frozen-aware\n"
        "stage partitioning, which weighs each layer by the work its backward pass really does. Frozen-aware\n"
        "stage partitioning improves iteration time by up to 2.1x.\n",
        {"2.1x": "frozen-aware stage partitioning"},
    ),
    Row(
        "technique_policy_no_name",
        "Packing Jobs onto Shared GPUs\n\n"
        "Abstract\n\n"
        "We propose a packing policy that places two jobs on one GPU only when their memory peaks do not\n"
        "overlap. The packing policy raises cluster utilisation by 19%.\n",
        {"19%": "packing policy"},
    ),
    Row(
        "technique_named_by_verb_we_propose",
        "Grouped Matrix Multiplication for Experts\n\n"
        "## Background\n\n"
        "Each expert of a mixture-of-experts layer multiplies a small matrix, and launching one kernel per expert\n"
        "leaves the device idle. Grouped GEMM launches one kernel for all experts.\n\n"
        "## Results\n\n"
        "With 16 experts, Grouped GEMM shortens the expert layer by 24%.\n",
        {"24%": "Grouped GEMM"},
    ),
    # -- the title names a product, the abstract a code name ------------------------------------------------------
    Row(
        "title_product_abstract_codename",
        "Cumulus: Training at Spot Prices\n\n"
        "Abstract\n\n"
        "Cloud providers sell spare capacity cheaply but reclaim it without warning. We build Nimbus, the\n"
        "scheduler inside Cumulus, which bids for spare capacity across regions. Training cost falls by 58%\n"
        "compared to on-demand instances.\n",
        {"58%": ("Cumulus", "Nimbus")},
    ),
    # -- a measurement study: the subject is what is measured -----------------------------------------------------
    Row(
        "measurement_of_named_system",
        "How Well Does Horovod Scale on Commodity Networks?\n\n"
        "Abstract\n\n"
        "We measure Horovod on clusters joined by 25 Gbps Ethernet. Horovod reaches a scaling efficiency of 68%\n"
        "on 128 GPUs, and Horovod spends 45% of each step waiting on the network.\n",
        {"68%": "Horovod", "45%": "Horovod"},
    ),
    Row(
        "measurement_of_a_market",
        "The Price of Preemptible Capacity\n\n"
        "Abstract\n\n"
        "We study how spot instances are priced by three cloud providers over two years. Spot instances are on\n"
        "average 71% cheaper than on-demand instances.\n",
        {"71%": "spot instances"},
    ),
    Row(
        "measurement_prices_of",
        "An Empirical Look at Preemptible Cloud GPUs\n\n"
        "Abstract\n\n"
        "We analyse the prices of preemptible instances offered by three cloud providers over eighteen months,\n"
        "and how often they are reclaimed. Preemptible instances cost 64% less than on-demand instances on\n"
        "average, and preemptible instances with eight GPUs are reclaimed 2.5x more often than those with one.\n",
        {"64%": "preemptible instances", "2.5x": "preemptible instances"},
    ),
    Row(
        "measurement_no_statement",
        "Renting Preemptible Accelerators\n\n"
        "Public clouds rent spare accelerators at a discount and take them back at short notice. Over a year\n"
        "of hourly price records, spot nodes cost 70% less than on-demand nodes. On average, spot\n"
        "nodes with eight GPUs are reclaimed 3.1x more often than single-GPU ones.\n",
        {"70%": "spot nodes", "3.1x": "spot nodes"},
    ),
    Row(
        "measurement_providers_compared",
        "Training on Rented Accelerators: A Cost Study\n\n"
        "Abstract\n\n"
        "We measure the cost of training three models on rented accelerators from Kestrel Cloud and Ptarmigan\n"
        "Cloud. Kestrel Cloud is 23% cheaper than Ptarmigan Cloud for the largest model, while Ptarmigan Cloud's\n"
        "egress fees add 9% to the bill.\n",
        {"23%": "Kestrel Cloud", "9%": "Ptarmigan Cloud"},
    ),
    # -- blog posts and READMEs ----------------------------------------------------------------------------------
    Row(
        "blog_introducing",
        "Introducing Gannet-Infer: Low-Latency Serving for Large Models\n\n"
        "Gannet-Infer is our new inference engine for models that do not fit on one GPU. It fuses attention\n"
        "kernels and pipelines tensor-parallel communication. Latency drops by 2.8x for a 70B model on 8 GPUs.\n",
        {"2.8x": "Gannet-Infer"},
    ),
    Row(
        "blog_front_matter",
        '---\ntitle: "Puffin v2: Cheaper Long-Context Training"\ndate: 2024-05-02\n---\n\n'
        "Long contexts make attention the bottleneck of training. The new Puffin release shards the sequence\n"
        "across devices. Training with 256K-token contexts is now 3.3x faster than with the first release.\n",
        {"3.3x": "Puffin"},
        file="post.md",
    ),
    Row(
        "blog_excited_to_announce",
        "Faster Mixture-of-Experts Inference\n\n"
        "Today we are excited to announce Shoveler, an inference runtime for sparse models. Shoveler places\n"
        "experts by how often tokens are routed to them. Serving cost falls by 47% on a 1.3T-parameter model.\n",
        {"47%": "Shoveler"},
    ),
    Row(
        "blog_this_post_introduces",
        "Long Sequences on Small Clusters\n\n"
        "This post introduces Ulmus-Offload, which moves attention activations to host memory between layers.\n"
        "On 16 GPUs, Ulmus-Offload trains sequences 8x longer than without offloading.\n",
        {"8x": "Ulmus-Offload"},
    ),
    Row(
        "the_proposed_system",
        "Adaptive Precision for Gradient Exchange\n\n"
        "Abstract\n\n"
        "Gradient exchange dominates data-parallel training on slow networks. The proposed system, Quetzal,\n"
        "picks a precision for each bucket from its variance. Training time falls by 36% on a 10 Gbps network.\n",
        {"36%": "Quetzal"},
    ),
    Row(
        "we_open_source",
        "Efficient Inference for Speech Models\n\n"
        "We open-source Tanuki, a set of fused kernels for streaming speech models. On a single GPU, the\n"
        "real-time factor improves by 2.6x over the unfused kernels.\n",
        {"2.6x": "Tanuki"},
    ),
    Row(
        "zh_kaiyuan",
        "语音模型的高效推理\n\n"
        "我们开源了Tanuki，一组面向流式语音模型的融合算子。在单张GPU上，实时率比未融合的算子提升了2.6倍。\n",
        {"2.6倍": "Tanuki"},
    ),
    Row(
        "heading_introducing_in_body",
        "# Release notes, spring\n\n"
        "This season brings several changes to our training stack.\n\n"
        "## Introducing Pochard\n\n"
        "Pochard is a new checkpoint format that writes shards in parallel. Saving a 70B model is 5.5x faster.\n",
        {"5.5x": "Pochard"},
        file="notes.md",
    ),
    Row(
        "readme_bare_title",
        "# Tern\n\n"
        "Tern is a library for quantised training of language models.\n\n"
        "## Performance\n\n"
        "Tern trains a 13B model with 39% less memory than full-precision training.\n",
        {"39%": "Tern"},
    ),
    # -- Chinese --------------------------------------------------------------------------------------------------
    Row(
        "zh_women_tichu",
        "面向大模型训练的通信调度\n\n"
        "摘要\n\n"
        "我们提出了Ferrox，一种感知拓扑的集合通信调度器。Ferrox将训练吞吐提升了1.8倍。\n",
        {"1.8倍": "Ferrox"},
    ),
    Row(
        "zh_benwen_tichu",
        "流水线并行中的显存均衡\n\n"
        "本文提出Lumen，一个按显存峰值划分流水线阶段的框架。在8个阶段的流水线上，Lumen的训练吞吐比按计算量划分的方法高27%。\n",
        {"27%": "Lumen"},
    ),
    Row(
        "zh_mingwei",
        "弹性训练\n\n我们设计了一种名为Kite的弹性训练系统。实验表明，Kite在节点故障时的恢复时间缩短了64%。\n",
        {"64%": "Kite"},
    ),
    Row(
        "zh_new_version_against_earlier",
        "# Vireo4Sci：用AI系统加速科学发现\n\n"
        "我们启动了一个名为Vireo4Sci的新计划，帮助科学家训练更大的模型。\n\n"
        "## 系统层面\n\n"
        "我们发布了支持长序列的Tanager框架。我们的新版本使模型的最长序列长度比之前的Tanager版本增加了11倍。\n",
        {"11倍": "Tanager"},
    ),
    Row(
        "new_release_against_earlier",
        "Vireo4Sci: AI Systems for Science\n\n"
        "We launch Vireo4Sci, an initiative to help scientists train larger models.\n\n"
        "## Long sequences\n\n"
        "Our new version supports sequences 7x longer than the previous Tanager release on the same GPUs.\n",
        {"7x": "Tanager"},
    ),
    Row(
        "zh_new_version_subject",
        "# Vireo4Sci：用AI系统加速科学发现\n\n"
        "我们启动了一个名为Vireo4Sci的新计划，帮助科学家训练更大的模型。\n\n"
        "在系统层面，我们发布了最新的Tanager框架。这个新Tanager框架在序列长度上也超过了现有方法（最多9.5倍）。\n",
        {"9.5倍": "Tanager"},
    ),
    # -- clauses whose subject is not the paper's own system -----------------------------------------------------
    Row(
        "related_work_other_system",
        "Heron: Elastic Data Loading\n\n"
        "Abstract\n\n"
        "We present Heron, a data loader that scales its workers with the input pipeline's demand.\n\n"
        "2 Related Work\n\n"
        "Bittern caches decoded samples in host memory and achieves 2.4x over a plain loader. Heron reduces\n"
        "input stalls by 61% relative to Bittern.\n",
        {"2.4x": "Bittern", "61%": "Heron"},
    ),
    Row(
        "baseline_as_clause_subject",
        "Marten: Fair Sharing of Inference Accelerators\n\n"
        "Abstract\n\n"
        "We present Marten, a scheduler for shared inference accelerators.\n\n"
        "5 Evaluation\n\n"
        "We compare Marten against Stoat on two traces; Stoat serves requests in arrival order.\n"
        "The baseline Stoat reaches only 60% utilisation on the bursty trace. Marten keeps utilisation at 88%.\n",
        {"60%": "Stoat", "88%": "Marten"},
    ),
    Row(
        "determiner_names_other_system",
        "Ibis: Memory-Aware Placement\n\n"
        "Abstract\n\n"
        "We present Ibis, a placement planner for large models.\n\n"
        "5 Evaluation\n\n"
        "We compare Ibis against Plover, the planner most clusters run today. Plover places layers greedily.\n"
        "The existing Plover planner leaves 35% of device memory unused on our models, while Ibis places\n"
        "layers so that every device is at least 90% full.\n",
        {"35%": "Plover", "90%": "Ibis"},
    ),
    Row(
        "component_of_own_system",
        "Avocet: Automatic Parallelism Planning\n\n"
        "Abstract\n\n"
        "We present Avocet, a planner that picks a parallel layout for each layer.\n\n"
        "5 Evaluation\n\n"
        "Avocet's cost model cuts the planner's search time by 10x, and the layouts Avocet picks run 1.4x faster\n"
        "than expert-written ones.\n",
        {"10x": ("Avocet cost model", "Avocet"), "1.4x": "Avocet"},
    ),
    Row(
        "named_component_inside_own_system",
        "Alder: A Training Stack for Small Clusters\n\n"
        "Abstract\n\n"
        "We present Alder, a training stack for clusters of a few nodes. Alder includes Birch, a memory planner\n"
        "that reuses activation buffers. Birch reduces peak memory by 45%, and Alder trains 1.3x faster than a\n"
        "stock data-parallel trainer.\n",
        {"45%": "Birch", "1.3x": "Alder"},
    ),
    Row(
        "compared_with_clause_opener",
        "Dunlin: Cheaper Gradient Checkpointing\n\n"
        "Abstract\n\n"
        "We present Dunlin, which picks the activations to keep by their recompute cost. Compared with Shrike,\n"
        "Dunlin is 1.25x faster at the same memory budget.\n",
        {"1.25x": "Dunlin"},
    ),
    Row(
        "while_clause_other_system",
        "Grebe: Serving Adapters in Bulk\n\n"
        "Abstract\n\n"
        "We present Grebe, a server for many fine-tuned adapters, and compare it against Scoter, the server\n"
        "most deployments run. Scoter loads one adapter at a time.\n"
        "While Scoter stalls at 45% accelerator utilisation, Grebe sustains 83% on the same trace.\n",
        {"45%": "Scoter", "83%": "Grebe"},
    ),
    Row(
        "unlike_other_our_system",
        "Avoiding Stragglers in Synchronous Training\n\n"
        "Abstract\n\n"
        "Unlike Merlin, which waits for every worker, our system, Godwit, drops the slowest gradients of each\n"
        "step. Godwit trains 1.5x faster than Merlin on a cluster with stragglers.\n",
        {"1.5x": "Godwit"},
    ),
    Row(
        "in_other_system_topic",
        "Tattler: Predictable Inference Latency\n\n"
        "Abstract\n\n"
        "We present Tattler, which reserves accelerator time for latency-critical requests, and compare it\n"
        "against Plover-Serve.\n\n"
        "2 Motivation\n\n"
        "In Plover-Serve, the tail latency exceeds its target by 40% under bursts. Tattler keeps it within 5%\n"
        "of the target.\n",
        {"40%": "Plover-Serve", "5%": "Tattler"},
    ),
    Row(
        "other_system_possessive_result",
        "Curlew: Low-Overhead Profiling\n\n"
        "Abstract\n\n"
        "We present Curlew, a sampling profiler for training jobs.\n\n"
        "5 Evaluation\n\n"
        "We compare Curlew with Ruff, an instrumenting tracer.\n"
        "Ruff's tracer slows training by 18%, whereas Curlew's overhead stays under 2%.\n",
        {"18%": "Ruff", "2%": "Curlew"},
    ),
    Row(
        "related_work_known_systems",
        "Snipe: Memory-Frugal Pipelines\n\n"
        "Abstract\n\n"
        "We present Snipe, a pipeline trainer that recomputes only the cheapest activations.\n\n"
        "2 Related Work\n\n"
        "GPipe splits each batch into micro-batches. PipeDream achieves 1.9x over GPipe by keeping several weight\n"
        "versions, at the cost of memory. Snipe needs 42% less memory than PipeDream.\n",
        {"1.9x": "PipeDream", "42%": "Snipe"},
    ),
    Row(
        "possessive_metric_of_other_system",
        "Wigeon: Steady Throughput Under Failures\n\n"
        "Abstract\n\n"
        "We present Wigeon, which replaces failed pipeline stages without a restart.\n\n"
        "5 Evaluation\n\n"
        "When a node fails, Megatron-LM's throughput drops by 40% until the job restarts, while Wigeon loses\n"
        "under 6%.\n",
        {"40%": "Megatron-LM", "6%": "Wigeon"},
    ),
    Row(
        "default_allocator_other_system",
        "Teal: Defragmenting Accelerator Memory\n\n"
        "Abstract\n\n"
        "We present Teal, an allocator that compacts device memory during idle phases of a training step.\n\n"
        "2 Motivation\n\n"
        "The default PyTorch allocator wastes 31% of device memory to fragmentation on our workloads. Teal\n"
        "cuts the waste to 4%.\n",
        {"31%": "PyTorch", "4%": "Teal"},
    ),
    Row(
        "bare_modifier_before_other_system",
        "Shrike: Kernel Fusion for Pipeline Stages\n\n"
        "Abstract\n\n"
        "We present Shrike, which fuses the kernels at each pipeline stage's boundary, and compare it against\n"
        "Megatron-LM on 64 GPUs.\n\n"
        "5 Evaluation\n\n"
        "Vanilla Megatron-LM reaches only 38% of peak on this model. Shrike raises it to 52%.\n",
        {"38%": "Megatron-LM", "52%": "Shrike"},
    ),
    Row(
        "we_find_other_system",
        "Crake: Memory-Light Serving\n\n"
        "Abstract\n\n"
        "We present Crake, a serving runtime that pages attention state to host memory, and compare it against\n"
        "Pipit-Serve.\n\n"
        "5 Evaluation\n\n"
        "We find Pipit-Serve uses 40% more device memory at the same batch size, while Crake serves 1.6x more\n"
        "requests per second.\n",
        {"40%": "Pipit-Serve", "1.6x": "Crake"},
    ),
    Row(
        "quoted_name_with_digit",
        "Mira-2: Second-Generation Pipeline Planning\n\n"
        "Abstract\n\n"
        "We present Mira-2, the successor of our earlier planner, which now models communication per link.\n"
        "Mira-2 finds plans that run 22% faster than those of its predecessor.\n",
        {"22%": "Mira-2"},
    ),
    Row(
        "appositive_is_a_system",
        "Scaling Embedding Tables\n\n"
        "Abstract\n\n"
        "Fulmar is a sharding system for embedding tables that places hot rows on every device. On a\n"
        "click-through model, Fulmar raises training throughput by 2.9x.\n",
        {"2.9x": "Fulmar"},
    ),
    Row(
        "our_approach_results",
        "Petrel: Compressing Optimizer State\n\n"
        "Abstract\n\n"
        "We present Petrel, which stores optimizer moments in eight bits.\n\n"
        "5 Evaluation\n\n"
        "Our approach reduces optimizer memory by 75%, and our system loses under 0.3% accuracy.\n",
        {"75%": "Petrel", "0.3%": "Petrel"},
    ),
    Row(
        "nested_name_gazetteer_prefix",
        "DeepSpeed-Kite: Sparse Attention at Scale\n\n"
        "Abstract\n\n"
        "We introduce DeepSpeed-Kite, an extension of DeepSpeed for block-sparse attention. DeepSpeed-Kite\n"
        "trains on 64K-token sequences 6.1x faster than dense attention.\n",
        {"6.1x": "DeepSpeed-Kite"},
    ),
]


def _key(s: str) -> str:
    return re.sub(r"[\W_]+", "", s.lower())


def _right(subject: str | None, expected: str | tuple[str, ...]) -> bool:
    """The scorer's reading: case, spaces and punctuation dropped, one name containing the other."""
    if not subject:
        return False
    got = _key(subject)
    names = (expected,) if isinstance(expected, str) else expected
    return any(got and (got in _key(n) or _key(n) in got) for n in names)


def subjects(row: Row, bound=None) -> dict[str, str | None]:
    """The subject of each expected claim of ``row`` (None when the claim was not found)."""
    if row.file:
        with tempfile.TemporaryDirectory() as folder:
            claims = file_claims(Path(folder), row.text, row.file)
    else:
        claims = claims_in_order(row.text, bound)
    out: dict[str, str | None] = {}
    for number in row.expected:
        found = [c for c in claims if c["text"] == number or c["text"].endswith(number)]
        out[number] = found[0]["subject"] if found else None
    return out


def misses(row: Row, bound=None) -> list[str]:
    got = subjects(row, bound)
    return [
        f"{row.key} {number}: got {got[number]!r}, expected {expected!r}"
        for number, expected in row.expected.items()
        if not _right(got[number], expected)
    ]


@pytest.fixture(scope="module")
def rules():
    return get_operator("extract_knowledge").bind(parse="none")


def test_the_inventory_covers_the_shapes():
    assert len(ROWS) >= 40
    assert len({r.key for r in ROWS}) == len(ROWS)


@pytest.mark.parametrize(
    "row",
    [pytest.param(r, marks=pytest.mark.xfail(strict=True, reason=r.open)) if r.open else r for r in ROWS],
    ids=[r.key for r in ROWS],
)
def test_each_paper_gets_its_subjects(row, rules):
    assert misses(row, rules) == []


def main() -> int:
    bound = get_operator("extract_knowledge").bind(parse="none")
    total = right = 0
    for row in ROWS:
        wrong = misses(row, bound)
        total += len(row.expected)
        right += len(row.expected) - len(wrong)
        for line in wrong:
            print(line)
    papers = sum(1 for row in ROWS if not misses(row, bound))
    print(f"claims right {right}/{total}; papers all right {papers}/{len(ROWS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
