"""A table whose rows are labelled on two levels (a model, then the method run on it: ``GPT-3 | FooSys | 14.7``,
``1.3B | BarPipe | 8.7``) gives each cell to the level that names a system; a system the setup compares with
("We compare FooSys's energy savings with BarPipe") counts as one; a row headed "Ours" is the paper's own
system, so the other rows are the systems it lists. A Markdown paper written for the test, read as a user's
file is (``read_paper``, ``segment_text``, ``extract_knowledge``)."""

from __future__ import annotations

from papers_extract import file_claims

PAPER = """# Kestrow: Energy-Aware Pipeline Planning

We present Kestrow, a planner that slows down non-critical pipeline stages to save energy.

## Evaluation

We compare Kestrow's energy savings with FooPipe, which tunes each stage once.

Table 2: Energy savings (%) given the slowdown budget.

| Model | Method | 1.05 | 1.1 | 1.2 |
|---|---|---|---|---|
| GPT-3 | Kestrow | 14.7 | 15.9 | 15.5 |
| 1.3B | FooPipe | 8.7 | 8.5 | 8.3 |
| Bloom | Kestrow | 13.6 | 15.6 | 15.2 |
| 3B | FooPipe | 8.8 | 8.7 | 8.4 |

Table 3: Speedup over the direct kernel.

| Method | Small board (x) | Large board (x) |
|---|---|---|
| SLOWALG | 1.1 | 1.2 |
| Ours | 2.2 | 3.9 |
"""


def test_each_row_is_the_system_its_label_levels_name(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, PAPER, "paper.md")}
    for cell in ("14.7", "15.9", "13.6"):
        assert claims[cell]["subject"] == "Kestrow", cell
    for cell in ("8.5", "8.3", "8.4"):
        assert claims[cell]["subject"] == "FooPipe", cell


def test_a_row_headed_ours_is_the_papers_system(tmp_path):
    claims = {c["text"]: c for c in file_claims(tmp_path, PAPER, "paper.md")}
    assert (claims["2.2"]["subject"], claims["2.2"]["versus"]) == ("Kestrow", "direct kernel")
    assert (claims["1.1"]["subject"], claims["1.1"]["versus"]) == ("SLOWALG", "direct kernel")
