"""A plain text written from a PDF by a converter keeps the PDF's line breaks, words hyphenated across them
included ("com-" / "pared with"): the reader joins them as it joins a PDF's, so the comparison is read whole; a
compound the text writes with its hyphen elsewhere keeps it, and a range broken after its dash stays one. A
text file written for the test, read as a user's file is."""

from __future__ import annotations

from papers_extract import file_claims

TEXT = """Heron: Elastic Training

We present Heron, an elastic scheduler for deep learning jobs. Heron re-
duces the average JCT by 37% com-
pared with Tiresias and by 22%
over Pollux. With state-of-the-art
placement, Heron keeps its state-of-the-
art overhead under 2%, and it cuts cost by 15-
40% against Sia.
"""


def test_words_hyphenated_over_a_line_break_are_joined(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, TEXT, "heron.txt")}
    assert claims["37%"]["versus"] == "Tiresias"
    assert claims["22%"]["versus"] == "Pollux"
    ranged = [c for c in claims.values() if "40%" in c["text"]]
    assert ranged and ranged[0]["versus"] == "Sia"


def test_a_compound_keeps_its_hyphen(tmp_path):
    from assay.operators.papers._pdf_joins import join_hyphenated

    joined = join_hyphenated(TEXT)
    assert "Heron reduces" in joined and "compared\nwith" in joined  # (the break moves after the joined word)
    assert joined.count("state-of-the-art") == 2
    assert joined.count("\n") == TEXT.count("\n")  # the lines stay as many
