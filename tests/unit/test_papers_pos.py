"""The parse's parts of speech without spaCy's attribute_ruler (``_pos.PosRules``): the same ``pos_`` on every
token as the trained pipeline's own ruler gives, a subject decided through the whole extraction as before,
and spaCy's ruler kept for a table of a shape the rules do not read."""

from __future__ import annotations

import importlib.util

import pytest
from papers_extract import claims_by_text

from assay.dsl import get_operator
from assay.operators.papers import _nlp
from assay.operators.papers._pos import PosRules

TRAINED = importlib.util.find_spec(_nlp.TRAINED_MODEL) is not None
needs_model = pytest.mark.skipif(not TRAINED, reason="the trained English pipeline is not installed")

# Own-worded sentences with the words the ruler's exceptions name (pronouns, "that", "something", auxiliaries,
# subordinating words, determiners standing alone) beside ordinary result sentences.
SENTENCES = [
    "We present Tallow, a scheduler that places jobs 2.3x faster than the baseline, which is 40% of peak.",
    "Something in the allocator is slower, but it still beats everything we tried before.",
    "If the cache is warm, that alone reduces latency by 18%, although nobody had measured it.",
    "Those are the runs that we kept; this one has been repeated since it was noisy.",
    "Ours does not stall whereas theirs can, and we would not have guessed it.",
    "The runtime, whose planner is 3x cheaper, lets them train while I wait.",
]


@needs_model
def test_pos_rules_give_every_token_the_attribute_rulers_part_of_speech():
    spacy = _nlp.import_spacy()
    full = spacy.load(_nlp.TRAINED_MODEL, exclude=["ner", "lemmatizer", "senter"])
    parser = _nlp.build_parser()
    assert "attribute_ruler" not in parser.nlp.pipe_names  # replaced, not run twice
    for text in SENTENCES:
        expected = [(t.text, t.pos_) for t in full(text)]
        assert [(t.text, t.pos_) for t in parser(text)] == expected
        assert [(t.text, t.pos_) for t in next(parser.pipe([text]))] == expected


@needs_model
def test_a_doubtful_sentence_is_still_decided_by_the_parse():
    bound = get_operator("extract_knowledge").bind(parse="auto")
    c = claims_by_text("We present Orca, a serving system. DeepSpeed reaches 1.5x over Megatron-LM.", bound)
    assert c["1.5x"]["subject"] == "DeepSpeed"


def test_a_ruler_table_of_another_shape_keeps_spacys_ruler():
    tag = {"patterns": [[{"TAG": "NN"}]], "attrs": {"POS": "NOUN"}, "index": 0}
    assert PosRules.from_ruler([tag]) is not None
    assert PosRules.from_ruler([tag, {"patterns": [[{"TAG": "NN", "OP": "+"}]], "attrs": {"POS": "X"}}]) is None
    assert PosRules.from_ruler([{"patterns": [[{"SHAPE": "dd"}]], "attrs": {"POS": "NUM"}}]) is None
    # groups that set no part of speech are not read
    assert PosRules.from_ruler([{"patterns": [[{"SHAPE": "dd"}]], "attrs": {"MORPH": "x"}}]) is not None
