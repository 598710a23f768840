"""A paper that names its work nowhere and calls it "our approach" throughout: its results are "our approach"'s,
not those of a library it is compared with. "Compared to FooDNN, our approach achieves ..." ends an opening
phrase with FooDNN (no apposition "FooDNN, our library for ..."), and "A, B, our approach and C" is a list. Texts
written for the test in the shapes of a kernel paper's evaluation, read through ``segment_text`` then
``extract_knowledge``."""

from __future__ import annotations

import pytest
from papers_extract import claims_by_text, proposed_ids

from assay.dsl import get_operator
from assay.ids import entity_id


def _kernel_paper() -> str:
    body = [
        "Fast Grouped Convolutions on Embedded GPUs\n\n",
        "Abstract\n\n",
        "Grouped convolutions are memory bound on small GPUs. We design a tiled register reuse method that keeps "
        "each input row in registers. Experimental results show that our approach is 2.4x faster than FooDNN.\n\n",
        "1 Introduction\n\n",
        "FooDNN is a vendor library with several convolution algorithms. Our approach loads each row once. ",
        "Our approach also picks the tile size at run time. Our approach needs no tuning per layer.\n\n",
        "5 Evaluation\n\n",
        "We compare our approach against FooDNN, FASTALG and BarFlow. ",
        "Table 2 lists speedups of SLOWALG, FASTALG, our approach and BarFlow over the direct kernel. ",
        "Compared to FooDNN, our approach achieves an average speedup of 1.7x on the small board. ",
        "Compared to BarFlow, our approach reduces the inference time by 18% on average. ",
        "Overall, our approach improves FASTALG by 1.3x on both boards. ",
        "With INT8, our approach gives 3.1x higher throughput than BarFlow. ",
        "The gain of our approach shrinks for large batches, where FooDNN has enough blocks to fill the GPU. ",
        "In short, our approach suits small batches.\n",
    ]
    return "".join(body)


@pytest.fixture(scope="module")
def rules():
    return get_operator("extract_knowledge").bind(parse="none")



def test_a_library_before_our_approach_is_no_own_system(rules):
    # Said too rarely to name the work, "our approach" leaves the subject open, never the library before it.
    text = (
        "Abstract\n\nWe speed up grouped convolutions on small GPUs.\n\n5 Evaluation\n\n"
        "Table 2 lists speedups of SLOWALG, FASTALG, our approach and BarFlow over the direct kernel. "
        "Compared to FooDNN, our approach achieves an average speedup of 1.7x on the small board.\n"
    )
    proposed = proposed_ids(text, rules)
    assert entity_id("system", "FooDNN") not in proposed
    assert entity_id("system", "FASTALG") not in proposed
    c = claims_by_text(text, rules)["1.7x"]
    assert c["subject"] not in ("FooDNN", "FASTALG")
    assert c["versus"] == "FooDNN"


def test_an_unnamed_work_is_our_approach(rules):
    c = claims_by_text(_kernel_paper(), rules)
    for text, versus in (("2.4x", "FooDNN"), ("1.7x", "FooDNN"), ("18%", "BarFlow"), ("1.3x", "FASTALG")):
        assert c[text]["subject"] == "our approach", text
        assert c[text]["versus"] == versus, text


def test_an_apposition_still_names_the_own_system(rules):
    # "X, our library for ..." is an apposition: X is the paper's own system.
    text = (
        "Abstract\n\n"
        "We release Kestrow, our library for grouped convolutions on small GPUs.\n\n"
        "5 Evaluation\n\n"
        "Compared to FooDNN, Kestrow achieves 1.9x higher throughput on the small board.\n"
    )
    assert entity_id("system", "Kestrow") in proposed_ids(text, rules)
    assert claims_by_text(text, rules)["1.9x"]["subject"] == "Kestrow"


def test_a_few_mentions_of_our_approach_leave_the_technique_phrase(rules):
    # Said twice only, "our approach" does not outweigh the technique the paper proposes by words.
    text = (
        "Abstract\n\n"
        "We propose elastic stage merging, which joins idle pipeline stages. Our approach is simple.\n\n"
        "5 Evaluation\n\n"
        "With elastic stage merging, the iteration time falls by 21% compared to FooPipe. "
        "Our approach needs no retraining.\n"
    )
    assert claims_by_text(text, rules)["21%"]["subject"] == "elastic stage merging"
