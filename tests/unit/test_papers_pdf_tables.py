"""Results tables in a two-column PDF made in the test, read through the public path (``read_paper``, then
``segment_text`` and ``extract_knowledge``): each ratio cell is a claim of its row's or its column's system,
against the baseline its header, caption or unit cell names; a table's measurements are no ratio claims.

The tables are set as a conference paper sets them: a smaller font, each cell placed on its own, a header
stacked over two lines, the caption above. Read one cell a line (the reader before), every cell was the
paper's own system's, against the paper's default baseline."""

from __future__ import annotations

import pytest
from papers_extract import extracted_claims
from test_papers_pdf import make_paper

from assay.dsl import get_operator

READ = get_operator("read_paper")

LEFT = [
    "We present Quill, a checkpoint service for large",
    "training jobs. Quill writes shards from every rank",
    "in parallel and keeps the stall of a step short.",
    "We compare it with TorchSnapshot and CheckFreq on",
    "a cluster of 512 GPUs, each job checkpointing every",
    "ten minutes. Table 1 lists the speedups we measured",
    "and Table 2 the time a step takes with each policy.",
    "The results hold for every model we tried here.",
]
RIGHT = [
    "Quill is built from three parts: a shard planner, a",
    "writer pool and a manifest. The planner assigns each",
    "tensor to the rank that holds it, so no byte crosses",
    "the network twice. The writer pool runs off the step",
    "path, and the manifest names every shard it wrote.",
    "Each node has eight GPUs and two network cards.",
    "The shard planner runs once when the job starts.",
    "Nothing of the trainer's own code needs to change.",
]
#: Rows are systems: the paper's own among them; the caption names the baseline.
ROWS_TABLE = [
    (54, 9, "Table 1: Checkpoint speedup over TorchSnapshot on 512 GPUs."),
    (54, 7, "System", 120, "Speedup", 180, "Stall (s)"),
    (54, 7, "CheckFreq", 120, "1.4x", 180, "12.5"),
    (54, 7, "Quill", 120, "2.6x", 180, "4.1"),
]
#: Columns are systems (a header stacked over two lines); the baseline is the column at 1.00x.
COLUMNS_TABLE = [
    (318, 9, "Table 2: Step time (ms) of each checkpoint policy."),
    (318, 7, "", 400, "Greedy", 460, "Lazy"),
    (318, 7, "Model", 372, "Sync", 400, "Packing", 460, "Flush", 510, "Quill"),
    (318, 7, "GPT-2", 372, "410.2", 400, "388.9", 460, "402.7", 510, "301.7"),
    (318, 7, "", 372, "1.00x", 400, "1.05x", 460, "1.02x", 510, "1.36x"),
    (318, 7, "BERT", 372, "220.4", 400, "214.0", 460, "219.1", 510, "171.5"),
    (318, 7, "", 372, "1.00x", 400, "1.03x", 460, "1.01x", 510, "1.29x"),
    (318, 7, "Mean of the two models", 400, "1.04x", 460, "1.015x", 510, "1.325x"),
]
#: Rows of workloads (no system named in the first column); the caption says whose results they are.
SCALING_TABLE = [
    (54, 9, "Table 3: Speedup of Quill over TorchSnapshot per model."),
    (54, 7, "Model", 120, "Speedup", 180, "Stall (s)"),
    (54, 7, "BERT-L", 120, "1.9x", 180, "9.8"),
    (54, 7, "GPT-2 XL", 120, "2.3x", 180, "7.7"),
    (54, 7, "T5-3B", 120, "2.7x", 180, "6.0"),
]


def _table(rows: list[tuple], top: float) -> list[tuple]:
    out = []
    y = top
    for row in rows:
        x, size, first, *rest = row
        cells = [(x, first), *zip(rest[0::2], rest[1::2], strict=True)]
        out += [(cx, y, size, text) for cx, text in cells if text]
        y -= size + 3
    return out


def _pages() -> list[list[tuple]]:
    page: list[tuple] = [(150, 740, 16, "Quill: Checkpoints Without the Stall")]
    page += [(54, 700 - 12 * n, 10, line) for n, line in enumerate(LEFT)]
    page += _table(ROWS_TABLE, 590)
    page += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
    page += _table(COLUMNS_TABLE, 590)
    page += [(54, 520 - 12 * n, 10, line) for n, line in enumerate(LEFT[:4])]
    page += _table(SCALING_TABLE, 450)
    return [page]


