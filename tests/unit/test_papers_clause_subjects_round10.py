"""Round 10 of the subject rules (issue 26), each from what a clause says, not from names. Own-worded sentences
about invented systems, each through the whole extraction (``extract_knowledge``), with the rules alone and with
the trained parse where installed (``papers_bound``)."""

from __future__ import annotations

import pytest
from papers_extract import claims_in_order


def test_a_component_that_causes_the_change_is_the_system_with_it(papers_bound):
    # "<component> results in a N% increase": the number is the paper's system with that component (D2), and
    # it is compared with no other system
    found = claims_in_order(
        "We present Marlin, a checkpointing library. Marlin cuts recovery time by 35% over Kestrel. "
        "Marlin saves 2x more states than Kestrel. Marlin is 1.5x faster than Kestrel on large models. "
        "Runs with the Yarrow-7B model show that eager flushing results in a 0.4% increase in step time "
        "and a 1.2% reduction in stall time.",
        papers_bound,
    )
    last = found[-2:]
    assert [c["value"] for c in last] == [0.4, 1.2]
    assert all(c["subject"] == "Marlin with eager flushing" for c in last)
    assert all(c["versus"] is None for c in last)


def test_a_measure_or_pronoun_causing_a_change_is_no_component(papers_bound):
    found = claims_in_order(
        "We present Marlin, a checkpointing library. Our tests show that this results in a 3% increase in "
        "step time.",
        papers_bound,
    )
    assert [c["subject"] for c in found] == ["Marlin"]


def test_the_papers_system_opening_the_clause_keeps_both_coordinated_numbers(papers_bound):
    # a participle's object before the comma (the workload) is no rival of the clause's own subject
    found = claims_in_order(
        "We present Marlin, a checkpointing library. Restoring Quokka-13B from a crash on eight A100 GPUs, "
        "Marlin takes 10% more memory but 30% less time.",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found] == [(10.0, "Marlin"), (30.0, "Marlin")]


def test_the_passive_subject_of_a_change_is_a_measure_not_the_subject(papers_bound):
    # "TTR is increased by N%": what changed is a quantity; the result is still the paper's system's
    found = claims_in_order(
        "We present Marlin, a checkpointing library. Even though Marlin shortens recovery by up to 40%, "
        "for some jobs TTR is increased by 5% (Figure 3).",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found] == [(40.0, "Marlin"), (5.0, "Marlin")]


def test_a_share_of_a_whole_belongs_to_the_part_its_clause_names(papers_bound):
    # D1: "N% of <whole>" after a clause whose subject is the part: the part, not the paper's system
    found = claims_in_order(
        "We present Marlin, a checkpointing library. Marlin cuts recovery time by 35% over Kestrel. "
        "Even on the newest clusters with fast links, checkpoint stalls remain as high as 38% of "
        "training step time.",
        papers_bound,
    )
    assert [(c["value"], c["subject"], c["versus"]) for c in found][-1] == (38.0, "checkpoint stalls", None)


# The two whole-path tests above guard the outcome; short own-worded texts do not name a rival the rules take
# for a system, so the parse is never asked there. The rules themselves are tested where they decide.


def _doubted(text: str) -> list:
    from assay.operators.papers._claims import Claim
    from assay.operators.papers._mentions import Mention, MentionIndex
    from assay.operators.papers._subjects import doubts

    def mention(name: str) -> Mention:
        at = text.index(name)
        return Mention(at, at + len(name), name, "system", name, 0.9, "gazetteer")

    claims = [
        Claim(
            text.index(n),
            text.index(n) + len(n),
            n,
            "%",
            value=float(n[:-1]),
            subject="Marlin",
            sentence=(0, len(text)),
            subject_source="proposed",
            rival_before=True,
        )
        for n in ("10%", "30%")
    ]
    return doubts(text, claims, MentionIndex([mention("Kestrel"), mention("Marlin")]), ["Marlin"])


def test_the_papers_system_opening_the_numbers_clause_is_not_put_to_the_parse():
    # a rival named in a participle's clause before the comma leaves the subject in no doubt ...
    assert (
        _doubted(
            "Restoring Kestrel from a crash on four GPUs, Marlin takes 10% more memory but 30% less time."
        )
        == []
    )
    # ... one that opens the clause itself does
    assert _doubted("Kestrel, unlike Marlin, takes 10% more memory but 30% less time.")


