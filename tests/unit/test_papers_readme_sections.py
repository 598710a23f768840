"""A README's results under a heading that is a component's name (``### FooChat``) are that component's; a
list item labelled by a link of a few words (``- [FooFold with Intel](url): 3x faster``) is the label's. A
heading that names a model the section trains ("GPT-2") or a part of a paper ("ABSTRACT") names no subject.
Through the public papers path (Markdown files read as ``assay run papers`` reads them)."""

from __future__ import annotations

from papers_extract import file_claims

README = """# FooAI

FooAI is a system that makes large-model training cheaper.

## News

* [2024/05] FooAI 1.2 released.

### FooChat

[FooChat](https://example.org/chat): a complete RLHF pipeline

- Trains the reward stage up to 7.5x faster

- Serves a single GPU 1.4x faster

### GPT-2

- Trains a model 20x larger on the same hardware

### Applications

- [FooFold with Intel](https://example.org/fold): 3x faster inference and 39% lower cost
"""


def _by_value(tmp_path):
    return {(c["value"], c["unit"]): c for c in file_claims(tmp_path, README, "README.md")}


def test_results_under_a_component_s_heading_are_the_component_s(tmp_path):
    claims = _by_value(tmp_path)
    assert claims[(7.5, "x")]["subject"] == "FooChat"
    assert claims[(1.4, "x")]["subject"] == "FooChat"


def test_a_model_s_heading_leaves_the_system_as_the_subject(tmp_path):
    assert _by_value(tmp_path)[(20.0, "x")]["subject"] != "GPT-2"


def test_a_list_item_labelled_by_a_link_of_several_words_is_the_label_s(tmp_path):
    claims = _by_value(tmp_path)
    # the label's name (the link's words, or its first, a name the text uses on its own)
    assert claims[(3.0, "x")]["subject"].startswith("FooFold")
    assert claims[(39.0, "%")]["subject"].startswith("FooFold")
