"""Three shapes of evaluation prose, own-worded, each through the whole extraction: a lane width written with
its sign first ("x16 PCIe5.0") is a link, not a multiple; a slowdown measured against an ideal is a result
even though the clause names the ideal; "For <workload>, ..." sets the workload a result was measured on, not
its subject; and two specifications set side by side ("1600GBps, far more than the host link") make no
default baseline for the paper's own results."""

from __future__ import annotations

from pathlib import Path

from papers_extract import claims_in_order, file_claims


def test_a_lane_width_signed_first_is_no_multiple(papers_bound):
    found = claims_in_order(
        "We present Tallow, a memory compressor. The slowest link we try is still faster than the newest PCIe "
        "generation (x16 PCIe5.0, giving 64GBps) yet it suffers from more than 18% average slowdown relative "
        "to the ideal GPU.",
        papers_bound,
    )
    assert [(c["value"], c["unit"]) for c in found] == [(64.0, "GBps"), (18.0, "%")]


def test_a_slowdown_against_an_ideal_is_a_result(papers_bound):
    found = claims_in_order(
        "We present Tallow, a memory compressor. A model that needs 3.1% of its pages from the host sees a 4.5% "
        "slowdown relative to ideal. A perfect run has 100% efficiency.",
        papers_bound,
    )
    assert [c["value"] for c in found] == [3.1, 4.5]


def test_for_a_workload_names_where_a_result_was_measured_not_its_subject(papers_bound):
    found = claims_in_order(
        "We present Tallow, a memory compressor. For LeNet-7, the peak footprint drops from 3100MB to 2200MB, a "
        "29% saving compared with SwapDNN. In QuarrySched, stalls drop by 12%.",
        papers_bound,
    )
    by_value = {c["value"]: c for c in found if c["unit"] == "%"}
    assert (by_value[29.0]["subject"], by_value[29.0]["versus"]) == ("Tallow", "SwapDNN")
    assert by_value[12.0]["subject"] == "QuarrySched"  # "In X," still sets the system a clause is about


def test_specifications_side_by_side_make_no_default_baseline(tmp_path: Path):
    found = file_claims(
        tmp_path,
        "# Tallow: compressed memory for training\n\nWe present Tallow, a memory compressor for training.\n\n"
        "## 4 Evaluation\n\nDevice memory reaches 1600GBps, far more than the host link. Reads reach 1550GBps, "
        "far more than the host link. Tallow cuts the footprint of vision models by 1.4x.\n",
        "tallow.md",
    )
    ratio = next(c for c in found if c["unit"] == "x")
    assert (ratio["value"], ratio["subject"], ratio["versus"]) == (1.4, "Tallow", None)
    assert [c["versus"] for c in found if c["unit"] == "GBps"] == ["host link", "host link"]


def test_an_ideal_named_twice_is_no_default_baseline(tmp_path: Path):
    found = file_claims(
        tmp_path,
        "# Tallow: compressed memory for training\n\nWe present Tallow, a memory compressor for training.\n\n"
        "## 4 Evaluation\n\nTallow reaches 91% of the performance-optimal setting. Tallow stays at 88% of the "
        "performance-optimal setting on the large model. Tallow cuts the footprint of vision models by 1.4x.\n",
        "tallow.md",
    )
    assert [(c["value"], c["versus"]) for c in found] == [
        (91.0, "performance-optimal setting"),
        (88.0, "performance-optimal setting"),
        (1.4, None),
    ]
