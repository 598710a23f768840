"""A PDF table read one cell a line: a row's label on its own line (in capitals, as small capitals come out), or
with the row's first figure, then one figure a line. Each figure is the labelled row's system where the paper
names that system elsewhere, not the paper's own system or a name in the prose before the table. Through the
public papers path (``claims_in_order``)."""

from __future__ import annotations

from papers_extract import claims_in_order

_PAPER = (
    "FernCache: Reusing Keys Across Documents\n\n"
    "Abstract. We present FernCache, which reuses the cached keys of retrieved documents. FernCache answers "
    "4.1% more questions than SlateCache and 12% more than ReplayKV.\n\n"
    "5 Evaluation\n"
    "We compare FernCache with SlateCache and ReplayKV on three question sets; Table 2 lists the accuracy.\n"
    "QA-A QA-B QA-C\n"
    "SLATECACHE\n31.5%\n40.2%\n38.8%\n"
    "REPLAYKV\n27.9%\n35.0%\n33.1%\n"
    "FERNCACHE 1\n35.6%\n44.3%\n41.0%\n"
    "Table 2: Accuracy on three question sets.\n"
)


def _subjects() -> dict[float, str]:
    return {c["value"]: c["subject"] for c in claims_in_order(_PAPER) if c["unit"] == "%"}


def test_a_figure_alone_on_its_line_is_the_labelled_rows_system():
    subjects = _subjects()
    assert subjects[31.5] == "SlateCache" and subjects[38.8] == "SlateCache"
    assert subjects[27.9] == "ReplayKV" and subjects[33.1] == "ReplayKV"


def test_the_papers_own_row_keeps_its_name_as_the_body_writes_it():
    assert _subjects()[44.3] == "FernCache"


def test_prose_figures_keep_their_sentences_subject():
    assert _subjects()[4.1] == "FernCache"
