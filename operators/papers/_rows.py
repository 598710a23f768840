"""A document's table rows: ``claims``, ``entities``, ``mentions`` and ``relations``, from its attributed
claims and resolved mentions. Ids are deterministic (``assay.ids``), so a re-run yields the same rows; a
module of its own because it is the one place that knows the tables' columns.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from assay.ids import stable_id
from assay.operators.papers import _confidence
from assay.operators.papers._baselines import inside
from assay.operators.papers._claims import Claim
from assay.operators.papers._gazetteer import entity_id, generic_names, normalise
from assay.operators.papers._mentions import Mention, MentionIndex
from assay.operators.papers._proposals import Proposal
from assay.operators.papers._sentences import sentence_at
from assay.operators.papers._settings import FIELDS

_NAME_IN_PHRASE = re.compile(
    r"(?<![A-Za-z0-9-])(?:[A-Z][A-Za-z0-9]*|[a-z]{1,3}[A-Z][A-Za-z0-9]*)(?:-[A-Za-z0-9]+)*"
)


def claim_row(c: Claim, doc_id: str, operator: str, lang: str) -> dict[str, Any]:
    sentence = c.sentence or (None, None)
    return {
        "claim_id": stable_id(doc_id, operator, c.start, c.end, c.unit, c.value, c.value_low, c.value_high),
        "doc_id": doc_id,
        "subject": c.subject,
        "metric": c.metric,
        "value": c.value,
        "value_low": c.value_low,
        "value_high": c.value_high,
        "unit": c.unit,
        "qualifier": c.qualifier,
        "versus": c.versus,
        "implied_versus": c.implied_versus,
        "setting": c.setting,
        "text": c.text,
        "start": c.start,
        "end": c.end,
        "operator": operator,
        "confidence": c.confidence,
        # What the confidence was read from (not stored): the calibration refits on it.
        "confidence_basis": " ".join(_confidence.features(c, lang)),
        "sentence_start": sentence[0],
        "sentence_end": sentence[1],
        "section": c.section,
        **{name: c.fields.get(name) for name in FIELDS},
    }


# -- entities and mentions --------------------------------------------------------------------------------
def baseline_mentions(text: str, claims: list[Claim], mentions: MentionIndex) -> list[Mention]:
    """Unknown names inside a claim's comparison phrase ("over EPS and OCS") are the baselines' names."""
    out = []
    for claim in claims:
        span = claim.versus_span
        if not span:
            continue
        for m in _NAME_IN_PHRASE.finditer(text, span[0], span[1]):
            name = m.group()
            if name.lower() in generic_names() or len(name) < 2:
                continue
            if mentions.overlapping(m.start(), m.end()):
                continue
            out.append(Mention(m.start(), m.end(), name, "system", name, 0.5, "rule"))
    return out


def entity_rows(mentions: list[Mention]) -> list[dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for m in mentions:
        key = entity_id(m.type, m.name)
        row = rows.setdefault(key, {"entity_id": key, "name": m.name, "type": m.type, "aliases": []})
        if normalise(m.text) != normalise(m.name) and m.text not in row["aliases"]:
            row["aliases"].append(m.text)
    return list(rows.values())


def mention_row(m: Mention, doc_id: str, operator: str) -> dict[str, Any]:
    return {
        "entity_id": entity_id(m.type, m.name),
        "doc_id": doc_id,
        "start": m.start,
        "end": m.end,
        "text": m.text,
        "operator": operator,
    }


# -- relations --------------------------------------------------------------------------------------------
def relations(
    doc_id: str,
    sentences: np.ndarray,
    claims: list[Claim],
    mentions: MentionIndex,
    proposed: list[Proposal],
    operator: str,
) -> list[dict[str, Any]]:
    # One row per (subject, predicate, object) and document, its evidence the first sentence stating it.
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}

    def add(subject: str, predicate: str, obj: str, start: int, end: int, confidence: float) -> None:
        key = (subject, predicate, obj)
        if key in rows:
            return
        rows[key] = {
            "relation_id": stable_id(doc_id, operator, subject, predicate, obj),
            "subject_id": subject,
            "predicate": predicate,
            "object_id": obj,
            "doc_id": doc_id,
            "start": start,
            "end": end,
            "operator": operator,
            "confidence": round(confidence, 3),
        }

    for p in proposed:
        start, end = sentence_at(sentences, p.start) or (p.start, p.end)
        add(doc_id, "proposes", entity_id("system", p.name), start, end, p.confidence)
    for claim in claims:
        if not claim.subject:
            continue
        subject = entity_id("system", claim.subject)
        start, end = claim.sentence or (claim.start, claim.end)
        span = claim.versus_span
        for m in mentions.inside(start, end):
            if m.name == claim.subject:
                continue
            if inside(m, span) and m.type in ("system", "method", "model"):
                add(
                    subject,
                    "compared_with",
                    entity_id(m.type, m.name),
                    start,
                    end,
                    min(claim.confidence, m.confidence),
                )
            elif not inside(m, span) and m.type in ("hardware", "model"):
                add(
                    subject,
                    "evaluated_on",
                    entity_id(m.type, m.name),
                    start,
                    end,
                    min(claim.confidence, m.confidence) * 0.9,
                )
    return list(rows.values())
