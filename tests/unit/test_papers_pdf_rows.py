"""Rows of a small table in a two-column PDF made in the test, read through ``read_paper``: a tall figure label
in the other column, standing between two of the table's rows, does not join them into one line; an IEEE
table's caption (``TABLE II`` alone on its line, its title on the lines below) is read as a caption, not
as the table's header.

Read before, the label (taller than the rows, overlapping both) made the rows ``8192`` and ``16384`` one
line, ``8192 16384 | 80B 160B | 36.3 32.4``, and each cell of the two lost its row."""

from __future__ import annotations

from test_papers_pdf import make_paper

from assay.dsl import get_operator

READ = get_operator("read_paper")

BODY = [
    "We scale the training of language models on three",
    "supercomputers and report the share of the peak",
    "each run sustains; Table II lists every run we made",
    "with its model size and the number of its GPUs.",
    "The share falls slowly as the runs grow larger,",
    "as communication takes more of every iteration.",
]
TABLE = [
    ("GPUs", "Model", "Pflop/s", "% of Peak"),
    ("4096", "40B", "295.9", "37.6"),
    ("8192", "80B", "571.4", "36.3"),
    ("16384", "160B", "1019.9", "32.4"),
    ("32768", "320B", "1381.0", "22.0"),
]
RIGHT = [
    "The runs use a four-dimensional grid of GPUs: data",
    "parallel groups, and three dimensions of tensor",
    "parallelism for each layer's matrix multiplications.",
    "We pick the grid with a model of communication",
    "time, which ranks every grid by its predicted cost.",
    "The best grid is within a few percent of the best",
]


def _text(tmp_path) -> str:
    page = [(54, 720 - 12 * n, 10, line) for n, line in enumerate(BODY)]
    page += [(150, 630, 8, "TABLE II"), (70, 621, 8, "SUSTAINED FLOP/S OF WEAK SCALING ON THE THREE")]
    page += [(140, 612, 8, "SYSTEMS, PER RUN.")]
    for n, row in enumerate(TABLE):
        page += [(x, 598 - 9 * n, 8, cell) for x, cell in zip((70, 110, 150, 200), row, strict=True)]
    page += [(318, 720 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
    # a figure's label in the right column, set large, standing between the rows 8192 and 16384
    page += [(470, 575.5, 14, "GPT-80B")]
    page += [(54, 540 - 12 * n, 10, line) for n, line in enumerate(BODY)]
    path = tmp_path / "scale.pdf"
    path.write_bytes(make_paper([page], title="Scale"))
    records, failures = READ.run([{"source_uri": str(path)}])
    assert not failures, failures
    return records[0]["text"]


def test_a_tall_label_in_the_other_column_does_not_join_two_table_rows(tmp_path):
    rows = [" ".join(line.split()) for line in _text(tmp_path).splitlines()]
    assert "8192 | 80B | 571.4 | 36.3" in rows
    assert "16384 | 160B | 1019.9 | 32.4" in rows


def test_an_ieee_table_caption_is_no_header_of_its_table(tmp_path):
    rows = [" ".join(line.split()) for line in _text(tmp_path).splitlines()]
    assert "GPUs | Model | Pflop/s | % of Peak" in rows
    assert not any("SYSTEMS" in row and "|" in row for row in rows)