@pytest.fixture(scope="module")
def claims(tmp_path_factory) -> dict[float, dict]:
    path = tmp_path_factory.mktemp("pdf") / "quill.pdf"
    path.write_bytes(make_paper(_pages(), title="Quill"))
    records, failures = READ.run([{"source_uri": str(path)}])
    assert not failures, failures
    record = records[0]
    found = extracted_claims(record["text"], source_uri=str(path))
    return {c["value"]: c for c in found if c["unit"] in ("x", "%")}


def test_a_cell_in_a_table_of_systems_by_row_is_its_rows_system(claims):
    assert claims[1.4]["subject"] == "CheckFreq"
    assert claims[2.6]["subject"] == "Quill"


def test_the_caption_names_the_baseline_of_a_rows_table(claims):
    assert claims[1.4]["versus"] == "TorchSnapshot"
    assert claims[2.6]["versus"] == "TorchSnapshot"


def test_a_cell_in_a_table_of_systems_by_column_is_its_columns_system(claims):
    assert claims[1.05]["subject"] == "Greedy Packing"
    assert claims[1.02]["subject"] == "Lazy Flush"
    assert claims[1.36]["subject"] == "Quill"
    assert claims[1.29]["subject"] == "Quill"


def test_the_column_at_the_unit_is_the_baseline_of_its_row(claims):
    assert {claims[v]["versus"] for v in (1.05, 1.02, 1.36, 1.03, 1.01, 1.29)} == {"Sync"}


def test_measurements_in_a_table_are_no_ratio_claims(claims):
    assert not {12.5, 4.1, 410.2, 301.7, 171.5} & set(claims)


def test_a_row_spanning_the_label_columns_keeps_its_cells_apart(claims):
    assert claims[1.04]["subject"] == "Greedy Packing"
    assert claims[1.325]["subject"] == "Quill"


def test_cells_of_rows_of_workloads_are_the_captions_systems_results(claims):
    for value in (1.9, 2.3, 2.7):
        assert (claims[value]["subject"], claims[value]["versus"]) == ("Quill", "TorchSnapshot")


def test_a_cell_claim_says_which_table_and_row_it_came_from(claims):
    assert "Table 2" in claims[1.05]["setting"] and "row 2" in claims[1.05]["setting"]


MARKDOWN = """# FooPipe: pipelines without bubbles

We present FooPipe, a pipeline-parallel trainer that fills the bubbles of a schedule with the
backward passes of later micro-batches.

## Evaluation

Table 4: Iteration time of each trainer, normalized.

| Model | GPipe | FooPipe |
|-------|-------|---------|
| GPT-3 XL | 1.00x | 1.7x |
| T5-3B | 1.00x | 1.45x |

Table 5: Memory reduction per stage.

| Workload | Saved |
|----------|-------|
| ResNet-152 | 31% |
| AmoebaNet | 27% |
"""


def test_the_same_cell_reader_serves_a_markdown_table(tmp_path):
    path = tmp_path / "foopipe.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    records, failures = READ.run([{"source_uri": str(path)}])
    assert not failures, failures
    found = {c["value"]: c for c in extracted_claims(records[0]["text"], source_uri=str(path))}
    assert (found[1.7]["subject"], found[1.7]["versus"]) == ("FooPipe", "GPipe")
    assert (found[1.45]["subject"], found[1.45]["versus"]) == ("FooPipe", "GPipe")
    # rows of workloads name no system: the paper's own, never a workload's name
    assert found[31]["subject"] == "FooPipe" and found[27]["subject"] == "FooPipe"


KEPT_BASELINE = """# Quill: fast checkpoints for large training jobs

Quill writes checkpoints up to 2.6x faster than TorchSnapshot on 512 GPUs.

## Evaluation

Quill cuts the stall of a step by 41% compared to TorchSnapshot, and its restarts are 1.9x faster than
TorchSnapshot's.

Table 2: Checkpoint speedup per model.

| Model | Speedup |
|-------|---------|
| GPT-2 | 1.7x |
| BERT | 1.45x |
"""


def test_a_table_that_names_no_baseline_keeps_the_papers_own(tmp_path):
    # neither header nor caption names what the speedups are against: the cells keep the baseline the
    # paper states for its results (named twice in their section), not none
    path = tmp_path / "quill.md"
    path.write_text(KEPT_BASELINE, encoding="utf-8")
    records, failures = READ.run([{"source_uri": str(path)}])
    assert not failures, failures
    found = {c["value"]: c for c in extracted_claims(records[0]["text"], source_uri=str(path))}
    assert (found[1.7]["subject"], found[1.7]["versus"]) == ("Quill", "TorchSnapshot")
    assert (found[1.45]["subject"], found[1.45]["versus"]) == ("Quill", "TorchSnapshot")


