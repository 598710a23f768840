"""The Hugging Face Trainer is named from evidence, not from one line a user's own script copies: its log
record (``loss``, ``learning_rate`` and ``epoch`` together), its module paths, or its banner with the
settings block and bare bars under it."""

from __future__ import annotations

import pytest

from assay.operators.logs import parse_log
from assay.operators.logs._hf_evidence import EVIDENCE, NAMED

_HF = "Hugging Face Transformers"


def _framework(tmp_path, lines):
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return parse_log(str(path)).run["framework"]


@pytest.mark.parametrize(
    "lines",
    [
        # a script that prints the banner once, then its own records
        [
            "***** Running training *****",
            "  Num examples = 640",
            "ep 1 it 10 loss 2.05",
            "ep 1 it 20 loss 1.88",
            "ep 1 it 30 loss 1.71",
        ],
        # a script printing dicts of its own (no learning_rate and epoch beside the loss)
        [
            "starting my loop",
            "{'loss': 2.05, 'step': 10}",
            "{'loss': 1.88, 'step': 20}",
            "{'loss': 1.71, 'step': 30}",
        ],
        # both copied
        ["***** Running training *****", "{'loss': 2.05, 'acc': 0.41}", "{'loss': 1.88, 'acc': 0.47}"],
    ],
    ids=["banner-once", "own-dicts", "banner-and-own-dicts"],
)
def test_a_copied_banner_or_dict_stays_generic(tmp_path, lines):
    assert _framework(tmp_path, lines) != _HF


@pytest.mark.parametrize(
    "lines",
    [
        [
            "{'loss': 2.05, 'grad_norm': 3.1, 'learning_rate': 4.8e-05, 'epoch': 0.05}",
            "{'loss': 1.88, 'grad_norm': 2.7, 'learning_rate': 4.6e-05, 'epoch': 0.1}",
        ],
        [
            "[INFO|trainer.py:2216] 2025-01-02 10:11:12,131 >> ***** Running training *****",
            "[INFO|trainer.py:2217] 2025-01-02 10:11:12,131 >>   Num examples = 6,400",
        ],
        [
            "***** Running training *****",
            "  Num examples = 6400",
            "  Instantaneous batch size per device = 8",
            "  Total optimization steps = 800",
            "  3%|▎         | 24/800 [00:09<04:50,  2.67it/s]",
        ],
    ],
    ids=["trainer-record", "trainer-module", "banner-block-and-bars"],
)
def test_the_trainers_evidence_names_it(tmp_path, lines):
    assert _framework(tmp_path, lines) == _HF


_PLAIN = ["ep 1 it 10 loss 2.05", "ep 1 it 20 loss 1.88"]


@pytest.mark.parametrize("row", EVIDENCE, ids=lambda r: r.name)
def test_every_evidence_row_alone_names_the_trainer_only_when_it_weighs_enough(tmp_path, row):
    named = _framework(tmp_path, [*_PLAIN, row.example]) == _HF
    assert row.regex.search(row.example) and named == (row.weight >= NAMED)


def test_the_weak_rows_together_name_the_trainer(tmp_path):
    weak = [row.example for row in EVIDENCE if row.weight < NAMED]
    assert _framework(tmp_path, [*weak, *_PLAIN]) == _HF
