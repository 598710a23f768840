"""A table cell that says which way its figure goes ("1.5x faster", "50% less", "5.8x slower without warm-up")
states a comparison, whatever its header says. Through the public papers path (a README read as Markdown)."""

from __future__ import annotations

from papers_extract import file_claims

README = """# FooTune

FooTune fine-tunes open models on one GPU.

| Model | Notebook | Performance | Memory use |
|---|---|---|---|
| **Llama 3 (8B)** | [Start](https://example.org/a.ipynb) | 2x faster | 70% less |
| **Qwen2 (7B)** | [Start](https://example.org/b.ipynb) | 1.5x faster | 60% less |

| Step | Cold | Warm | Note |
|---|---|---|---|
| **First request** | 0.45s | 2.59s | **5.8x slower** without warm-up |
"""


def _values(tmp_path):
    return {(c["value"], c["unit"]) for c in file_claims(tmp_path, README, "README.md")}


def test_comparative_cells_are_claims(tmp_path):
    values = _values(tmp_path)
    assert {(2.0, "x"), (70.0, "%"), (1.5, "x"), (60.0, "%")} <= values


def test_a_bare_cell_under_a_plain_header_is_still_no_claim(tmp_path):
    text = README + "\n| Setting | Value |\n|---|---|\n| **dropout** | 10% |\n"
    claims = file_claims(tmp_path, text, "README.md")
    assert not [c for c in claims if c["value"] == 10.0]
