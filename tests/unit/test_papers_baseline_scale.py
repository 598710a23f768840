"""A result that comes from turning a setting up or down ("throughput per GPU rises by 1.4x with a larger
micro-batch") compares the system with itself: it takes no default baseline, while a plain comparison in
the same paper does."""

from __future__ import annotations

from papers_extract import claims_by_text

FRONT = (
    "Marmot: Placement-Aware Scheduling for Deep Learning Clusters\n\n"
    "Abstract\n\n"
    "We present Marmot, a scheduler that places jobs by their communication pattern.\n\n"
    "6 Evaluation\n\n"
    "We run a 64-GPU cluster for two weeks. Marmot shortens the makespan by 1.6x over Tiresias, and the "
    "tail completion time falls by 31% relative to Tiresias.\n\n"
)


def _claims(text: str) -> dict[str, dict]:
    return claims_by_text(FRONT + text, None, "/paper.md")


def test_a_setting_turned_up_takes_no_default_baseline():
    c = _claims(
        "On the language models, throughput per GPU rises by up to 1.4x with a larger micro-batch, and the "
        "queueing delay drops by 22%.\n"
    )
    assert c["1.4x"]["versus"] is None
    assert c["22%"]["versus"] == "Tiresias"
