"""The paper's default baseline: a comparison of the paper's own system that names no baseline in its clause
takes the one the paper measures most of its results against; a level, a self-comparison, a result of
another system, an abstract's result and a paper without one clear default keep none. Every text is
written for the test in the shapes full papers take, and goes through the public path (``segment_text``
then ``extract_knowledge``)."""

from __future__ import annotations

import pytest
from papers_extract import claims_by_text

from assay.dsl import get_operator

EXTRACT = get_operator("extract_knowledge")

FRONT = (
    "Marmot: Placement-Aware Scheduling for Deep Learning Clusters\n\n"
    "Abstract\n\n"
    "We present Marmot, a scheduler that places jobs by their communication pattern. Marmot cuts the "
    "average job completion time by 2.1x compared with Tiresias. It also uses 15% less energy.\n\n"
    "1 Introduction\n\n"
    "Shared clusters run many distributed jobs at once.\n\n"
    "6 Evaluation\n\n"
    "We run a 64-GPU cluster for two weeks. Marmot shortens the makespan by 1.6x over Tiresias, and the "
    "tail completion time falls by 31% relative to Tiresias. Against Gandiva, Marmot is 1.3x faster.\n\n"
)


@pytest.fixture(scope="module")
def rules():
    return EXTRACT.bind(parse="none")


def claims(bound, text: str) -> dict[str, dict]:
    return claims_by_text(text, bound, "/paper.md")


# (rule, paragraph after FRONT, claim text, baseline)
CASES = [
    (
        "a comparison without a baseline in its clause is against the paper's default",
        "On the production trace, the average queueing delay drops by 44%.",
        "44%",
        "Tiresias",
    ),
    (
        "a multiple of the paper's own system is a comparison too",
        "With eight tenants, Marmot finishes the batch 2.7x sooner.",
        "2.7x",
        "Tiresias",
    ),
    (
        "a baseline named in the clause wins over the default",
        "With eight tenants, Marmot finishes the batch 1.9x sooner than Gandiva.",
        "1.9x",
        "Gandiva",
    ),
    (
        "a level is not a comparison: no baseline",
        "Marmot keeps GPU utilization at 83% throughout the run.",
        "83%",
        None,
    ),
    (
        "moving along a scale compares the system with itself",
        "Going from 16 to 64 GPUs, the throughput of Marmot improves by 3.4x.",
        "3.4x",
        None,
    ),
    (
        "with and without a feature compares the system with itself",
        "The placement search is 5.2x faster with memoised costs.",
        "5.2x",
        None,
    ),
]


@pytest.mark.parametrize(("rule", "body", "text", "baseline"), CASES, ids=[c[0] for c in CASES])
def test_default_baseline(rules, rule, body, text, baseline):
    got = claims(rules, FRONT + body + "\n")[text]
    assert got["versus"] == baseline, rule


def test_an_abstract_keeps_its_results_as_written(rules):
    # "uses 15% less energy": the abstract names no baseline for it, so none is made up there.
    got = claims(rules, FRONT)
    assert got["15%"]["versus"] is None
    assert got["1.6x"]["versus"] == "Tiresias"


def test_a_baseline_named_once_is_no_default(rules):
    text = (
        "Wren: Fast Checkpoints\n\n1 Introduction\n\nWren writes checkpoints to local NVMe.\n\n"
        "5 Evaluation\n\nWren saves a checkpoint 3.2x faster than CheckFreq. Restarts take 40% less time.\n"
    )
    assert claims(rules, text)["40%"]["versus"] is None


def test_two_baselines_named_as_often_give_no_default(rules):
    text = (
        "Wren: Fast Checkpoints\n\n1 Introduction\n\nWren writes checkpoints to local NVMe.\n\n"
        "5 Evaluation\n\nWren saves a checkpoint 3.2x faster than CheckFreq and 2.5x faster than Gemini. "
        "Its restore is 1.4x faster than CheckFreq, and 1.2x faster than Gemini. Restarts take 40% less time.\n"
    )
    assert claims(rules, text)["40%"]["versus"] is None


