"""Results tables of a two-column PDF made in the test, set in the two ways the cell reader used to miss,
read through the public path (``read_paper``, then ``segment_text`` and ``extract_knowledge``):

- **a header set apart from its grid**: the header's rows stand further above the first row of values
  than a row's height (the rule under a header with space around it), or each header cell sits a little
  off its neighbours' baseline, so every cell is a text row of its own. Read before, the header came out
  one cell a line above the grid: a group's title ('Speedup over Sync') named the baseline of no column;
- **cells PDFium glues**: two ratio cells set closer than a word's space come out as one token
  (``1.94x3.29x``), and cells closer than an em as one run (``1.8x 1.2x``): one cell, one column, so the
  column's system was lost; in a table set in the body's font the glued run was no number at all.
"""

from __future__ import annotations

import pytest
from papers_extract import extracted_claims
from test_papers_pdf import make_paper
from test_papers_pdf_tables import LEFT, RIGHT, _table

from assay.dsl import get_operator
from assay.operators.papers._pdf import pdf_to_text

READ = get_operator("read_paper")

#: Group titles over three columns each; the header's two rows stand 20 pt above the first row of values.
APART_COLUMNS = [(318, "Model"), (360, "Write"), (390, "Load"), (420, "Overall"), (460, "Write"),
                 (490, "Load"), (520, "Overall")]  # fmt: skip
APART_ROWS = [
    ["GPT-2", "1.81x", "1.21x", "1.51x", "1.31x", "1.11x", "1.26x"],
    ["BERT", "2.21x", "1.41x", "1.71x", "1.61x", "1.06x", "1.36x"],
]


def _grouped_table(top: float, titles: list[tuple[float, str]], stagger: float, gap: float) -> list[tuple]:
    """A caption, group titles, the sub-headers (each ``stagger`` lower than the one left of it) and the
    rows, the first row ``gap`` below the lowest sub-header."""
    out: list[tuple] = [(318, top, 9, "Table 2: Speedups of Quill on each model.")]
    y = top - 12
    out += [(x, y, 7, text) for x, text in titles]
    y -= 9
    out += [(x, y - stagger * k, 7, text) for k, (x, text) in enumerate(APART_COLUMNS)]
    y -= stagger * (len(APART_COLUMNS) - 1) + gap
    for row in APART_ROWS:
        out += [(x, y, 7, text) for (x, _), text in zip(APART_COLUMNS, row, strict=True)]
        y -= 10
    return out


TITLES = [(372, "Speedup over Sync"), (462, "Speedup over CheckFreq")]


def _page(tables: list[tuple]) -> list[tuple]:
    page: list[tuple] = [(150, 740, 16, "Quill: Checkpoints Without the Stall")]
    page += [(54, 700 - 12 * n, 10, line) for n, line in enumerate(LEFT)]
    page += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
    page += [(54, 520 - 12 * n, 10, line) for n, line in enumerate(LEFT[:4])]
    return page + tables


def _read(tmp_path_factory, name: str, page: list[tuple]) -> tuple[str, dict[float, dict]]:
    path = tmp_path_factory.mktemp("pdf") / name
    path.write_bytes(make_paper([page], title="Quill"))
    records, failures = READ.run([{"source_uri": str(path)}])
    assert not failures, failures
    text = records[0]["text"]
    found = extracted_claims(text, source_uri=str(path))
    return text, {c["value"]: c for c in found if c["unit"] in ("x", "%")}


@pytest.fixture(scope="module", params=["apart", "one_a_line"])
def header_apart(request, tmp_path_factory) -> tuple[str, dict[float, dict]]:
    stagger, gap = (0, 20) if request.param == "apart" else (5, 12)
    table = _grouped_table(600, TITLES, stagger, gap)
    return _read(tmp_path_factory, f"{request.param}.pdf", _page(table))


def test_a_header_set_apart_is_read_as_the_grids_header(header_apart):
    text, _ = header_apart
    assert "Model | Speedup over Sync / Write | Speedup over Sync / Load" in text
    assert "\nWrite\nLoad\n" not in text  # not one cell a line above the grid


def test_a_group_title_of_a_header_set_apart_names_its_columns_baseline(header_apart):
    _, claims = header_apart
    for value in (1.81, 1.21, 1.51, 2.21, 1.41, 1.71):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Quill", "Sync")
    for value in (1.31, 1.11, 1.26, 1.61, 1.06, 1.36):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Quill", "CheckFreq")


def test_a_note_above_a_gap_stays_out_of_the_header():
    # a line of prose in the table's font, further above the grid than a row: no header of the grid
    table = [(318, 600, 9, "Table 2: Speedups of Quill on each model.")]
    table += [(318, 588, 7, "Runs share eight nodes and one data order.")]
    table += [
        (x, 570 - 10 * r, 7, t)
        for r, row in enumerate(APART_ROWS)
        for (x, _), t in zip(APART_COLUMNS, row, strict=True)
    ]
    text, _ = pdf_to_text(make_paper([_page(table)], title="Quill"))
    assert "Runs share eight nodes and one data order.\nGPT-2 | 1.81x" in text


