"""An error level set against another's level ("errors of about 1-2%, compared to near-zero errors for the
exact kernels") compares two levels, each of its own system: "near-zero errors" names no baseline."""

from __future__ import annotations

from papers_extract import extracted_claims


def test_an_error_level_is_no_baseline():
    claims = extracted_claims(
        "We present Quill, an approximate matrix-multiply kernel.\n\n"
        "Quill exhibits mean relative errors of approximately 1.5%, compared to near-zero errors for the exact "
        "kernels, while running 2.1x faster than FooBLAS.\n"
    )
    got = [(c["value"], c["versus"]) for c in claims if c["unit"] in ("x", "%")]
    assert got == [(1.5, None), (2.1, "FooBLAS")]
