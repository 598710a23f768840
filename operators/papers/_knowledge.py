"""Assembling one document's knowledge: entities, mentions, claims and relations as table rows.

Input: the document text, its sentence spans, and the mentions the spaCy rules found. Everything here is
plain Python over offsets. The pass: the paper's own and compared systems (``_proposals``) become mentions,
claims are found in the prose, attributed (``_attribution``), their doubtful subjects parsed in one batch
for all documents (``_subjects``), and the rows built (``_rows``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from assay.operators.papers import _confidence
from assay.operators.papers._anaphora import continue_numbers
from assay.operators.papers._attribution import attribute
from assay.operators.papers._claims import Claim, find_claims
from assay.operators.papers._clause import bracketed_multiple, table_result
from assay.operators.papers._configs import hardware_counts, sized_models
from assay.operators.papers._list_subjects import distribute_subjects
from assay.operators.papers._mentions import Mention, MentionIndex, resolve
from assay.operators.papers._own_systems import own_systems
from assay.operators.papers._parse import Parser
from assay.operators.papers._proposals import (
    Proposal,
    compared_systems,
    occurrences,
    proposals,
)
from assay.operators.papers._rows import baseline_mentions, claim_row, entity_rows, mention_row, relations
from assay.operators.papers._sections import ACKNOWLEDGEMENTS, REFERENCES, Structure
from assay.operators.papers._sentences import chunk_spans
from assay.operators.papers._subjects import (
    Doubt,
    continue_subjects,
    decide_by_parse,
    doubts,
)
from assay.operators.papers._tables import attribute_cells
from assay.operators.papers._title_names import short_form

#: Characters of text scanned for claims at a time: a long document is read piece by piece, so the
#: claim limit stops the scan early.
CLAIM_SCAN_CHARS = 1_000_000


@dataclass(frozen=True)
class Limits:
    """Most rows kept per document. A paper has hundreds of claims and a few thousand mentions; a text
    past these limits is a table dump or a log, and the rest of it is reported, not silently dropped."""

    max_claims: int = 10_000
    max_mentions: int = 50_000


class Source(NamedTuple):
    """One document as :func:`knowledge_batch` takes it: its text, sentence spans and the spaCy mentions."""

    doc_id: str
    text: str
    lang: str
    sentences: np.ndarray
    found: list[Mention]
    title: str | None = None


def knowledge(
    doc_id: str,
    text: str,
    lang: str,
    sentences: np.ndarray,
    found: list[Mention],
    operator: str,
    limits: Limits = Limits(),
    title: str | None = None,
    parse: Parser | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """The ``entities``, ``mentions``, ``claims`` and ``relations`` rows of one document, and ``issues``.

    ``parse`` (a trained spaCy pipeline with a parser) decides the subject of claims whose sentence leaves
    it in doubt; without it the rules decide."""
    return knowledge_batch([Source(doc_id, text, lang, sentences, found, title)], operator, limits, parse)[0]


def knowledge_batch(
    sources: list[Source], operator: str, limits: Limits = Limits(), parse: Parser | None = None
) -> list[dict[str, list[dict[str, Any]]]]:
    """:func:`knowledge` of each document, the doubtful sentences of all of them parsed in one
    ``parse.pipe`` call: batched, the parser runs about twice as fast per sentence as one at a time."""
    drafts = [_draft(source, operator, limits) for source in sources]
    if parse is not None:
        found = [d for draft in drafts if draft.lang == "en" for d in _doubts(draft)]
        decide_by_parse(found, parse)
    return [_finish(draft, operator, limits) for draft in drafts]


@dataclass
class _Draft:
    """A document's claims attributed by the rules, waiting for the parse of its doubtful sentences."""

    doc_id: str
    text: str
    lang: str
    sentences: np.ndarray
    claims: list[Claim]
    mentions: list[Mention]
    subjects: list[Mention]
    proposed: list[Proposal]
    own: list[str]
    issues: list[dict[str, Any]]