#: A two-level header: each group's title ('Speedup over X', 'Speedup for Y') is centred over its three
#: columns and narrower than them, so it covers the middle column's centre only. Read before, the outer
#: columns had no title and the middle one's header ran the two levels together ('Speedup over Sync Load').
GROUPED_TABLE = [
    (318, 9, "Table 2: Speedups of Quill on each model."),
    (318, 7, "", 372, "Speedup over Sync", 470, "Speedup for CheckFreq"),
    (318, 7, "Model", 360, "Write", 390, "Load", 420, "Overall", 460, "Write", 490, "Load", 520, "Overall"),
    (318, 7, "GPT-2", 360, "1.8x", 390, "1.2x", 420, "1.5x", 460, "1.3x", 490, "1.1x", 520, "1.25x"),
    (318, 7, "BERT", 360, "2.2x", 390, "1.4x", 420, "1.7x", 460, "1.6x", 490, "1.05x", 520, "1.35x"),
]
#: A group titled by a workload ('Speedup for BERT-L'): no baseline, so the cells keep the caption's.
WORKLOAD_GROUP_TABLE = [
    (54, 9, "Table 3: Speedup of Quill over TorchSnapshot."),
    (54, 7, "", 96, "Speedup for BERT-L", 176, "Speedup for T5-3B"),
    (54, 7, "Files", 90, "Write", 120, "Total", 170, "Write", 200, "Total"),
    (54, 7, "Small", 90, "2.05x", 120, "1.65x", 170, "2.45x", 200, "1.95x"),
    (54, 7, "Large", 90, "2.15x", 120, "1.75x", 170, "2.55x", 200, "2.35x"),
]

#: One group's title over the value columns (none beside it): it reaches its sub-headers' far edges.
LONE_GROUP_TABLE = [
    (54, 9, "Table 4: Restart time of Quill per model."),
    (54, 7, "", 111, "Speedup vs. CheckFreq"),
    (54, 7, "Model", 100, "Load", 130, "Replay", 170, "Overall"),
    (54, 7, "OPT-13B", 100, "3.15x", 130, "1.85x", 170, "2.65x"),
    (54, 7, "Llama-7B", 100, "3.05x", 130, "1.55x", 170, "2.25x"),
]


@pytest.fixture(scope="module")
def grouped(tmp_path_factory) -> dict[float, dict]:
    page: list[tuple] = [(150, 740, 16, "Quill: Checkpoints Without the Stall")]
    page += [(54, 700 - 12 * n, 10, line) for n, line in enumerate(LEFT)]
    page += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
    page += _table(GROUPED_TABLE, 590)
    page += [(54, 520 - 12 * n, 10, line) for n, line in enumerate(LEFT[:4])]
    page += _table(WORKLOAD_GROUP_TABLE, 450)
    page += _table(LONE_GROUP_TABLE, 380)
    path = tmp_path_factory.mktemp("pdf") / "quill_grouped.pdf"
    path.write_bytes(make_paper([page], title="Quill"))
    records, failures = READ.run([{"source_uri": str(path)}])
    assert not failures, failures
    found = extracted_claims(records[0]["text"], source_uri=str(path))
    return {c["value"]: c for c in found if c["unit"] in ("x", "%")}


def test_a_group_header_names_the_baseline_of_every_column_it_stands_over(grouped):
    for value in (1.8, 1.2, 1.5, 2.2, 1.4, 1.7):
        assert (grouped[value]["subject"], grouped[value]["versus"]) == ("Quill", "Sync")


def test_a_group_header_speedup_for_a_compared_system_names_it_as_the_baseline(grouped):
    for value in (1.3, 1.1, 1.25, 1.6, 1.05, 1.35):
        assert (grouped[value]["subject"], grouped[value]["versus"]) == ("Quill", "CheckFreq")


def test_a_group_header_for_a_workload_names_no_baseline(grouped):
    for value in (2.05, 1.65, 2.45, 1.95, 2.15, 1.75, 2.55, 2.35):
        assert (grouped[value]["subject"], grouped[value]["versus"]) == ("Quill", "TorchSnapshot")


def test_a_lone_group_header_names_the_baseline_of_each_column_under_it(grouped):
    for value in (3.15, 1.85, 2.65, 3.05, 1.55, 2.25):
        assert (grouped[value]["subject"], grouped[value]["versus"]) == ("Quill", "CheckFreq")
