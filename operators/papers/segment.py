"""The ``segment_text`` operator: a document's language and its sentence spans."""

from __future__ import annotations

from typing import Any

from assay.dsl import operator
from assay.operators.papers._language import detect_language
from assay.operators.papers._sentences import split_sentences


@operator(name="segment_text", requires=["text"], produces=["lang", "sentences"], version="1")
def segment_text(record: dict[str, Any]) -> dict[str, Any]:
    """Detect the language (``en``, ``zh``, ...) and split the text into sentences (``(n, 2)`` offsets)."""
    text = record.get("text")
    if not isinstance(text, str):
        raise ValueError("record has no 'text': run read_paper (or another reader) before segment_text")
    return {**record, "lang": detect_language(text), "sentences": split_sentences(text)}