#: Columns of systems; the first at 1.00x is the baseline. Two ratio cells set too close come glued.
GLUED_TABLE = [
    (54, 9, "Table 3: Restart time of each policy, normalized."),
    (54, 7, "Model", 100, "Sync", 121, "Lazy", 160, "Quill"),
    (54, 7, "OPT-13B", 100, "1.00x", 117.5, "1.94x", 160, "3.29x"),
    (54, 7, "Llama-7B", 100, "1.00x", 117.5, "1.87x", 160, "3.07x"),
]
#: Cells closer than an em: one run of PDFium's (``1.00x 2.41x``), cut at the space.
CLOSE_TABLE = [
    (318, 9, "Table 4: Load time of each policy, normalized."),
    (318, 7, "Model", 360, "Sync", 382, "Lazy", 404, "Quill"),
    (318, 7, "OPT-13B", 360, "1.00x", 382, "2.41x", 404, "4.13x"),
    (318, 7, "Llama-7B", 360, "1.00x", 382, "2.37x", 404, "4.09x"),
]


@pytest.fixture(scope="module")
def glued(tmp_path_factory) -> tuple[str, dict[float, dict]]:
    page = _page(_table(GLUED_TABLE, 440) + _table(CLOSE_TABLE, 440))
    return _read(tmp_path_factory, "glued.pdf", page)


def test_the_test_pdfs_cells_come_glued_from_pdfium():
    # the shapes themselves, as PDFium gives them: no space between two ratio cells, one space between
    # cells closer than an em
    import pypdfium2 as pdfium

    for table, run in ((GLUED_TABLE, "1.00x1.94x"), (CLOSE_TABLE, "1.00x 2.41x 4.13x")):
        document = pdfium.PdfDocument(make_paper([_page(_table(table, 440))]))
        try:
            assert run in document[0].get_textpage().get_text_range()
        finally:
            document.close()


def test_glued_ratio_cells_are_cut_into_their_columns(glued):
    text, claims = glued
    assert "OPT-13B | 1.00x | 1.94x | 3.29x" in text
    for value in (1.94, 1.87):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Lazy", "Sync")
    for value in (3.29, 3.07):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Quill", "Sync")


def test_cells_closer_than_an_em_are_cut_into_their_columns(glued):
    text, claims = glued
    assert "OPT-13B | 1.00x | 2.41x | 4.13x" in text
    for value in (2.41, 2.37):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Lazy", "Sync")
    for value in (4.13, 4.09):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Quill", "Sync")


def test_glued_ratios_in_the_bodys_font_are_each_a_claim(tmp_path_factory):
    # a table set in the body's font stays in the text's flow; its glued run still gives both values
    table = [(318, 600, 9, "Table 5: Speedup of Quill over Sync per model.")]
    table += [(318, 585, 10, "GPT-2"), (380, 585, 10, "2.94x"), (403.5, 585, 10, "3.39x")]
    _, claims = _read(tmp_path_factory, "body.pdf", _page(table))
    assert {2.94, 3.39} <= set(claims)


#: A table set in the body's font under its caption: columns of systems, the first at 1.00x the baseline.
BODY_FONT_TABLE = [
    (318, 9, "Table 6: Recovery time of each policy, normalized."),
    (318, 10, "Model", 372, "Sync", 420, "Lazy", 468, "Quill"),
    (318, 10, "OPT-13B", 372, "1.00x", 420, "1.72x", 468, "2.83x"),
    (318, 10, "Llama-7B", 372, "1.00x", 420, "1.64x", 468, "2.71x"),
]


@pytest.fixture(scope="module")
def body_font(tmp_path_factory) -> tuple[str, dict[float, dict]]:
    return _read(tmp_path_factory, "body_font.pdf", _page(_table(BODY_FONT_TABLE, 600)))


def test_a_table_in_the_bodys_font_is_read_as_a_grid(body_font):
    # read before one cell a line in the text's flow: every cell the paper's own system's
    text, claims = body_font
    assert "Model | Sync | Lazy | Quill\nOPT-13B | 1.00x | 1.72x | 2.83x" in text
    for value in (1.72, 1.64):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Lazy", "Sync")
    for value in (2.83, 2.71):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Quill", "Sync")


def test_prose_under_a_tables_caption_stays_prose(body_font):
    # the body's lines after the table (and the caption's own second column's prose) are no grid
    text, _ = body_font
    assert "We present Quill, a checkpoint service for large\ntraining jobs." in text
