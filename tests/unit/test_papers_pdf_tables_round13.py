"""PDF tables of the usual systems-paper layout read through the whole path (``read_paper`` on a PDF made in
the test, ``segment_text``, ``extract_knowledge``): a group's title over per-system sub-columns whose names
break over two lines, row labels that hold sizes and counts (``Mistral 7B TP4 16 2K``), and a table set
across both columns of a two-column page in the body's font."""

from __future__ import annotations

from pathlib import Path

from papers_extract import path_claims
from pdf_files import helvetica_page

_LEFT = [
    "HexaServe places every request on the fastest",
    "replica that still has room for its cache, and",
    "it moves a request only when the replica would",
    "run out of memory before the request finishes.",
    "We compare it with FooRT on four models and two",
    "kinds of parallelism, each run three times over.",
]
_RIGHT = [
    "The cluster has sixteen nodes with eight GPUs",
    "each, joined by a fast network in every rack and",
    "a slower one between the racks of the cluster.",
    "Each result is the mean of three runs, and the",
    "spread between the runs stays small in all the",
    "settings that we measured for this evaluation.",
]


def _text(x: float, y: float, text: str) -> bytes:
    return f"BT /F1 10 Tf {x} {y} Td ({text}) Tj ET\n".encode()


def _page(cells: list[tuple[float, float, str]]) -> bytes:
    out = b""
    for k, (left, right) in enumerate(zip(_LEFT, _RIGHT, strict=True)):
        out += _text(54, 740 - 12 * k, left) + _text(318, 740 - 12 * k, right)
    for x, y, text in cells:
        out += _text(x, y, text)
    for k, (left, right) in enumerate(zip(_LEFT, _RIGHT, strict=True)):
        out += _text(54, 330 - 12 * k, right) + _text(318, 330 - 12 * k, left)
    return out


def _claims(tmp_path: Path, cells: list[tuple[float, float, str]]) -> list[dict]:
    path = tmp_path / "paper.pdf"
    path.write_bytes(helvetica_page(_page(cells)))
    return path_claims(path)


_CAPTION = (
    54,
    640,
    "Table 1: Speedup (%) and memory cut (%) of FooRT and HexaServe relative to BaseRT on every model.",
)
#: the groups' titles, the sub-columns' names broken over two lines, then rows whose labels hold a model's
#: size, its parallelism, a batch and a length in columns of their own
_HEADER = [
    (60, 620, "Model"),
    (150, 620, "Batch"),
    (190, 620, "Len"),
    (262, 620, "Speedup (%)"),
    (402, 620, "Memory Cut (%)"),
    (250, 608, "FooRT"),
    (302, 608, "HexaServe"),
    (390, 608, "FooRT"),
    (442, 608, "HexaServe"),
    (250, 598, "+Cache"),
    (390, 598, "+Cache"),
]
_ROWS = [
    (586, ["Mistral 7B", "TP4", "16", "2K"], ["3.1", "12.4", "5.0", "18.2"]),
    (574, ["Qwen 14B", "TP8", "32", "4K"], ["2.2", "9.8", "4.1", "15.7"]),
    (562, ["Llama 70B", "CP2TP4", "8", "8K"], ["1.4", "7.5", "2.6", "11.9"]),
]


def _table() -> list[tuple[float, float, str]]:
    cells = [_CAPTION, *_HEADER]
    for y, label, values in _ROWS:
        cells += [(60, y, label[0]), (112, y, label[1]), (160, y, label[2]), (190, y, label[3])]
        cells += [(x, y, v) for x, v in zip((252, 310, 392, 452), values, strict=True)]
    return cells


def _by_value(claims: list[dict]) -> dict[float, dict]:
    return {c["value"]: c for c in claims if c["unit"] == "%"}


def test_a_full_width_table_below_its_caption_gives_every_cell(tmp_path):
    # read band by band, the table's left half came before the left column's prose and its right half after
    found = _by_value(_claims(tmp_path, _table()))
    assert {3.1, 12.4, 5.0, 18.2, 2.2, 9.8, 4.1, 15.7, 1.4, 7.5, 2.6, 11.9} <= set(found)


def test_a_cell_is_its_sub_columns_system_in_its_groups_measure(tmp_path):
    found = _by_value(_claims(tmp_path, _table()))
    # the caption names the paper's system, but FooRT's sub-columns are FooRT's (with its cache)
    assert found[3.1]["subject"] == "FooRT + Cache"
    assert found[5.0]["subject"] == "FooRT + Cache"
    assert found[12.4]["subject"] == "HexaServe"
    assert found[18.2]["subject"] == "HexaServe"
    assert found[12.4]["versus"] == "BaseRT" and found[3.1]["versus"] == "BaseRT"


def test_a_row_label_keeps_its_sizes_and_counts(tmp_path):
    # "7B", "16" and "2K" are the row's label, not values of their own
    claims = _claims(tmp_path, _table())
    assert not {16.0, 32.0, 8.0, 2.0, 4.0, 7.0, 14.0, 70.0} & {c["value"] for c in claims}
    found = _by_value(claims)
    assert found[12.4]["setting"].endswith("row 1") and found[11.9]["setting"].endswith("row 3")


def test_a_results_column_left_of_the_groups_is_read_in_its_own_column(tmp_path):
    # only label columns (a model, a count, a size) left of the groups' titles make one label: a column of
    # figures there ("Gain (%)", decimals) keeps its cells as results of their own
    cells = [
        (54, 640, "Table 2: Gain (%) and memory cut (%) of FooRT and HexaServe relative to BaseRT."),
        (60, 620, "Model"),
        (150, 620, "Gain (%)"),
        (300, 620, "Memory Cut (%)"),
        (270, 608, "FooRT"),
        (340, 608, "HexaServe"),
    ]
    for y, label, gain, a, b in ((596, "Mistral 7B", "6.4", "3.3", "13.6"), (584, "Qwen 14B", "5.7", "2.8", "10.9")):
        cells += [(60, y, label), (152, y, gain), (272, y, a), (342, y, b)]
    found = _by_value(_claims(tmp_path, cells))
    assert {6.4, 5.7, 3.3, 13.6, 2.8, 10.9} <= set(found)
    assert found[13.6]["subject"] == "HexaServe"