def test_the_passive_subject_of_a_verb_of_change_is_never_the_parses_subject():
    from assay.operators.papers import _nlp
    from assay.operators.papers._parse import subject_from_parse

    if not _nlp.trained_model_available():
        pytest.skip(f"{_nlp.TRAINED_MODEL} is not installed")
    parse = _nlp.build_parser()
    text = "On two of the jobs, Kestrel is increased by 5%."
    kestrel = (text.index("Kestrel"), text.index("Kestrel") + 7, "Kestrel", True)
    assert subject_from_parse(parse(text), text.index("5%"), [kestrel], "Marlin") is None
    text = "Kestrel is 5% faster than Marlin."
    assert subject_from_parse(parse(text), text.index("5%"), [(0, 7, "Kestrel", True)], "Marlin") == "Kestrel"


# --- baselines: a Chinese comparison whose baseline holds a Latin name with digits and a kind word, one closing
# its sentence after the numbers, and "over" a stretch of time


def test_a_chinese_baseline_with_digits_and_a_kind_word_is_kept_whole(papers_bound):
    found = claims_in_order(
        "我们提出了FooQ，一种新的量化方法。平均而言，FooQ在A100 GPU上的矩阵乘法比BF16 cuDNN基准提高了1.8倍。"
        "在小batch的推理中，FooQ的性能比BF16基准高出1.2到2.4倍。",
        papers_bound,
    )
    assert [c["versus"] for c in found] == ["BF16 cuDNN基准", "BF16基准"]


def test_a_chinese_comparison_closing_its_sentence_holds_for_the_numbers_before_it(papers_bound):
    found = claims_in_order(
        "我们提出了FooQ，一种新的量化方法。我们在两个GPU上评估了FooQ，实现了1.3倍的延迟减少和2.5倍的吞吐量增加，"
        "与BF16基线相比。",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found] == [(1.3, "BF16基线"), (2.5, "BF16基线")]


def test_a_chinese_comparison_that_opens_the_next_statement_is_not_the_earlier_numbers():
    from assay.operators.papers._baselines import _VERSUS_ZH
    from assay.operators.papers._phrase_shape import closes_sentence

    text = "吞吐量提升了2倍，与X基线相比，延迟也更低。"
    m = next(_VERSUS_ZH.finditer(text))
    assert not closes_sentence(text, text.index("倍") + 1, m, len(text))
    text = "吞吐量提升了2倍，与X基线相比。"
    m = next(_VERSUS_ZH.finditer(text))
    assert closes_sentence(text, text.index("倍") + 1, m, len(text))


def test_over_a_stretch_of_time_names_no_baseline(papers_bound):
    found = claims_in_order(
        "We present Quill, a GPU sharing service. Our study shows that the average cache hit rate is often "
        "below 30% because access patterns drift over time and between epochs.",
        papers_bound,
    )
    assert [c["versus"] for c in found] == [None]
    from assay.operators.papers._phrase_shape import SPAN_OVER

    assert SPAN_OVER.match("over time and between epochs")
    assert SPAN_OVER.match("over the course of a day")
    assert not SPAN_OVER.match("over Kestrel")
    assert not SPAN_OVER.match("over running each job alone")


# --- a technique that causes the change and is set against another choice is the phrase alone (D2)


def test_a_cause_set_against_another_choice_is_the_phrase_alone(papers_bound):
    found = claims_in_order(
        "We present Marlin, a checkpointing library. Marlin cuts recovery time by 35% over Kestrel. "
        "Marlin saves 2x more states than Kestrel. Our study finds that the stall-aware flush interval "
        "(Interval Opt. in Figure 2) can lead to 18% lower write traffic than the stock setting.",
        papers_bound,
    )
    last = found[-1]
    assert (last["value"], last["subject"], last["versus"]) == (18.0, "stall-aware flush interval", "stock setting")


def test_a_cause_phrase_drops_its_aside_and_modal_and_refuses_a_pronoun():
    from assay.operators.papers._clause_subjects import cause_phrase

    text = "In short, the tuned flush interval (Opt. in Figure 2) can lead to 18% lower write traffic."
    assert cause_phrase(text, 0, text.index("18%")) == "tuned flush interval"
    text = "In short, this can lead to 18% lower write traffic."
    assert cause_phrase(text, 0, text.index("18%")) is None
