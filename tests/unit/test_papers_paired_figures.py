"""Two systems' figures of one unit side by side, then the ratio between them (issue 26): "LarkBERT takes 67
minutes, whereas Quill takes 44 minutes, reducing training time by 30%" sets Quill against LarkBERT, whichever
system the paper presents; figures of different units are no pair. Own-worded sentences through
``extract_knowledge``."""

from __future__ import annotations

import pytest
from papers_extract import claims_by_text

_OWN = "We present Quill, a training recipe for large batches. "


@pytest.mark.parametrize(
    ("sentence", "number"),
    [
        ("Acme LarkBERT takes 67 minutes on 1024 GPUs, whereas Quill takes 44 minutes, reducing training time by 30%.",
         "30%"),
        ("On 256 GPUs, Acme LarkBERT takes 236 minutes while Quill takes 144 minutes (39% faster).", "39%"),
        ("Acme LarkBERT needs 410 GB and Quill needs 205 GB, a 2x reduction.", "2x"),
    ],
)
def test_the_second_figures_system_against_the_first(sentence: str, number: str) -> None:
    claim = claims_by_text(_OWN + sentence)[number]
    assert (claim["subject"], claim["versus"]) == ("Quill", "Acme LarkBERT")


def test_figures_of_different_units_are_no_pair() -> None:
    claim = claims_by_text(_OWN + "Lark takes 67 minutes while Quill uses 40 GB, and Quill is 30% cheaper.")["30%"]
    assert claim["versus"] != "Lark"


def test_a_ratio_whose_clause_names_another_system_is_not_the_pairs() -> None:
    claim = claims_by_text(_OWN + "Lark takes 67 minutes while Quill takes 44 minutes, and Heron is 30% cheaper.")["30%"]
    assert (claim["subject"], claim["versus"]) != ("Quill", "Lark")
