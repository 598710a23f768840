"""A table's cell takes its settings from its own row label and column header (the model of its column, not the
last model the header names) and, for what those do not name, from the table's caption (``on 64 A100 GPUs``); and
the reference row of a normalised table (``Megatron-LM | 1.00x | 1.00x``) is no claim. Papers written for the
test."""

from __future__ import annotations

from pathlib import Path

from papers_extract import file_claims

_PAPER = """# Zephyr: Elastic Pipeline Training

We present Zephyr, a system for elastic pipeline-parallel training. Zephyr trains 1.6x faster than Megatron-LM.

## Evaluation

Table 2: Training throughput normalized to Megatron-LM.

| System | GPT-3 1.3B | GPT-3 13B | GPT-3 175B |
|---|---|---|---|
| Megatron-LM | 1.00x | 1.00x | 1.00x |
| DeepSpeed | 0.92x | 1.05x | 1.10x |
| Zephyr | 1.35x | 1.52x | 1.61x |

Table 3: Model FLOPs utilization (MFU) on 64 A100 GPUs.

| Model | Megatron-LM | DeepSpeed | Zephyr |
|---|---|---|---|
| GPT-3 13B | 41% | 38% | 52% |
| GPT-3 175B | 44% | 40% | 55% |
"""


def _cells(tmp_path: Path) -> dict[float, dict]:
    return {c["value"]: c for c in file_claims(tmp_path, _PAPER, "paper.md")}


def test_a_cell_takes_the_model_of_its_own_column_or_row(tmp_path):
    cells = _cells(tmp_path)
    assert (cells[0.92]["model"], cells[1.05]["model"], cells[1.61]["model"]) == ("GPT-3 1.3B", "GPT-3 13B", "GPT-3 175B")
    assert cells[1.05]["params_b"] == 13.0
    assert (cells[52.0]["model"], cells[55.0]["model"]) == ("GPT-3 13B", "GPT-3 175B")


def test_the_caption_states_what_every_cell_ran_on(tmp_path):
    cells = _cells(tmp_path)
    assert (cells[41.0]["gpus"], cells[41.0]["hardware"]) == (64, "A100")
    # and what it measures, where the cell's own sentence names nothing: model FLOPs utilization
    assert cells[41.0]["measure"] == "mfu"


def test_the_reference_row_of_a_normalised_table_is_no_claim(tmp_path):
    assert 1.0 not in _cells(tmp_path)
