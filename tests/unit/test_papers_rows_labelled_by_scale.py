"""A table row labelled by the scale it ran at (``1 Server (8 GPUs)``, ``4 machines``) states results like one
labelled ``8 GPUs``: its cells are claims where the table measures something."""

from __future__ import annotations

from papers_extract import extracted_claims


def test_rows_labelled_by_servers_state_results():
    claims = extracted_claims(
        "We present Quill, a collective library.\n\n"
        "Table 2: Link utilization of the collective algorithms.\n\n"
        "Scale | Ring | Tree | Quill\n"
        "1 Server (8 GPUs) | 61.5% | 55.0% | 83.2%\n"
        "4 Servers (32 GPUs) | 48.1% | 40.7% | 79.9%\n\n"
    )
    assert sorted(c["value"] for c in claims if c["unit"] == "%") == [40.7, 48.1, 55.0, 61.5, 79.9, 83.2]
