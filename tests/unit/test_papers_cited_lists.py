"""A coordination of baselines each with its citation, some with a short parenthesis ("outperforms A [64], B [4],
C Relay (Nimble) [71], D [21] (dynamic shape) and E [11] by up to 6.9x, ..."), pairs its names with the numbers
in order, as the same list without citations does. Through the public papers path."""

from __future__ import annotations

from papers_extract import claims_in_order

FRONT = (
    "BarDisc: Compiling Dynamic Shapes\n\nAbstract\n\n"
    "We present BarDisc, a compiler for dynamic-shape workloads.\n\n5 Evaluation\n\n"
)


def _versus(sentence: str) -> list[tuple[str, str | None]]:
    return [(c["text"], c["versus"]) for c in claims_in_order(FRONT + sentence + "\n")]


def test_a_cited_list_pairs_in_order():
    got = _versus("BarDisc outperforms PyTorch [64], TorchScript [4] and TensorRT [11] by up to 6.9x, 6.2x and 4.1x.")
    assert got == [("6.9x", "PyTorch"), ("6.2x", "TorchScript"), ("4.1x", "TensorRT")]


def test_names_with_a_parenthesis_and_three_words_pair_too():
    got = _versus(
        "BarDisc outperforms PyTorch [64], TVM Relay VM (Nimble) [71], Inductor [21] (dynamic shape) and "
        "TensorRT [11] by up to 6.9x, 2.0x, 7.9x and 4.1x."
    )
    assert got == [("6.9x", "PyTorch"), ("2.0x", "TVM Relay VM (Nimble)"), ("7.9x", "Inductor (dynamic shape)"),
                   ("4.1x", "TensorRT")]
