"""Round 14 of the table rules: a cell's sign (a minus sign, a hyphen, a plus) is its number's; a transposed
table whose rows are measures (``Gain (%) 8.1 9.4``) under a first row of settings; a PDF table whose groups'
titles stand on a line of their own above its sub-columns. Own-worded documents about invented systems, each
through the whole path: ``read_paper`` on a ``.md`` file or a PDF made here, ``segment_text``,
``extract_knowledge``."""

from __future__ import annotations

from papers_extract import file_claims

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
