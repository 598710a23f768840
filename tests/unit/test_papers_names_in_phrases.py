"""A baseline is a system's name, not the phrase that holds it: a knowledge graph needs the name as its entity.

When the comparison phrase describes a system the paper names ("Marlin's greedy approach", "the Marlin
baseline", "a baseline that uses Marlin's packing") and holds exactly one known name, the baseline is that
name. In Chinese, a description glossed in English and followed by the name ("先前方法 (prior method)
Marlin [7]") is the name; a modifier ending in 的 describes the noun after it ("使用默认配置的 PyTorch" is
PyTorch); a description followed by examples in brackets ("非流水方法（例如 A 和 B）") is the description,
since its examples are not the baseline itself. A phrase holding two names is left for the list rules.
"""

from __future__ import annotations

from papers_extract import claims_by_text

_INTRO = (
    "Quill: Packing Jobs on Shared GPU Clusters\n\n"
    "We present Quill, a scheduler that packs training jobs onto shared GPUs. "
    "Quill finishes jobs 1.5x sooner than Marlin on the large trace and uses 20% fewer GPU hours than "
    "Marlin on the small one.\n\n"
)


def test_a_possessive_description_is_its_owner():
    c = claims_by_text(
        _INTRO + "Quill's packing improves average JCT by 2.3x compared to Marlin's greedy approach.\n"
    )
    assert c["2.3x"]["versus"] == "Marlin"


def test_a_baseline_that_uses_a_system_is_that_system():
    c = claims_by_text(
        _INTRO + "On the busy trace, Quill cuts the makespan by 1.6x compared to a baseline that uses "
        "Marlin's ad-hoc packing.\n"
    )
    assert c["1.6x"]["versus"] == "Marlin"


def test_a_name_followed_by_a_descriptor_is_the_name():
    c = claims_by_text(
        _INTRO + "Quill lowers the tail latency by 41% over the Marlin baseline implementation.\n"
    )
    assert c["41%"]["versus"] == "Marlin"


def test_a_name_of_its_own_with_a_word_after_it_is_kept_when_no_descriptor():
    # "BarPipe trainer" names no generic descriptor from the list: the phrase is kept as written
    c = claims_by_text(_INTRO + "Quill is 1.8x faster than the Marlin trainer on eight GPUs.\n")
    assert c["1.8x"]["versus"] == "Marlin trainer"


_ZH_INTRO = "本文提出了一种新颖方法 Quill，用于在共享 GPU 集群上打包训练任务。Quill 比 Marlin 快 1.5 倍。\n\n"


def test_chinese_description_glossed_then_named_is_the_name():
    c = claims_by_text(
        _ZH_INTRO
        + "相较于先前打包方法 (prior packing method) Marlin [7]，Quill 实现了最高 1.7 倍的加速比。\n"
    )
    assert c["1.7 倍"]["versus"] == "Marlin"


def test_chinese_modifier_ending_in_de_describes_the_name_after_it():
    c = claims_by_text(_ZH_INTRO + "相较于使用默认配置的 PyTorch，Quill 实现了最高 1.3 倍的加速比。\n")
    assert c["1.3 倍"]["versus"] == "PyTorch"


def test_chinese_description_with_examples_is_the_description():
    c = claims_by_text(
        _ZH_INTRO + "评估表明，相较于非打包方法 (non-packing method)（例如 Marlin [3] 和 Osprey [4]），"
        "Quill 实现了最高 1.9x 的加速比。\n"
    )
    assert c["1.9x"]["versus"] == "非打包方法"


def test_chinese_phrase_with_two_names_takes_the_one_the_paper_states_the_result_with():
    c = [
        x
        for x in claims_by_text(
            "本文提出了一种新颖方法 Quill，用于打包训练任务。总体而言，相较于 Osprey，它在推理中可实现高达 1.8 倍的加速比。\n\n"
            "评估表明，相较于 Marlin 和 Osprey 基线 (baseline)，Quill 实现了 1.8 倍的推理加速和 1.2 倍的训练加速。\n"
        ).values()
    ]
    later = [x for x in c if x["text"] == "1.8 倍" and x["start"] > 60]
    assert later and later[0]["versus"] == "Osprey"


def test_english_phrase_with_two_names_takes_the_one_the_paper_states_the_result_with():
    text = (
        _INTRO + "Quill also serves requests with 35% lower latency than Osprey.\n\n"
        "In the serving experiment, Quill shows 35% lower latency than the Marlin and Osprey baselines.\n"
    )
    from papers_extract import claims_in_order

    c = [x for x in claims_in_order(text) if x["text"].startswith("35%")]
    assert [x["versus"] for x in c] == ["Osprey", "Osprey"]


def test_chinese_gloss_words_are_no_names_even_when_the_text_repeats_them():
    # "Packing" recurs as a capitalised word, so "packing" in the gloss is marked too: still the one name
    c = claims_by_text(
        "本文提出了一种新颖方法 Quill (Quick Packing)，用于打包训练任务。Packing 是关键：Quill 的 Packing "
        "策略让 GPU 保持忙碌。Quill 比 Marlin 快 1.5 倍。\n\n"
        "相较于先前打包方法 (prior packing method) Marlin [7]，Quill 实现了最高 1.7 倍的加速比。\n"
    )
    assert c["1.7 倍"]["versus"] == "Marlin"
