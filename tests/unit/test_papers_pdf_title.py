"""A PDF's title through ``read_paper``: the information dictionary's where the first page prints it, else the
title the first page sets in its largest type near the top, all of its lines (a title wraps), a word
hyphenated at a line's end rejoined; a figure's labels set larger still are no title."""

from __future__ import annotations

from test_papers_pdf import make_paper

from assay.dsl import get_operator

BODY = [(72, 560 - 12 * i, 10, line) for i, line in enumerate([
    "We present Quill, a checkpoint service for large training",
    "jobs. Quill writes shards from every rank in parallel and",
    "keeps the stall of a step short on every model we tried.",
])]
TITLE = [
    (120, 700, 17, "Quill: Checkpointing Large Training Jobs without"),
    (150, 680, 17, "Stalling Their Steps on Every Rank"),
    (250, 650, 11, "Ann Author and Bo Writer"),
]
#: A figure at the page's top whose labels are set in a larger type than the title.
LABELS = [(400, 760, 26, "K80"), (450, 760, 26, "P100"), (500, 760, 26, "V100")]


def _title(tmp_path, lines, info_title=""):
    path = tmp_path / "paper.pdf"
    path.write_bytes(make_paper([lines], title=info_title))
    records, failures = get_operator("read_paper").run([{"source_uri": str(path)}])
    assert not failures
    return records[0]["title"]


def test_a_title_wrapped_over_two_lines_is_read_whole_where_the_pdf_names_none(tmp_path):
    assert _title(tmp_path, TITLE + BODY) == (
        "Quill: Checkpointing Large Training Jobs without Stalling Their Steps on Every Rank"
    )


def test_an_information_title_the_page_never_prints_gives_way_to_the_pages(tmp_path):
    got = _title(tmp_path, TITLE + BODY, info_title="Microsoft Word - draft7.docx")
    assert got.startswith("Quill: Checkpointing Large Training Jobs")


def test_the_information_title_stays_where_the_page_prints_it(tmp_path):
    assert _title(tmp_path, TITLE + BODY, info_title="Quill: Checkpointing Large Training Jobs") == (
        "Quill: Checkpointing Large Training Jobs"
    )


def test_a_figures_labels_set_larger_than_the_title_are_no_title(tmp_path):
    assert _title(tmp_path, LABELS + TITLE + BODY).startswith("Quill: Checkpointing")
