"""Scoring extracted numeric claims against a gold file.

The gold file has one JSON object per line, in one of two shapes:

- ``{"index": i, "gold": {"claims": [...], ...}}`` and, for a corpus of files, ``"source"`` (a file name)
  and ``"row"`` (the row of a collection, else null);
- ``{"doc": "<file stem>", "claims": [...]}``: one paper, found in the corpus folder by its file's stem
  (``paper.pdf``, ``paper.tex``, ``paper.md``...), the shape of the real-papers measuring set.

Each gold claim has ``unit`` and ``value`` or ``value_low``/``value_high`` (plus ``text`` and attribution
fields: ``subject``, ``versus`` and optional ``aliases``/``versus_aliases``, other names of the same system
or baseline that count as right). A claim of ``"type": "context"`` (background figures: prior work's
numbers, cluster statistics) is neutral: a prediction matching it is neither right nor wrong, and it is not
in the recall.

The headline score counts ratio claims (unit ``x`` or ``%`` after normalising ×, times, 倍, ％): a
predicted claim matches a gold claim of the same document when the units agree and the value (or both
ends of a range) agree within 0.5 %; matching is one-to-one. Other quantities are scored the same way
and reported separately. Subject and baseline are judged on the matched claims, per document and in all.

Predictions come from the database when it holds the documents (matched by ``doc_id``, or by finding the
abstract's text inside a stored document), otherwise they are extracted in-process with the papers
operators, and the report says which.

Why one module: gold loading, matching and scoring must apply one definition of a right claim to abstracts,
corpora and the database alike (assay eval and the calibration read it).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from assay.ids import content_id

RATIO_UNITS = ("x", "%")
TOLERANCE = 0.005
_X_UNITS = {"x", "×", "times", "倍", "fold", "-fold"}
_PCT_UNITS = {"%", "％", "percent", "per cent"}


@dataclass
class GoldDoc:
    index: int
    claims: list[dict[str, Any]]
    source: str | None = None
    row: int | None = None
    title: str | None = None
    #: The paper's file stem, for gold keyed by ``doc`` (resolved in the corpus folder).
    doc: str | None = None

    @property
    def name(self) -> str:
        """How the report names this document: its ``doc`` stem, its source file (and row), or its index."""
        if self.doc:
            return self.doc
        if self.source:
            return self.source if self.row is None else f"{self.source}#{self.row}"
        return f"#{self.index}"


@dataclass
class Item:
    """A claim in a report: which document, its value and unit, and its source text."""

    doc: int
    unit: str
    value: float | None
    value_low: float | None
    value_high: float | None
    text: str | None

    def describe(self) -> str:
        value = f"{_num(self.value_low)}-{_num(self.value_high)}" if self.value is None else _num(self.value)
        return f"[{self.doc}] {value} {self.unit}  {json.dumps(self.text, ensure_ascii=False)}"


@dataclass
class Score:
    tp: int = 0
    n_gold: int = 0
    n_pred: int = 0
    #: Matched claims whose subject, baseline (``versus``), and both, agree with the gold claim's.
    subject_right: int = 0
    versus_right: int = 0
    attributed: int = 0
    #: Predictions that matched a ``context`` gold claim: counted nowhere else.
    neutral: int = 0
    misses: list[Item] = field(default_factory=list)
    false_positives: list[Item] = field(default_factory=list)
    misattributed: list[str] = field(default_factory=list)
    #: The same counts for each document (by gold key), each without its own ``documents``.
    documents: dict[int, Score] = field(default_factory=dict)

    @property
    def precision(self) -> float:
        return self.tp / self.n_pred if self.n_pred else 1.0

    @property
    def recall(self) -> float:
        return self.tp / self.n_gold if self.n_gold else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def attribution(self) -> float:
        """Share of the matched claims with subject and baseline both right."""
        return self.attributed / self.tp if self.tp else 1.0

    @property
    def subject_share(self) -> float:
        """Share of the matched claims with the subject right."""
        return self.subject_right / self.tp if self.tp else 1.0

    @property
    def versus_share(self) -> float:
        """Share of the matched claims with the baseline right."""
        return self.versus_right / self.tp if self.tp else 1.0

    @property
    def attributed_precision(self) -> float:
        return self.attributed / self.n_pred if self.n_pred else 1.0

    @property
    def attributed_recall(self) -> float:
        return self.attributed / self.n_gold if self.n_gold else 1.0

    def add(self, other: Score) -> None:
        """Fold another score's counts and lists into this one (not its ``documents``)."""
        for name in ("tp", "n_gold", "n_pred", "subject_right", "versus_right", "attributed", "neutral"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.misses += other.misses
        self.false_positives += other.false_positives
        self.misattributed += other.misattributed

    def counts(self) -> dict[str, Any]:
        """The figures without the lists: what a per-document row shows."""
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "tp": self.tp,
            "n_gold": self.n_gold,
            "n_pred": self.n_pred,
            "neutral": self.neutral,
            "subject_right": self.subject_right,
            "versus_right": self.versus_right,
            "attributed": self.attributed,
            "attribution": round(self.attribution, 4),
        }

    def as_dict(self, names: Mapping[int, str] | None = None) -> dict[str, Any]:
        names = names or {}
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "tp": self.tp,
            "n_gold": self.n_gold,
            "n_pred": self.n_pred,
            "attribution": round(self.attribution, 4),
            "subject_right": self.subject_right,
            "versus_right": self.versus_right,
            "attributed": self.attributed,
            "neutral": self.neutral,
            "attributed_precision": round(self.attributed_precision, 4),
            "attributed_recall": round(self.attributed_recall, 4),
            "misses": [asdict(i) for i in self.misses],
            "false_positives": [asdict(i) for i in self.false_positives],
            "misattributed": self.misattributed,
            "documents": [
                {"doc": names.get(key, f"#{key}"), **s.counts()} for key, s in sorted(self.documents.items())
            ],
        }


