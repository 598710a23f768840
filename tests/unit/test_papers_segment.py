"""segment_text: language by script and function words, sentence spans for English and Chinese."""

from __future__ import annotations

import time

import numpy as np
import pytest

from assay.operators.papers import segment_text
from assay.operators.papers._language import detect_language
from assay.operators.papers._sentences import chunk_spans, sentence_at, split_sentences


def sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("We present Strata, a pipeline scheduler that is 2.3x faster than GPipe.", "en"),
        ("我们提出了Merak，一个自动化的3D并行训练框架，在64 GPU上比Megatron-LM快1.42x。", "zh"),
        ("本文提出了BGL，一个分布式GNN训练系统，它使用GPU缓存和PyTorch。", "zh"),
        ("分散学習のための新しいシステムを提案する。", "ja"),
        ("분산 학습을 위한 새로운 시스템을 제안합니다.", "ko"),
        ("Wir stellen ein System vor, das die Daten und die Modelle mit der GPU verteilt.", "de"),
        ("Nous présentons un système pour les données et les modèles dans le nuage.", "fr"),
        ("12345 67.8 %%% ---", "und"),
        ("", "und"),
    ],
)
def test_detect_language(text, lang):
    assert detect_language(text) == lang


def test_english_abbreviations_decimals_and_initials_do_not_end_sentences():
    text = (
        "Strata is 1.42x faster than GPipe, e.g. on BERT. Dean et al. report i.e. the same in Fig. 3. "
        "J. Dean wrote it (see Sec. 4)! Does it scale? Yes: to 1,024 GPUs."
    )
    assert sentences(text) == [
        "Strata is 1.42x faster than GPipe, e.g. on BERT.",
        "Dean et al. report i.e. the same in Fig. 3.",
        "J. Dean wrote it (see Sec. 4)!",
        "Does it scale?",
        "Yes: to 1,024 GPUs.",
    ]


def test_chinese_terminators_and_closing_quotes():
    text = "我们提出了Tutel。它达到了1.74倍的加速！结果如何？“很好。”最后一句"
    assert sentences(text) == [
        "我们提出了Tutel。",
        "它达到了1.74倍的加速！",
        "结果如何？",
        "“很好。”",
        "最后一句",
    ]


def test_blank_lines_split_and_spans_exclude_whitespace():
    text = "  Title without a stop\n\nFirst paragraph. Second\nline continues.  \n"
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == [
        "Title without a stop",
        "First paragraph.",
        "Second\nline continues.",
    ]
    assert spans.dtype == np.int64 and spans.shape == (3, 2)


def test_sentence_at_and_chunk_spans():
    text = "One. Two words. Three."
    spans = split_sentences(text)
    assert sentence_at(spans, text.index("words")) == (5, 15)
    assert sentence_at(spans, 4) is None  # the space between sentences
    pieces = chunk_spans(text, spans, limit=12)
    assert pieces[0] == (0, 4) and pieces[-1][1] == len(text)
    assert all(b - a <= 12 for a, b in pieces) and all(
        pieces[i][1] == pieces[i + 1][0] for i in range(len(pieces) - 1)
    )


def test_chunk_spans_cut_an_unpunctuated_line_at_spaces():
    text = "word " * 1000
    pieces = chunk_spans(text, split_sentences(text), limit=1000)
    assert pieces[0][1] - pieces[0][0] <= 1000 and text[pieces[0][1]] == " "
    assert "".join(text[a:b] for a, b in pieces) == text


def test_a_long_single_line_is_split_in_linear_time():
    text = "Orca reaches 1.5x over ZeRO on 8 GPUs. " * 100_000  # 3.9 MB
    started = time.perf_counter()
    spans = split_sentences(text)
    assert len(spans) == 100_000
    assert time.perf_counter() - started < 10  # quadratic splitting would take minutes


def test_segment_text_operator():
    out = segment_text({"doc_id": "d", "text": "我们提出了Merak。它很快。"})
    assert out["lang"] == "zh" and out["sentences"].tolist() == [[0, 11], [11, 15]]
    with pytest.raises(ValueError, match="run read_paper"):
        segment_text({"doc_id": "d"})
