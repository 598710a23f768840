"""A percentage that names a point of a distribution (``the 99%-tile latency``, ``99%ile``) or the load a run is
set at (``at 70% load``, ``a 30% network load``) is no result; the result stated beside it still is."""

from __future__ import annotations

from papers_extract import extracted_claims


def _values(text: str) -> list[tuple[float, str]]:
    return [(c["value"], c["unit"]) for c in extracted_claims(text) if c["unit"] in ("x", "%")]


def test_a_percentile_name_is_no_claim():
    got = _values(
        "We present Quill, an in-network aggregator.\n\n"
        "Quill reduces the 99%-tile completion time of short flows by up to 3.2x, and their 95%ile by 2.1x.\n"
    )
    assert got == [(3.2, "x"), (2.1, "x")]


def test_an_offered_load_is_a_setting():
    got = _values(
        "We present Quill, an in-network aggregator.\n\n"
        "We start from a 30% network load of background flows and raise the job arrivals up to 70% load. "
        "At that load, Quill cuts the mean completion time by 41% over the ring baseline.\n"
    )
    assert got == [(41.0, "%")]
