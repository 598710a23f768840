"""Tables of a PDF made in the test, read through the public path (``read_paper``, then ``segment_text`` and
``extract_knowledge``), in three shapes the body-font table reader got wrong:

- **a table before a section's heading**: a page's asides wait for the next sentence end, so a table set at
  the bottom of a page (or above a heading in the other column) came out after the first sentence of the
  next section, where its cells were read as that section's;
- **the tail of a bigger table**: the rows under a gap in a table set in the body's font, right above their
  caption, were taken for a table of their own, cut from their header;
- **a row label glued to its values**: PDFium runs a label into the values set closer than an em
  (``Restore time 1.72x 2.83x``), and the whole run went into the label column.
"""

from __future__ import annotations

import pytest
from papers_extract import extracted_claims
from test_papers_pdf import make_paper
from test_papers_pdf_tables import LEFT, RIGHT, _table

from assay.dsl import get_operator

READ = get_operator("read_paper")

#: Columns of systems set in the body's font under their caption, the first the baseline at 1.00x.
RESTORE_TABLE = [
    (318, 9, "Table 3: Restore time of each policy, normalized."),
    (318, 10, "Model", 372, "Sync", 420, "Lazy", 468, "Quill"),
    (318, 10, "GPT-2", 372, "1.00x", 420, "1.58x", 468, "2.46x"),
    (318, 10, "BERT", 372, "1.00x", 420, "1.49x", 468, "2.32x"),
]
RELATED = [
    "Checkpointing has a long history in HPC systems.",
    "Earlier services write a full copy of the model at",
    "a fixed interval and pause the job while writing.",
    "Quill writes in the background instead, and its",
    "manifest lets a restart read only what it needs.",
]
ROW = "GPT-2 | 1.00x | 1.58x | 2.46x"


def _read(tmp_path_factory, name: str, pages: list[list[tuple]]) -> tuple[str, dict[float, dict]]:
    path = tmp_path_factory.mktemp("pdf") / name
    path.write_bytes(make_paper(pages, title="Quill"))
    records, failures = READ.run([{"source_uri": str(path)}])
    assert not failures, failures
    text = records[0]["text"]
    found = extracted_claims(text, source_uri=str(path))
    return text, {c["value"]: c for c in found if c["unit"] in ("x", "%")}


def _first_page() -> list[tuple]:
    page: list[tuple] = [(150, 740, 16, "Quill: Checkpoints Without the Stall")]
    page += [(54, 700 - 12 * n, 10, line) for n, line in enumerate(LEFT)]
    return page


@pytest.fixture(scope="module", params=["next_page", "other_column"])
def before_heading(request, tmp_path_factory) -> tuple[str, dict[float, dict]]:
    if request.param == "next_page":
        # the table at the bottom of the right column; the next page opens section 6
        first = _first_page() + [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
        first += _table(RESTORE_TABLE, 580)
        second = [(54, 720, 10, "6 Related Work")]
        second += [(54, 706 - 12 * n, 10, line) for n, line in enumerate(RELATED)]
        return _read(tmp_path_factory, "next_page.pdf", [first, second])
    # the table under the left column's text; section 6 opens the right column
    page = _first_page() + _table([(54, *row[1:2], *_shift(row[2:], -264)) for row in RESTORE_TABLE], 580)
    page += [(318, 700, 10, "6 Related Work")]
    page += [(318, 686 - 12 * n, 10, line) for n, line in enumerate(RELATED)]
    return _read(tmp_path_factory, "other_column.pdf", [page])


def _shift(cells: tuple, dx: float) -> tuple:
    """A row's cells after its first (``x, text`` pairs) moved ``dx`` to the left column."""
    out: list = [cells[0]]
    for x, text in zip(cells[1::2], cells[2::2], strict=True):
        out += [x + dx, text]
    return tuple(out)


def test_a_table_standing_before_a_heading_is_read_before_it(before_heading):
    text, claims = before_heading
    assert ROW in text
    assert text.index(ROW) < text.index("6 Related Work")
    for value in (1.58, 1.49):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Lazy", "Sync")
    for value in (2.46, 2.32):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Quill", "Sync")


def test_the_next_sections_first_sentence_stays_whole(before_heading):
    text, _ = before_heading
    assert "6 Related Work\nCheckpointing has a long history in HPC systems." in text


#: A table in the body's font whose last two rows stand under a gap, right above its caption.
TAILED_TABLE = [
    (318, 10, "Model", 400, "Sync", 460, "Quill"),
    (318, 10, "GPT-2", 400, "1.00x", 460, "2.46x"),
    (318, 10, "BERT", 400, "1.00x", 460, "2.32x"),
]
TAIL = [
    (318, 10, "OPT-13B", 400, "1.00x", 460, "1.92x"),
    (318, 10, "Llama-7B", 400, "1.00x", 460, "1.88x"),
]


def test_the_tail_of_a_bigger_table_is_no_table_of_its_own(tmp_path_factory):
    page = _first_page() + [(54, 600 - 12 * n, 10, line) for n, line in enumerate(LEFT)]
    page += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT[:5])]
    page += _table(TAILED_TABLE, 630) + _table(TAIL, 630 - 3 * 13 - 16)  # two rows' gap above the tail
    page += [(318, 630 - 5 * 13 - 20, 9, "Table 3: Restore time of each policy, normalized.")]
    text, claims = _read(tmp_path_factory, "tail.pdf", [page])
    # read before as a table of two rows without their header (so no column named a system)
    assert "OPT-13B | 1.00x | 1.92x" not in text
    assert {2.46, 2.32, 1.92, 1.88} <= set(claims)


#: Metrics as rows, each label set closer than an em to its values: PDFium gives one run a row.
GLUED_LABELS = [
    (318, 9, "Table 4: Each policy's cost, normalized to Sync."),
    (318, 7, "Metric", 363, "Sync", 385, "Lazy", 407, "Quill"),
    (318, 7, "Restore time", 363, "1.00x", 385, "1.72x", 407, "2.83x"),
    (318, 7, "Write stall", 363, "1.00x", 385, "1.41x", 407, "2.02x"),
]


def test_a_row_label_glued_to_its_values_is_a_cell_of_its_own(tmp_path_factory):
    page = _first_page() + [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
    text, claims = _read(tmp_path_factory, "glued_labels.pdf", [page + _table(GLUED_LABELS, 580)])
    assert "Restore time | 1.00x | 1.72x | 2.83x" in text
    for value in (1.72, 1.41):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Lazy", "Sync")
    for value in (2.83, 2.02):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Quill", "Sync")