@dataclass
class Report:
    headline: Score
    other: Score
    n_documents: int
    from_db: int = 0
    extracted: int = 0
    db: str | None = None
    notes: list[str] = field(default_factory=list)
    #: Each document's name (its ``doc`` stem, source file or index) by gold key.
    names: dict[int, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "headline": self.headline.as_dict(self.names),
            "other": self.other.as_dict(self.names),
            "n_documents": self.n_documents,
            "from_db": self.from_db,
            "extracted": self.extracted,
            "db": self.db,
            "notes": self.notes,
        }


# -- reading the inputs -----------------------------------------------------------------------------------
def load_gold(path: str | os.PathLike[str]) -> list[GoldDoc]:
    """Gold documents in file order; a malformed line raises ValueError naming the line."""
    docs = []
    for line_no, line in enumerate(Path(path).read_text("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            # one paper keyed by its file's stem, claims at the top level; else the indexed shape
            gold = obj if "doc" in obj and "gold" not in obj else obj["gold"]
            claims = list(gold.get("claims") or [])
            for claim in claims:
                if "unit" not in claim or ("value" not in claim and "value_low" not in claim):
                    raise KeyError("each claim needs 'unit' and 'value' (or 'value_low'/'value_high')")
            docs.append(
                GoldDoc(
                    int(obj.get("index", len(docs))),
                    claims,
                    obj.get("source"),
                    obj.get("row"),
                    gold.get("title"),
                    str(obj["doc"]) if obj.get("doc") is not None else None,
                )
            )
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}:{line_no}: not a gold line ({exc})") from exc
    return docs


def split_abstracts(text: str) -> list[str]:
    """Paragraphs separated by blank lines, stripped; paragraph i is gold index i."""
    return [p.strip() for p in re.split(r"\n[ \t]*\n", text) if p.strip()]


# -- matching ---------------------------------------------------------------------------------------------
def normalise_unit(unit: str | None) -> str:
    u = " ".join(str(unit or "").replace("\\", "").split()).strip().lower()
    if u in _X_UNITS:
        return "x"
    if u in _PCT_UNITS:
        return "%"
    return u


def is_ratio(claim: Mapping[str, Any]) -> bool:
    return normalise_unit(claim.get("unit")) in RATIO_UNITS


def _close(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return False
    a, b = float(a), float(b)
    return abs(a - b) <= TOLERANCE * max(abs(a), abs(b)) or a == b


def claims_match(pred: Mapping[str, Any], gold: Mapping[str, Any]) -> bool:
    """Same unit, and the same value or the same range ends, within 0.5 %."""
    if normalise_unit(pred.get("unit")) != normalise_unit(gold.get("unit")):
        return False
    if _present(gold.get("value")):
        return _present(pred.get("value")) and _close(pred["value"], gold["value"])
    return (
        not _present(pred.get("value"))
        and _close(pred.get("value_low"), gold.get("value_low"))
        and _close(pred.get("value_high"), gold.get("value_high"))
    )


_NAME_NOISE = re.compile(r"[\s\-_.,;:()'\"“”‘’`~]+|^(?:the|a|an)\s+", re.I)
_WORD = re.compile(r"[A-Za-z0-9]+|[\u3400-\u9fff]")


def same_name(pred: Any, gold: Any) -> bool:
    """Whether a predicted subject or baseline names what the gold one does: both empty, or equal after
    dropping case, spaces and punctuation, or one holding the other, or sharing most of their words
    (CJK characters count as words), so "the Megatron-LM baseline" names "Megatron-LM"."""
    p, g = _key(pred), _key(gold)
    if not p or not g:
        return not p and not g
    if p == g or (min(len(p), len(g)) >= 2 and (p in g or g in p)):
        return True
    pw, gw = set(_WORD.findall(str(pred).lower())), set(_WORD.findall(str(gold).lower()))
    return bool(pw and gw) and len(pw & gw) / min(len(pw), len(gw)) >= 0.6


def names_right(pred: Mapping[str, Any], gold: Mapping[str, Any]) -> tuple[bool, bool]:
    """Whether the predicted subject and baseline name the gold claim's, its ``aliases`` and
    ``versus_aliases`` counting as the same system (a paper names its system and baselines several ways)."""
    subjects = [gold.get("subject"), *(gold.get("aliases") or [])]
    baselines = [gold.get("versus"), *(gold.get("versus_aliases") or [])]
    subject = any(same_name(pred.get("subject"), name) for name in subjects)
    # an empty baseline is only right when the gold has none (an alias list never makes it right)
    if not _key(pred.get("versus")):
        return subject, not _key(gold.get("versus"))
    versus = any(same_name(pred.get("versus"), name) for name in baselines if _key(name))
    return subject, versus


def is_context(claim: Mapping[str, Any]) -> bool:
    """A gold claim that states background (prior work, cluster statistics), not a result: neutral."""
    return str(claim.get("type") or "").lower() == "context"


def _key(name: Any) -> str:
    return _NAME_NOISE.sub("", str(name or "")).lower()


def _present(v: Any) -> bool:
    return v is not None and not (isinstance(v, float) and v != v)


def _one_to_one(preds: Sequence[Mapping[str, Any]], golds: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """A maximum matching gold index -> prediction index (augmenting paths; the sets are small)."""
    # Among equal values, a prediction from the same section with the same subject and baseline is tried
    # first, so a value stated in the abstract and the conclusion is paired with its own statement.
    options = [
        sorted(
            (j for j, p in enumerate(preds) if claims_match(p, g)),
            key=lambda j, g=g: (
                preds[j].get("section") != g.get("section"),
                not same_name(preds[j].get("subject"), g.get("subject")),
                not same_name(preds[j].get("versus"), g.get("versus")),
            ),
        )
        for g in golds
    ]
    owner: dict[int, int] = {}

    def assign(g: int, seen: set[int]) -> bool:
        for j in options[g]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or assign(owner[j], seen):
                owner[j] = g
                return True
        return False

    for g in range(len(golds)):
        assign(g, set())
    return {g: j for j, g in owner.items()}


def score(
    gold: Mapping[int, Sequence[Mapping[str, Any]]],
    predicted: Mapping[int, Sequence[Mapping[str, Any]]],
    ratio: bool = True,
) -> Score:
    """Score predictions against gold per document, over ratio claims (or, ``ratio=False``, the rest).

    Predictions are matched to the ``result`` claims first; those left over that match a ``context``
    claim are neutral (not counted), so a background figure is neither a miss nor a false positive."""
    result = Score()
    for doc in sorted(set(gold) | set(predicted)):
        one = _score_document(
            doc,
            [c for c in gold.get(doc, ()) if is_ratio(c) == ratio],
            [c for c in predicted.get(doc, ()) if is_ratio(c) == ratio],
        )
        result.add(one)
        result.documents[doc] = one
    return result


def _score_document(doc: int, golds: list[Mapping[str, Any]], preds: list[Mapping[str, Any]]) -> Score:
    one = Score()
    results = [c for c in golds if not is_context(c)]
    context = [c for c in golds if is_context(c)]
    matched = _one_to_one(preds, results)
    used = set(matched.values())
    rest = [j for j in range(len(preds)) if j not in used]
    neutral = {rest[j] for j in _one_to_one([preds[j] for j in rest], context).values()}
    for g, j in matched.items():
        subject, vs = names_right(preds[j], results[g])
        one.subject_right += subject
        one.versus_right += vs
        one.attributed += subject and vs
        if not (subject and vs):
            one.misattributed.append(
                f"[{doc}] {results[g].get('text')!r}: subject {preds[j].get('subject')!r} "
                f"(gold {results[g].get('subject')!r}), versus {preds[j].get('versus')!r} "
                f"(gold {results[g].get('versus')!r})"
            )
    one.tp = len(matched)
    one.n_gold = len(results)
    one.n_pred = len(preds) - len(neutral)
    one.neutral = len(neutral)
    one.misses = [_item(doc, c) for g, c in enumerate(results) if g not in matched]
    one.false_positives = [_item(doc, c) for j, c in enumerate(preds) if j not in used and j not in neutral]
    return one


def verdicts(
    gold: Mapping[int, Sequence[Mapping[str, Any]]], predicted: Mapping[int, Sequence[Mapping[str, Any]]]
) -> dict[int, list[bool]]:
    """For each document, whether each predicted claim (in order) is right as ``score`` judges it: matched
    one-to-one with a gold claim and its subject and baseline both right (ratio claims and the rest are
    matched apart, as in the report)."""
    out: dict[int, list[bool]] = {}
    for doc, preds in predicted.items():
        right = [False] * len(preds)
        for ratio in (True, False):
            golds = [c for c in gold.get(doc, ()) if is_ratio(c) == ratio]
            index = [j for j, c in enumerate(preds) if is_ratio(c) == ratio]
            for g, j in _one_to_one([preds[j] for j in index], golds).items():
                right[index[j]] = all(names_right(preds[index[j]], golds[g]))
        out[doc] = right
    return out


def _item(doc: int, c: Mapping[str, Any]) -> Item:
    def num(key: str) -> float | None:
        return float(c[key]) if _present(c.get(key)) else None

    return Item(
        doc, normalise_unit(c.get("unit")), num("value"), num("value_low"), num("value_high"), c.get("text")
    )


def _num(v: float | None) -> str:
    return "?" if v is None else f"{v:g}"


# -- predictions ------------------------------------------------------------------------------------------
@dataclass
class _Doc:
    key: int
    doc_id: str
    text: str
    uri: str


def evaluate_abstracts(
    gold_path: str | os.PathLike[str],
    abstracts_path: str | os.PathLike[str],
    db: str | os.PathLike[str] | None = None,
    model: str = "blank",
) -> Report:
    """Score claims for a file of abstracts separated by blank lines (paragraph i = gold index i)."""
    gold, docs, notes = _abstract_docs(gold_path, abstracts_path)
    report = _evaluate(gold, docs, db, model, notes)
    report.names = {key: f"#{key}" for key in gold}
    return report


def _abstract_docs(
    gold_path: str | os.PathLike[str], abstracts_path: str | os.PathLike[str]
) -> tuple[dict[int, list[dict[str, Any]]], list[_Doc], list[str]]:
    gold = load_gold(gold_path)
    paragraphs = split_abstracts(Path(abstracts_path).read_text("utf-8", errors="replace"))
    notes = []
    if len(paragraphs) != len(gold):
        notes.append(
            f"{len(paragraphs)} abstracts but {len(gold)} gold lines: scoring the first "
            f"{min(len(paragraphs), len(gold))}"
        )
    n = min(len(paragraphs), len(gold))
    docs = [
        _Doc(gold[i].index, content_id(p), p, f"{abstracts_path}#{i}") for i, p in enumerate(paragraphs[:n])
    ]
    return {g.index: g.claims for g in gold[:n]}, docs, notes


def evaluate_corpus(
    gold_path: str | os.PathLike[str],
    corpus_dir: str | os.PathLike[str],
    db: str | os.PathLike[str] | None = None,
    model: str = "blank",
) -> Report:
    """Score claims for a folder of papers whose gold lines name their ``source`` file (and ``row``)."""
    gold, docs, notes, names = corpus_documents(gold_path, corpus_dir)
    report = _evaluate(gold, docs, db, model, notes)
    report.names = names
    return report


def _corpus_docs(
    gold_path: str | os.PathLike[str], corpus_dir: str | os.PathLike[str]
) -> tuple[dict[int, list[dict[str, Any]]], list[_Doc], list[str]]:
    gold, docs, notes, _ = corpus_documents(gold_path, corpus_dir)
    return gold, docs, notes


def corpus_documents(
    gold_path: str | os.PathLike[str], corpus_dir: str | os.PathLike[str]
) -> tuple[dict[int, list[dict[str, Any]]], list[_Doc], list[str], dict[int, str]]:
    """The gold claims, the documents read from ``corpus_dir`` (by ``source``, or by the ``doc`` stem), notes
    on files that could not be read, and each document's name, all by gold key."""
    from assay.dsl import get_operator

    gold = load_gold(gold_path)
    missing = [g for g in gold if not g.source and not g.doc]
    if missing:
        raise ValueError(
            f"{gold_path}: gold line {missing[0].index} has no 'source' file name or 'doc' stem; "
            "use --abstracts for gold keyed by paragraph"
        )
    notes: list[str] = []
    for g in gold:
        if not g.source:
            g.source = find_by_stem(corpus_dir, g.doc or "")
            if g.source is None:
                notes.append(f"{g.doc}: no file with this stem in {corpus_dir}")
    read = get_operator("read_paper")
    docs: list[_Doc] = []
    by_source: dict[str, list[dict[str, Any]]] = {}
    for source in sorted({g.source for g in gold if g.source}):
        path = Path(corpus_dir) / source
        records, failures = read.run([{"source_uri": str(path)}])
        if failures:
            notes.append(f"{source}: {failures[0].error}")
        by_source[source] = records
    for g in gold:
        records = by_source.get(g.source or "", [])
        row = g.row if g.row is not None else 0
        if row < len(records):
            r = records[row]
            docs.append(_Doc(g.index, r["doc_id"], r["text"], r["uri"]))
    return {g.index: g.claims for g in gold}, docs, notes, {g.index: g.name for g in gold}


def find_by_stem(folder: str | os.PathLike[str], stem: str) -> str | None:
    """The file of ``folder`` (or of its ``docs`` subfolder, as a measuring set lays it out) whose name
    without its extension is ``stem``, relative to ``folder``; the first by name when several are."""
    root = Path(folder)
    for where in (root, root / "docs"):
        if where.is_dir():
            found = sorted(p for p in where.iterdir() if p.is_file() and p.stem == stem)
            if found:
                return found[0].relative_to(root).as_posix()
    return None


def gold_and_predictions(
    gold_path: str | os.PathLike[str], source: str | os.PathLike[str], model: str = "blank"
) -> tuple[dict[int, list[dict[str, Any]]], dict[int, list[dict[str, Any]]]]:
    """The gold claims and the claim rows extracted in-process, per document key, for a gold file and its
    ``source``: a folder of papers (``evaluate_corpus``) or a file of abstracts (``evaluate_abstracts``)."""
    if Path(source).is_dir():
        gold, docs, _ = _corpus_docs(gold_path, source)
    else:
        gold, docs, _ = _abstract_docs(gold_path, source)
    return gold, extract_claims(docs, model)


def _evaluate(
    gold: dict[int, list[dict[str, Any]]],
    docs: list[_Doc],
    db: str | os.PathLike[str] | None,
    model: str,
    notes: list[str],
) -> Report:
    predicted: dict[int, list[dict[str, Any]]] = {}
    from_db = 0
    if db is not None and Path(db).exists():
        found = claims_from_db(db, docs)
        predicted.update(found)
        from_db = len(found)
    rest = [d for d in docs if d.key not in predicted]
    if rest:
        predicted.update(extract_claims(rest, model))
        where = f" (not in {db})" if db is not None and Path(db).exists() else ""
        notes.append(f"extracted {len(rest)} document(s) in-process with the papers operators{where}")
    report = Report(
        score(gold, predicted, ratio=True),
        score(gold, predicted, ratio=False),
        len(docs),
        from_db,
        len(rest),
        str(db) if db is not None and Path(db).exists() else None,
        notes,
    )
    return report


def claims_from_db(db: str | os.PathLike[str], docs: Iterable[_Doc]) -> dict[int, list[dict[str, Any]]]:
    """Claims stored for these documents: by ``doc_id``, else by locating the text in a stored document
    (a file of abstracts ingested as one document)."""
    from assay.store.queries_claims import claims_of_texts

    docs = list(docs)
    found = claims_of_texts(db, [(d.doc_id, d.text) for d in docs])
    return {d.key: claims for d, claims in zip(docs, found, strict=True) if claims is not None}


def extract_claims(docs: Sequence[_Doc], model: str = "blank") -> dict[int, list[dict[str, Any]]]:
    """Claims from the papers operators run in this process (no Ray, no database)."""
    from assay.dsl import get_operator

    records = [{"source_uri": d.uri, "doc_id": d.doc_id, "text": d.text} for d in docs]
    segmented, _ = get_operator("segment_text").run(records)
    extracted, failures = get_operator("extract_knowledge").run(segmented, model=model)
    if failures:
        raise RuntimeError(f"extraction failed: {failures[0].error}")
    by_id: dict[str, list[dict[str, Any]]] = {r["doc_id"]: r["claims"] for r in extracted}
    return {d.key: by_id.get(d.doc_id, []) for d in docs}


def document_lines(total: Score, names: Mapping[int, str] | None = None) -> list[str]:
    """One line per document of a score: its name, P, R and the subject/baseline/both counts."""
    names = names or {}
    width = max((len(names.get(k, f"#{k}")) for k in total.documents), default=4)
    return [
        f"{names.get(k, f'#{k}'):<{width}}  P {d.precision:.2f}  R {d.recall:.2f}  "
        f"({d.tp}/{d.n_gold} gold, {d.n_pred} predicted{f', {d.neutral} neutral' if d.neutral else ''})  "
        f"subject {d.subject_right}/{d.tp}  baseline {d.versus_right}/{d.tp}  both {d.attributed}/{d.tp}"
        for k, d in sorted(total.documents.items(), key=lambda kv: names.get(kv[0], f"#{kv[0]:09d}"))
    ]


def format_report(report: Report, show: int = 50) -> str:
    """The report as text for a terminal."""
    h, o = report.headline, report.other
    lines = [
        f"Numeric claims, {report.n_documents} documents",
        f"  headline (ratio claims, unit x or %): precision {h.precision:.3f}  recall {h.recall:.3f}  "
        f"F1 {h.f1:.3f}  ({h.tp} matched, {h.n_pred} predicted, {h.n_gold} gold)",
        f"  other quantities:                     precision {o.precision:.3f}  recall {o.recall:.3f}  "
        f"F1 {o.f1:.3f}  ({o.tp} matched, {o.n_pred} predicted, {o.n_gold} gold)",
        f"  attribution (ratio claims matched): subject and versus right {h.attribution:.3f} "
        f"({h.attributed}/{h.tp}; subject {h.subject_right}, versus {h.versus_right}); judged with it: "
        f"precision {h.attributed_precision:.3f}  recall {h.attributed_recall:.3f}",
        f"  subject right {h.subject_share:.3f}, baseline right {h.versus_share:.3f}, both {h.attribution:.3f}"
        + (
            f"; {h.neutral} prediction(s) matched background (context) claims, not counted"
            if h.neutral
            else ""
        ),
    ]
    if len(h.documents) > 1 or report.names:
        lines.append(
            "per document (ratio claims): precision, recall, then of the matched: subject, baseline, both"
        )
        lines += [f"  {line}" for line in document_lines(h, report.names)]
    if report.db:
        lines.append(f"  predictions: {report.from_db} document(s) from {report.db}")
    lines += [f"  note: {n}" for n in report.notes]
    for title, items in (
        ("misses (gold claims not found)", h.misses + o.misses),
        ("false positives (predicted, not in gold)", h.false_positives + o.false_positives),
        ("misattributed (ratio claims matched, subject or versus wrong)", h.misattributed),
    ):
        if items:
            lines.append(f"{title}: {len(items)}")
            lines += [f"  {i if isinstance(i, str) else i.describe()}" for i in items[:show]]
            if len(items) > show:
                lines.append(f"  ... {len(items) - show} more (--show N)")
    return "\n".join(lines)
