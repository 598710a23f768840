"""Papers, round 22 (issue 26), own-worded shapes from conference PDFs:

- a baseline whose name is written in lower case only inside a web address ("github.com/acme/hobbit-serve")
  is still a name: the sentences it opens are about it, not about the paper's system;
- a package an artifact appendix installs at a pinned version (``pip install foolib==0.1.5``) is a
  dependency, not the paper's own system;
- a device count broken over a line ("8x" / "A100 GPUs") and a link width ("16x PCIe v3") are no ratios;
- a range written with the tilde operator ("1.2x∼3.4x") is one claim with both ends;
- a variant named as code names it (``FA_Serial``) is one name, and "it" in a clause after another system's
  clause is that system, not the paper's.
"""

from __future__ import annotations

import importlib.util

import pytest
from papers_extract import claims_by_text, claims_in_order, proposed_ids

from assay.dsl import get_operator
from assay.ids import entity_id
from assay.operators.papers import _nlp

TRAINED = importlib.util.find_spec(_nlp.TRAINED_MODEL) is not None

_PAPER = """Kestrel: Co-scheduling Attention Phases on One GPU

Abstract
We present Kestrel, a GPU kernel that runs the two attention phases together. Kestrel is 1.4x faster
than FooAttn on long prompts.

1 Introduction
Kestrel builds on Hobbit, a batch scheduler, and we compare against Hobbit throughout.
Kestrel delivers 22% more throughput than Hobbit on the chat workload.
Hobbit reduces tail latency over Vesper by 8% on the internal workload.
Hobbit keeps stalls rare, and Kestrel is 1.3x faster than Hobbit at the median.

5 Evaluation
FooAttn is slower by up to 13% compared to BarAttn when prompts are long.

References
[1] Hobbit. https://github.com/acme/hobbit-serve/commit/50e59
[2] Hobbit artifact. https://github.com/acme/hobbit-serve.

A Artifact Appendix
$ pip install -r requirements.txt
$ pip install fooattn==0.1.5
"""


def test_a_baseline_written_in_lower_case_only_in_an_address_is_a_subject():
    claim = claims_by_text(_PAPER)["8%"]
    assert (claim["subject"], claim["versus"]) == ("Hobbit", "Vesper")


def test_a_pinned_dependency_is_not_the_papers_own_system():
    assert entity_id("system", "FooAttn") not in proposed_ids(_PAPER)
    assert entity_id("system", "Kestrel") in proposed_ids(_PAPER)
    claim = claims_by_text(_PAPER)["13%"]
    assert (claim["subject"], claim["versus"]) == ("FooAttn", "BarAttn")


def test_the_papers_own_claims_keep_their_subject():
    claims = claims_by_text(_PAPER)
    assert (claims["22%"]["subject"], claims["22%"]["versus"]) == ("Kestrel", "Hobbit")
    assert (claims["1.4x"]["subject"], claims["1.4x"]["versus"]) == ("Kestrel", "FooAttn")


def test_a_device_count_broken_over_a_line_is_no_claim():
    text = (
        "On a server with 8x\nA100 GPUs (each on a single 16x PCIe v3 switch), the computation of Foo slows "
        "by 14.3% while its all-reduce is 1.5x faster than Bar."
    )
    assert [c["text"] for c in claims_in_order(text)] == ["14.3%", "1.5x"]


def test_a_range_with_the_tilde_operator_is_one_claim():
    claims = claims_in_order("For instance, Foo shows 1.11x∼3.56x lower latency than Bar and 20%∼30% less memory.")
    assert [(c["value_low"], c["value_high"], c["unit"]) for c in claims] == [(1.11, 3.56, "x"), (20.0, 30.0, "%")]
    assert {c["versus"] for c in claims} == {"Bar"}


_VARIANTS = """We present Kestrel, an attention kernel. Kestrel is 1.4x faster than FA_Serial and FA_Fused.
We compare FA_Fused with FA_Serial and FI_Paged. FA_Fused is prone to stragglers, so it is slower by up to 13%
compared to FA_Serial.
"""


def test_a_variant_named_as_code_names_it_is_one_name():
    text = "We present Kestrel, an attention kernel. Kestrel is 1.4x faster than FA_Serial and FA_Fused. " \
        "FA_Fused is slower by up to 13% compared to FA_Serial."
    claim = claims_by_text(text)["13%"]
    assert (claim["subject"], claim["versus"]) == ("FA_Fused", "FA_Serial")


@pytest.fixture(scope="module")
def parsed():
    if not TRAINED:
        pytest.skip("the trained English pipeline is not installed")
    return get_operator("extract_knowledge").bind(parse="auto")


def test_it_after_another_systems_clause_is_that_system(parsed):
    claim = claims_by_text(_VARIANTS, parsed)["13%"]
    assert (claim["subject"], claim["versus"]) == ("FA_Fused", "FA_Serial")


def test_a_second_verb_after_but_keeps_the_clauses_subject():
    text = (
        "We present Kestrel, an attention kernel. Kestrel is 1.4x faster than FA_Serial and FI_Paged. "
        "FI_Paged improves throughput at short prompts, but degrades at long prompts by up to 40% due to recomputation."
    )
    assert claims_by_text(text)["40%"]["subject"] == "FI_Paged"


def test_respectively_without_baselines_goes_on_from_the_sentence_before():
    text = (
        "We present Wren, a device-driven runtime. Results show that Wren outperforms Alder and Birch by 1.66x and "
        "1.25x, respectively. In terms of communication latency alone, Wren reduces it by 3.68x and 1.77x, "
        "respectively.\n\nIn another study, Wren cuts the memory by 20% and 10%, respectively."
    )
    claims = claims_in_order(text)
    assert [(c["value"], c["versus"]) for c in claims[:4]] == [
        (1.66, "Alder"), (1.25, "Birch"), (3.68, "Alder"), (1.77, "Birch"),
    ]
    assert [c["versus"] for c in claims[4:]] == [None, None]  # a paragraph later: no list of its own to go on
