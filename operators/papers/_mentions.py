"""Entity mentions: the ``Mention`` record, the ones spaCy's rules (and NER) find, overlap resolution and a
position index.

Every mention carries character offsets into the document text; overlapping name mentions are resolved
to the longest, rule-based ones winning over statistical (NER) ones.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assay.operators.papers._gazetteer import generic_names
from assay.operators.papers._nlp import SPANS_KEY

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: Types whose mentions are configurations (a count of devices, a model size) rather than names.
COUNT_SOURCE = "count"


@dataclass
class Mention:
    start: int
    end: int
    text: str
    type: str
    name: str
    confidence: float
    source: str  # gazetteer | rule | heuristic | ner | count

    @property
    def span(self) -> tuple[int, int]:
        return self.start, self.end


_NER_TYPES = {"ORG": "organization", "PRODUCT": "system"}


def from_doc(doc: Doc, offset: int, use_ner: bool) -> list[Mention]:
    """Mentions found by the pipeline's rules (and its NER when trained) in one piece of the text."""
    out = [
        Mention(
            span.start_char + offset,
            span.end_char + offset,
            span.text,
            span.label_,
            span.id_ or span.text,
            0.95,
            "gazetteer",
        )
        for span in doc.spans[SPANS_KEY]
    ]
    if use_ner:
        for ent in doc.ents:
            type_ = _NER_TYPES.get(ent.label_)
            if type_ and any(c.isupper() for c in ent.text) and ent.text.lower() not in generic_names():
                out.append(
                    Mention(
                        ent.start_char + offset, ent.end_char + offset, ent.text, type_, ent.text, 0.5, "ner"
                    )
                )
    return out


def resolve(mentions: list[Mention]) -> list[Mention]:
    """Non-overlapping name mentions (longest first, rules before NER); counts and sizes are resolved apart.

    A sweep over mentions sorted by start groups overlapping ones into clusters, so the cost is
    O(n log n) even for a document with millions of mentions.
    """
    names = [m for m in mentions if m.source != COUNT_SOURCE]
    counts = [m for m in mentions if m.source == COUNT_SOURCE]
    kept = _non_overlapping(names) + _non_overlapping(counts)
    return sorted(kept, key=lambda m: (m.start, m.end))


_RANK = {"gazetteer": 0, "heuristic": 1, "rule": 1, "count": 1, "ner": 2}


def _non_overlapping(mentions: list[Mention]) -> list[Mention]:
    kept: list[Mention] = []
    cluster: list[Mention] = []
    cluster_end = -1
    for m in sorted(mentions, key=lambda m: (m.start, -m.end)):
        if m.start >= cluster_end and cluster:
            kept.extend(_best_of(cluster))
            cluster = []
        cluster.append(m)
        cluster_end = max(cluster_end, m.end) if len(cluster) > 1 else m.end
    if cluster:
        kept.extend(_best_of(cluster))
    return kept


def _best_of(cluster: list[Mention]) -> list[Mention]:
    if len(cluster) == 1:
        return cluster
    chosen: list[Mention] = []
    # longest first among the rule-based mentions (a paper's "DeepSpeed-Foo" over the gazetteer's "DeepSpeed"
    # it starts with), the gazetteer's before other rules' at equal length; NER's last
    for m in sorted(
        cluster, key=lambda m: (m.source == "ner", -(m.end - m.start), _RANK.get(m.source, 1), m.start)
    ):
        if all(m.end <= c.start or m.start >= c.end for c in chosen):
            chosen.append(m)
    return chosen


class MentionIndex:
    """Mentions sorted by start, for the ones inside a span or overlapping it, by binary search."""

    def __init__(self, mentions: list[Mention]):
        self.mentions = sorted(mentions, key=lambda m: (m.start, m.end))
        self.starts = [m.start for m in self.mentions]
        self.longest = max((m.end - m.start for m in self.mentions), default=0)

    def inside(self, lo: int, hi: int) -> list[Mention]:
        i = bisect.bisect_left(self.starts, lo)
        j = bisect.bisect_left(self.starts, hi)
        return [m for m in self.mentions[i:j] if m.end <= hi]

    def overlapping(self, lo: int, hi: int) -> list[Mention]:
        i = bisect.bisect_left(self.starts, lo - self.longest)
        j = bisect.bisect_left(self.starts, hi)
        return [m for m in self.mentions[i:j] if m.end > lo]