def test_the_sections_own_default_comes_first(rules):
    text = (
        "Wren: Fast Checkpoints\n\n1 Introduction\n\nWren writes checkpoints to local NVMe.\n\n"
        "5 Checkpoint speed\n\nWren saves a checkpoint 3.2x faster than CheckFreq. Its save is also 2.9x "
        "faster than CheckFreq on a larger model, and 1.1x faster than CheckFreq on a small one.\n\n"
        "6 Recovery\n\nWren restores 1.8x faster than Gemini. The restore also reads 2.2x faster than "
        "Gemini on NVMe. Restarts take 40% less time.\n"
    )
    assert claims(rules, text)["40%"]["versus"] == "Gemini"


def test_another_systems_result_takes_no_default(rules):
    got = claims(rules, FRONT + "Gandiva itself loses 12% of its throughput to migrations.\n")
    assert got["12%"]["versus"] is None


# A LaTeX or Markdown paper as its reader leaves it: unnumbered sub-headings (``\subsection``, a run-in
# ``\paragraph`` title) on lines of their own between paragraphs, all inside one "Evaluation" section.
SUBSECTIONS = (
    "Wren: Fast Checkpoints\n\n1 Introduction\n\nWren writes checkpoints to local NVMe.\n\n"
    "5 Evaluation\n\nWe answer three questions on a 32-GPU cluster.\n\n"
    "Save Path Microbenchmarks\n\n"
    "We compare the stock PyTorch writer against Wren on one node. Wren cuts the save stall by 88%, "
    "trims the write volume by 35% and lowers the peak host memory by 20%.\n\n"
    "Serving Restarts.\n\n"
    "Wren reloads a serving replica 1.9x faster than Gemini and warms its cache 1.4x faster than Gemini. "
    "The cold-start penalty falls by 17%.\n\n"
    "Training Jobs.\n\n"
    "Across the week-long trace, the lost GPU time falls by 41%.\n"
)


def test_a_sub_sections_own_default_comes_first(rules):
    # 17% is stated where Gemini is this sub-section's baseline, though the section names the PyTorch writer more.
    assert claims(rules, SUBSECTIONS)["17%"]["versus"] == "Gemini"


def test_a_baseline_of_one_other_sub_section_is_no_default(rules):
    # the PyTorch writer is the setup of the microbenchmarks only: the trace's result is measured against no one named.
    got = claims(rules, SUBSECTIONS)
    assert got["88%"]["versus"] == "stock PyTorch writer"
    assert got["41%"]["subject"] == "Wren"
    assert got["41%"]["versus"] is None


def test_a_change_along_a_scale_stated_after_the_number_takes_no_default(rules):
    # The queue grows as the cluster does: Marmot against itself at two sizes, not against Tiresias.
    got = claims(
        rules, FRONT + "The number of jobs Marmot packs per node rises by 1.7x as the cluster grows.\n"
    )
    assert got["1.7x"]["subject"] == "Marmot"
    assert got["1.7x"]["versus"] is None
    got = claims(
        rules, FRONT + "The number of jobs Marmot packs per node rises by 1.7x on the busiest day.\n"
    )
    assert got["1.7x"]["versus"] == "Tiresias"


def test_a_cited_finding_names_no_default(rules):
    # Two numbers of one sentence credited to other works ("... by up to 4x [6, 7]") share a baseline; it is
    # theirs, not the one the paper's own results are measured against.
    text = (
        "Kestrow: Saving Energy in Pipeline Training\n\nAbstract\n\n"
        "We present Kestrow, an energy planner for pipeline-parallel training.\n\n"
        "1 Introduction\n\nStragglers are common. Thermal throttling can cause a 10–50% slowdown [4, 5], and "
        "storage stalls can be longer than GPU compute by up to 4× [6, 7].\n\n"
        "6 Evaluation\n\nKestrow reduces the energy of GPT-3 training by 16% on A100 GPUs. "
        "Kestrow cuts the energy of T5 by 21% with no slowdown.\n"
    )
    c = claims_by_text(text, rules)
    assert c["4×"]["versus"] == "GPU compute"
    assert c["16%"]["versus"] is None
    assert c["21%"]["versus"] is None