def _draft(source: Source, operator: str, limits: Limits) -> _Draft:
    doc_id, text, lang, sentences, found, title = source
    issues: list[dict[str, Any]] = []
    cap = limits.max_mentions
    found = found + hardware_counts(text, found, cap) + sized_models(text, found, cap)
    structure = Structure(text)
    # a name the acknowledgements give (a centre thanked for its support) is none the paper proposes
    proposed = [p for p in proposals(text, lang, found, title) if structure.section(p.start) != ACKNOWLEDGEMENTS]
    # each named as the body names it: "Sparsity-aware Memory Optimization (SAMO)" is SAMO after that
    own = list(dict.fromkeys(short_form(text, n) for n in own_systems(text, proposed, found, structure.section)))
    found = found + _proposal_mentions(text, lang, proposed, cap)
    compared = compared_systems(text, lang, own, found)
    found = found + _names_mentions(text, lang, compared, cap)
    mentions = resolve(found)
    claims = find_claims(text, chunk_spans(text, sentences, CLAIM_SCAN_CHARS), limits.max_claims)
    claims = _in_prose(claims, structure)
    if len(claims) > limits.max_claims:
        claims = claims[: limits.max_claims]
        issues.append(
            {
                "operator": operator,
                "error": f"more than {limits.max_claims} numeric claims: kept those "
                f"before offset {claims[-1].end} (extract_knowledge max_claims=... keeps more)",
            }
        )
    subjects = attribute(text, lang, sentences, claims, MentionIndex(mentions), own, structure)
    return _Draft(doc_id, text, lang, sentences, claims, mentions, subjects, proposed, own, issues)


def _finish(draft: _Draft, operator: str, limits: Limits) -> dict[str, list[dict[str, Any]]]:
    doc_id, text, lang, claims, proposed = draft.doc_id, draft.text, draft.lang, draft.claims, draft.proposed
    cap = limits.max_mentions
    # a table cell's row and column name its system and baseline (after the parse, which reads sentences)
    references = {id(c) for c in attribute_cells(text, claims, draft.own, draft.mentions)}
    claims = draft.claims = [c for c in claims if id(c) not in references]
    own = {n.lower() for n in draft.own}
    continue_subjects(text, claims, own)
    distribute_subjects(text, claims, MentionIndex(draft.mentions + draft.subjects), own)
    continue_numbers(text, claims)  # "These ratios drop to 58% and 32%": the previous sentence's, in order
    for claim in claims:
        if claim.subject and " | " in claim.subject:  # a table's cells read across (a header row): no name
            claim.subject, claim.subject_source = (draft.own[0], "primary") if draft.own else (None, None)
    for claim in claims:
        claim.confidence = _confidence.confidence(claim, lang)
    baselines = baseline_mentions(text, claims, MentionIndex(draft.mentions + draft.subjects))
    mentions = resolve(draft.mentions + draft.subjects + baselines)
    if len(mentions) > cap:
        mentions = mentions[:cap]
        draft.issues.append(
            {
                "operator": operator,
                "error": f"more than {cap} entity mentions: kept those before "
                f"offset {mentions[-1].end} (extract_knowledge max_mentions=... keeps more)",
            }
        )
    return {
        "entities": entity_rows(mentions),
        "mentions": [mention_row(m, doc_id, operator) for m in mentions],
        "claims": [claim_row(c, doc_id, operator, lang) for c in claims],
        "relations": relations(doc_id, draft.sentences, claims, MentionIndex(mentions), proposed, operator),
        "issues": draft.issues,
    }


def _proposal_mentions(text: str, lang: str, proposed: list[Proposal], limit: int) -> list[Mention]:
    out = []
    case_sensitive = lang not in ("zh", "ja", "ko")  # translations vary the case: "ALPA", "Alpa"
    for p in proposed:
        for start, end in occurrences(text, p.name, case_sensitive, limit):
            out.append(Mention(start, end, text[start:end], "system", p.name, p.confidence, "heuristic"))
    return out


def _names_mentions(text: str, lang: str, names: list[str], limit: int) -> list[Mention]:
    """Mentions of the systems a paper compares with, wherever the text names them (so a clause about one
    of them, "In FooPipe, ...", is seen to be about it)."""
    case_sensitive = lang not in ("zh", "ja", "ko")
    out = []
    for name in names:
        for start, end in occurrences(text, name, case_sensitive, limit):
            out.append(Mention(start, end, text[start:end], "system", name, 0.6, "rule"))
    return out


# -- claims -----------------------------------------------------------------------------------------------
def _in_prose(claims: list[Claim], structure: Structure) -> list[Claim]:
    """The claims of the document's prose, each with its section: not references, acknowledgements, captions or
    residue."""
    kept = []
    for claim in claims:
        claim.section = structure.section(claim.start)
        if claim.section == ACKNOWLEDGEMENTS and not structure.captioned(claim.start):
            continue  # thanks and grants; a figure's caption the page set in after them still counts
        if claim.section != REFERENCES and (
            not structure.residue(claim.start)
            or table_result(structure.text, claim.start, claim.end, claim.unit)  # "Foo | 3.2x"
            or bracketed_multiple(structure.text, claim.start, claim.end, claim.unit)  # "1.68 (0.87×)"
        ):
            kept.append(claim)
    return kept


def _doubts(draft: _Draft) -> list[Doubt]:
    """The sentences of ``draft`` whose claims' subjects the rules leave in doubt."""
    return doubts(draft.text, draft.claims, MentionIndex(draft.mentions + draft.subjects), draft.own)
