"""Scores of predictions against gold: counts per document and in all, with the misses, the false
positives and the misattributed claims, and each prediction's verdict.

Ratio claims (unit ``x`` or ``%``) make the headline score; other quantities are scored the same way and
reported apart. A claim of ``"type": "context"`` (background figures: prior work's numbers, cluster
statistics) is neutral: a prediction matching it is neither right nor wrong, and it is not in the recall.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from assay.evaluation._matching import (
    exact_name,
    is_context,
    is_ratio,
    names_right,
    normalise_unit,
    one_to_one,
    present,
)


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
    #: Matched claims whose subject and baseline are both right by name, not by containment
    #: (``exact_name``): the strict figure beside ``attributed``.
    attributed_exact: int = 0
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
    def attribution_exact(self) -> float:
        """Share of the matched claims with subject and baseline both right by exact name."""
        return self.attributed_exact / self.tp if self.tp else 1.0

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
        for name in (
            "tp",
            "n_gold",
            "n_pred",
            "subject_right",
            "versus_right",
            "attributed",
            "attributed_exact",
            "neutral",
        ):
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
            "attributed_exact": self.attributed_exact,
            "attribution_exact": round(self.attribution_exact, 4),
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
            "attributed_exact": self.attributed_exact,
            "attribution_exact": round(self.attribution_exact, 4),
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
    matched = one_to_one(preds, results)
    used = set(matched.values())
    rest = [j for j in range(len(preds)) if j not in used]
    neutral = {rest[j] for j in one_to_one([preds[j] for j in rest], context).values()}
    for g, j in matched.items():
        subject, vs = names_right(preds[j], results[g])
        one.subject_right += subject
        one.versus_right += vs
        one.attributed += subject and vs
        one.attributed_exact += all(names_right(preds[j], results[g], exact_name))
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
            for g, j in one_to_one([preds[j] for j in index], golds).items():
                right[index[j]] = all(names_right(preds[index[j]], golds[g]))
        out[doc] = right
    return out


def _item(doc: int, c: Mapping[str, Any]) -> Item:
    def num(key: str) -> float | None:
        return float(c[key]) if present(c.get(key)) else None

    return Item(
        doc, normalise_unit(c.get("unit")), num("value"), num("value_low"), num("value_high"), c.get("text")
    )


def _num(v: float | None) -> str:
    return "?" if v is None else f"{v:g}"
