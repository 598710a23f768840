"""A table row labelled by the scale it ran at (``1 Server (8 GPUs)``, ``4 machines``) states results like one
labelled ``8 GPUs``: its cells are claims where the table measures something. A caption that states what its
abbreviated headers stand for (``FC represents FooCCL``, ``TA/TE correspond to TACO and TECO``) names the
system of each column, also one headed by the abbreviation and the operation (``FC-AG``)."""

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


def test_a_caption_s_stated_abbreviations_name_the_columns():
    claims = extracted_claims(
        "We present Quill, a collective library.\n\n"
        "Table 1: Link utilization of existing algorithms. FC represents FooCCL, TA/TE correspond to TACO and "
        "TECO, and AR/AG refer to the AllReduce and AllGather operators.\n\n"
        "Topo Scale | FC-AG | FC-AR | TA-AG | TE-AG\n"
        "1 Server (8 GPUs) | 76.7% | 71.0% | 51.6% | 52.7%\n"
        "2 Servers (16 GPUs) | 67.5% | 61.8% | 34.3% | 33.2%\n\n"
    )
    got = {c["value"]: c["subject"] for c in claims if c["unit"] == "%"}
    assert got == {76.7: "FooCCL", 71.0: "FooCCL", 51.6: "TACO", 52.7: "TECO", 67.5: "FooCCL", 61.8: "FooCCL",
                   34.3: "TACO", 33.2: "TECO"}
