"""Whose a measure is, where its owner is not the clause's head noun: "Kestrow's SAR is 32% higher than X" is
Kestrow's result (the parse's subject, SAR, is possessed by the system), and a table whose caption says it
characterises a model ("... input sizes for the FooNet-2 model") and names no system of the paper holds that
model's figures; a column headed by a goal ("Accuracy target") holds settings, not results. Texts written
for the test."""

from __future__ import annotations

import pytest
from papers_extract import file_claims

from assay.operators.papers import _nlp
from assay.operators.papers._parse import subject_from_parse


def test_a_possessed_measure_is_its_owners():
    if not _nlp.trained_model_available():
        pytest.skip(f"{_nlp.TRAINED_MODEL} is not installed")
    parse = _nlp.build_parser()
    text = "In the skewed mix, Kestrow’s SAR is 32% higher than the best fixed strategy."
    names = [(text.index(n), text.index(n) + len(n), n, True) for n in ("Kestrow", "SAR")]
    assert subject_from_parse(parse(text), text.index("32%"), names, "Kestrow") == "Kestrow"
    # with no possessor, the name at the subject's head stays the subject
    text = "In the skewed mix, FooServe is 12% slower than the best fixed strategy."
    names = [(text.index("FooServe"), text.index("FooServe") + 8, "FooServe", True)]
    assert subject_from_parse(parse(text), text.index("12%"), names, "Kestrow") == "FooServe"


def test_a_table_characterising_a_model_holds_the_models_figures(tmp_path):
    text = """# Kestrow: Serving Diffusion Models

We present Kestrow, a scheduler for diffusion-model serving.

## Motivation

Table 1: Characteristics of representative input sizes for the FooNet-2 model. Stability (CV) is measured over
20 steps for different parallel degrees.

| Image Size | Tokens | SP=1 | SP=2 | SP=4 |
|---|---|---|---|---|
| 256 × 256 | 256 | 0.13% | 0.31% | 0.67% |
| 512 × 512 | 1024 | 0.06% | 0.15% | 0.14% |

## Evaluation

Table 2: Speedup of Kestrow over FooServe for the FooNet-2 model.

| Image Size | Speedup (x) |
|---|---|
| 256 × 256 | 1.4 |
"""
    claims = {c["text"]: c for c in file_claims(tmp_path, text, "paper.md")}
    assert claims["0.31%"]["subject"] == "FooNet-2"
    assert claims["0.14%"]["subject"] == "FooNet-2"
    assert (claims["1.4"]["subject"], claims["1.4"]["versus"]) == ("Kestrow", "FooServe")


def test_a_column_of_targets_holds_settings(tmp_path):
    text = """# Kestrow: Freezing Layers

We present Kestrow, which freezes converged layers during training.

## Evaluation

Table 2: Workloads and time-to-accuracy speedups of Kestrow.

| Task | Model | Accuracy target | GPUs | TTA speedup (%) |
|---|---|---|---|---|
| Image | FooNet-50 | 75.9% | 4 | 27% |
| Text | BarLM | 88.1% | 2 | 19% |
"""
    values = {c["text"]: c for c in file_claims(tmp_path, text, "paper.md")}
    assert "75.9%" not in values and "88.1%" not in values
    assert values["27%"]["subject"] == "Kestrow"


def test_the_models_a_measure_is_of_are_workloads():
    # "the training time of A and B", the paper's work the clause's subject: A and B are what it was measured
    # on, neither the numbers' subjects (a "respectively" list) nor their baselines (an object of "reduces")
    from papers_extract import claims_by_text

    text = (
        "Abstract\n\nWe present Kestrow, a kernel library for grouped convolutions. "
        "We train FooNet-V2 and BarNet-B0 with it.\n\n5 Evaluation\n\n"
        "FooNet-V2 has 53 layers and BarNet-B0 has 81 layers. We apply Kestrow to FooNet-V2 and BarNet-B0. "
        "Overall, our approach averagely reduces the end-to-end training time of FooNet-V2 and BarNet-B0 by 9.7% "
        "and 7.3% respectively, and reduces the end-to-end inference time of FooNet and BarNet by 12.2% and "
        "13.5% respectively.\n"
    )
    claims = claims_by_text(text)
    for number in ("9.7%", "7.3%", "12.2%", "13.5%"):
        assert (claims[number]["subject"], claims[number]["versus"]) == ("Kestrow", None), number
