"""A PDF whose text is set in a font of size 1 scaled up by the text matrix (``/F1 1 Tf 9 0 0 9 x y Tm``), as
some publishers' tools write every page: PDFium reports the unscaled size, so the reader takes the size the
page shows from the glyph boxes. Read with the reported size, every word came out on a line of its own."""

from __future__ import annotations

import pytest
import test_papers_pdf
from test_papers_pdf import _tj, make_paper

from assay.operators.papers._pdf import pdf_to_text

LINES = [
    "We present Quill, a checkpoint service for large",
    "training jobs. Quill writes shards from every rank",
    "in parallel and cuts the checkpoint stall by 40%",
    "compared to TorchSnapshot on a cluster of 64 GPUs.",
]


def _scaled_text(x: float, y: float, size: float, line: str, turned: bool = False) -> bytes:
    return f"BT /F1 1 Tf {size} 0 0 {size} {x} {y} Tm ".encode() + _tj(line) + b" ET"


@pytest.fixture()
def scaled_paper(monkeypatch):
    monkeypatch.setattr(test_papers_pdf, "_text", _scaled_text)
    return make_paper([[(72, 700 - 12 * i, 10, line) for i, line in enumerate(LINES)]])


def test_words_of_a_scaled_font_stay_on_their_line(scaled_paper):
    text, _ = pdf_to_text(scaled_paper)
    lines = [line for line in text.split("\n") if line.strip()]
    assert lines == LINES
