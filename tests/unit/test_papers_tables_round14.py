"""Round 14 of the table rules: a cell's sign (a minus sign, a hyphen, a plus) is its number's; a transposed
table whose rows are measures (``Gain (%) 8.1 9.4``) under a first row of settings; a PDF table whose groups'
titles stand on a line of their own above its sub-columns. Own-worded documents about invented systems, each
through the whole path: ``read_paper`` on a ``.md`` file or a PDF made here, ``segment_text``,
``extract_knowledge``."""

from __future__ import annotations

from pathlib import Path

from papers_extract import file_claims, path_claims
from pdf_files import helvetica_page

_TALLOW = (
    "# Tallow: Cheaper Checkpoints\n\n## Abstract\n\nWe present Tallow, a checkpoint writer that saves time and "
    "energy over BaseCkpt.\n\n## Evaluation\n\n"
)


def test_a_signed_bare_cell_keeps_its_sign(tmp_path):
    # a minus sign (U+2212), a hyphen and a plus before bare cells whose unit only the header writes
    table = (
        "Table 2: Time and energy reduction (%) of Tallow relative to BaseCkpt.\n\n"
        "| Model | Time Reduction (%) | Energy Reduction (%) |\n|---|---|---|\n"
        "| Wren 2B | \u22120.6 | 11.3 |\n| Wren 9B | -2.4 | +4.1 |\n| Wren 30B | 3.5 | 7.9 |\n\n"
        "Tallow wins on the larger models.\n"
    )
    found = [c for c in file_claims(tmp_path, _TALLOW + table, "tallow.md") if c["unit"] == "%"]
    assert [c["value"] for c in found] == [-0.6, 11.3, -2.4, 4.1, 3.5, 7.9]
    assert {(c["subject"], c["versus"]) for c in found} == {("Tallow", "BaseCkpt")}


_PROSE = [
    "Tallow writes each checkpoint in shards that it",
    "spreads over the nodes of the job, and it lowers",
    "the clock of a GPU that waits for its shard to be",
    "written, so the job spends less energy for the",
    "same time. We compare it with BaseCkpt on two",
    "models and a range of shard counts in each run.",
]


def _text(x: float, y: float, text: str) -> bytes:
    text = text.replace("(", "\\(").replace(")", "\\)")
    return f"BT /F1 10 Tf {x} {y} Td ({text}) Tj ET\n".encode()


def _pdf_claims(tmp_path: Path, cells: list[tuple[float, float, str]]) -> list[dict]:
    """The claims of a two-column page: prose in both columns, the cells (a caption, a table) in the right
    one between its paragraphs, every line in the body's font."""
    out = b""
    for k, line in enumerate(_PROSE):
        out += _text(54, 740 - 12 * k, line) + _text(318, 740 - 12 * k, line)
    for x, y, text in cells:
        out += _text(x, y, text)
    for k, line in enumerate(_PROSE):
        out += _text(54, 560 - 12 * k, line) + _text(318, 430 - 12 * k, line)
    path = tmp_path / "tallow.pdf"
    path.write_bytes(helvetica_page(out))
    return [c for c in path_claims(path) if c["unit"] == "%"]


def test_a_transposed_table_reads_each_measures_row_under_its_settings(tmp_path):
    # the measure with its unit labels each row, PDFium runs it into its values (one run wider than a cell);
    # the first row's whole numbers are the columns' settings, "# Shards" their title
    cells = [
        (318, 640, "Table 4: Iso-time energy saving (%) and iso-energy"),
        (318, 629, "time saving (%) of Tallow relative to BaseCkpt."),
        (470, 610, "# Shards"),
        (464, 598, "4"),
        (486, 598, "8"),
        (506, 598, "16"),
        (528, 598, "32"),
    ]
    for y, label, values in (
        (586, "Iso-Time Energy Saving (%)", ["7.2", "8.5", "9.9", "10.4"]),
        (574, "Iso-Energy Time Saving (%)", ["13.1", "12.6", "11.8", "11.0"]),
    ):  # each run closer to the next than an em: PDFium gives the row as one run
        cells += [(328, y, label), *((x, y, v) for x, v in zip((460, 482, 504, 526), values, strict=True))]
    found = _pdf_claims(tmp_path, cells)
    assert [c["value"] for c in found] == [7.2, 8.5, 9.9, 10.4, 13.1, 12.6, 11.8, 11.0]
    assert {(c["subject"], c["versus"]) for c in found} == {("Tallow", "BaseCkpt")}
    # the shard counts are the columns' settings, no claims
    assert not {4.0, 8.0, 16.0, 32.0} & {c["value"] for c in found}


def test_a_header_line_of_two_measures_with_their_units_stays_over_its_table(tmp_path):
    # the groups' titles and the label column's name PDFium ran into one line wider than a cell, its first
    # word in lower case: still the table's header, so each sub-column is its system in its group's measure
    cells = [
        (318, 640, "Table 5: Time and energy saving (%) relative to"),
        (318, 629, "BaseCkpt of SlowCkpt and Tallow per batch size."),
        # each run closer to the next than an em: PDFium gives the line as one run
        (330, 610, "batch Size"),
        (384, 610, "Time Saving (%)"),
        (464, 610, "Energy Saving (%)"),
        (390, 598, "SlowCkpt"),
        (440, 598, "Tallow"),
        (480, 598, "SlowCkpt"),
        (530, 598, "Tallow"),
    ]
    for y, values in ((586, ["8", "-0.6", "11.3", "6.2", "19.4"]), (574, ["12", "-0.3", "13.8", "8.1", "16.9"])):
        cells += [(x, y, v) for x, v in zip((340, 395, 443, 486, 533), values, strict=True)]
    found = _pdf_claims(tmp_path, cells)
    by_value = {c["value"]: c for c in found}
    assert {11.3, 6.2, 19.4, 13.8, 8.1, 16.9} <= set(by_value)
    assert [by_value[v]["subject"] for v in (11.3, 6.2, 19.4)] == ["Tallow", "SlowCkpt", "Tallow"]
    assert {c["versus"] for c in found} == {"BaseCkpt"}
