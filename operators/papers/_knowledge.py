"""Assembling one document's knowledge: entities, mentions, claims and relations as table rows.

Input: the document text, its sentence spans, and the mentions the spaCy rules found. Everything here is
plain Python over offsets; ids are deterministic (``assay.ids``) so a re-run yields the same rows.

Why one module: the per-document extraction is one ordered pass (mentions, claims, attribution, settings,
rows) whose steps share the same indexes of the text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from assay.ids import stable_id
from assay.operators.papers import _confidence, _context
from assay.operators.papers._claims import Claim, find_claims
from assay.operators.papers._clause import table_result
from assay.operators.papers._configs import hardware_counts, sized_models
from assay.operators.papers._gazetteer import entity_id, generic_names, normalise
from assay.operators.papers._mentions import COUNT_SOURCE, Mention, MentionIndex, resolve
from assay.operators.papers._parse import Parser, doubtful, subject_from_parse
from assay.operators.papers._proposals import (
    Proposal,
    acceptable,
    compared_systems,
    name_before,
    occurrences,
    own_systems,
    proposals,
)
from assay.operators.papers._sections import REFERENCES, Structure
from assay.operators.papers._sentences import chunk_spans, sentence_at
from assay.operators.papers._settings import FIELDS, baseline_region, candidates, claim_settings, clause_of

_LIST_GAP = re.compile(r"^[\s,，、;；]*(?:and|和|与|及|以及|or)?[\s,，、]*$", re.I)
# Between two claims, what makes them separate statements rather than coordinated ones ("an 8x increase in
# size and a 10x increase in speed over X" shares X; "66.5% accuracy, 3.3% higher than X" does not).
_CLAUSE_GAP = re.compile(r"[,;:，；]|\b(?:while|whereas|but)\b", re.I)
_NAME_IN_PHRASE = re.compile(
    r"(?<![A-Za-z0-9-])(?:[A-Z][A-Za-z0-9]*|[a-z]{1,3}[A-Z][A-Za-z0-9]*)(?:-[A-Za-z0-9]+)*"
)
#: Claims of one sentence looked at around a claim (a table dump on one line has thousands).
_NEIGHBOURS = 16
#: Sentences parsed per document at most: a text of thousands of doubtful claims is a dump, not prose.
MAX_PARSES = 200
#: Characters of context used around a claim when no sentence contains it (a text without punctuation).
_FALLBACK_CONTEXT = 200


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
        _decide_by_parse([d for draft in drafts if draft.lang == "en" for d in _doubts(draft)], parse)
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
    proposed = proposals(text, lang, found, title)
    own = own_systems(text, proposed, found, structure.section)
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
    subjects = _attribute(text, lang, sentences, claims, MentionIndex(mentions), own, structure)
    return _Draft(doc_id, text, lang, sentences, claims, mentions, subjects, proposed, own, issues)


def _finish(draft: _Draft, operator: str, limits: Limits) -> dict[str, list[dict[str, Any]]]:
    doc_id, text, lang, claims, proposed = draft.doc_id, draft.text, draft.lang, draft.claims, draft.proposed
    cap = limits.max_mentions
    _continue_subjects(text, claims, {n.lower() for n in draft.own})
    for claim in claims:
        claim.confidence = _confidence.confidence(claim, lang)
    baselines = _baseline_mentions(text, claims, MentionIndex(draft.mentions + draft.subjects))
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
        "entities": _entity_rows(mentions),
        "mentions": [_mention_row(m, doc_id, operator) for m in mentions],
        "claims": [_claim_row(c, doc_id, operator, lang) for c in claims],
        "relations": _relations(doc_id, draft.sentences, claims, MentionIndex(mentions), proposed, operator),
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
    """The claims of the document's prose, each with its section: not references, captions or residue."""
    kept = []
    for claim in claims:
        claim.section = structure.section(claim.start)
        if claim.section != REFERENCES and (
            not structure.residue(claim.start)
            or table_result(structure.text, claim.start, claim.end, claim.unit)  # "Foo | 3.2x"
        ):
            kept.append(claim)
    return kept


def _sentence(text: str, sentences: np.ndarray, claim: Claim, structure: Structure) -> tuple[int, int]:
    found = sentence_at(sentences, claim.start)
    if found and found[1] - found[0] <= 20 * _FALLBACK_CONTEXT:
        return structure.clip(found, claim.start)
    lo, hi = found if found else (0, len(text))
    return max(lo, claim.start - _FALLBACK_CONTEXT), min(hi, claim.end + _FALLBACK_CONTEXT)


def _attribute(
    text: str,
    lang: str,
    sentences: np.ndarray,
    claims: list[Claim],
    mentions: MentionIndex,
    own: list[str],
    structure: Structure,
) -> list[Mention]:
    """Fill each claim's qualifier, metric, baseline, subject and setting; returns the mentions of subjects
    that were found only as the name a claim's sentence is about. ``own``: the paper's own systems, most
    likely first (``own_systems``)."""
    extra: list[Mention] = []
    proposed_names = {name.lower() for name in own}
    canonical = {name.lower(): name for name in own}
    primary = own[0] if own else None
    previous: Claim | None = None
    previous_sentence: tuple[int, int] | None = None
    if not claims:
        return extra
    for claim in claims:
        claim.sentence = _sentence(text, sentences, claim, structure)
    words = _context.MetricWords(text, [c.sentence for c in claims if c.sentence])
    for index, claim in enumerate(claims):
        sentence = claim.sentence or (claim.start, claim.end)
        in_list = (
            previous is not None
            and previous_sentence == sentence
            and _LIST_GAP.match(text[previous.end : claim.start]) is not None
        )
        claim.qualifier = _context.qualifier(text, claim, sentence)
        claim.metric = _context.metric(
            text, claim, sentence, previous.end if previous and in_list else 0, words
        )
        earlier = _earlier(claims, index, sentence)
        vs = _context.versus(text, claim, sentence, _blockers(text, claims, index, sentence), earlier)
        claim.versus = vs[0] if vs else None
        claim.versus_span = (vs[1], vs[2]) if vs else None
        claim.versus_source = "phrase" if vs else None
        claim.in_list = in_list
        if in_list and previous is not None:
            claim.qualifier = claim.qualifier or previous.qualifier
            if claim.versus is None and previous.versus is not None:
                claim.versus, claim.versus_span = previous.versus, previous.versus_span
                claim.versus_source = "list"
        claim.subject, claim.subject_source, claim.rival_before = _subject(
            claim, sentence, mentions, proposed_names, primary, text
        )
        if claim.subject and claim.subject.lower() in canonical:
            claim.subject = canonical[claim.subject.lower()]  # the paper's own name as its body writes it
        if claim.subject is None:
            named = name_before(
                text, sentence[0], claim.start, lang, mentions.inside(sentence[0], claim.start)
            )
            if named and not (claim.versus_span and claim.versus_span[0] <= named[1] < claim.versus_span[1]):
                claim.subject, claim.subject_source = named[0], "nearest"
                extra.append(
                    Mention(named[1], named[1] + len(named[0]), named[0], "system", named[0], 0.5, "rule")
                )
        claim.setting = _setting(claim, sentence, mentions)
        previous, previous_sentence = claim, sentence
    _context.distribute(text, claims)
    setups = _setups(text, structure, proposed_names)
    for claim in claims:
        _resolve_pronoun(text, claim, mentions)
        _not_its_own_baseline(claim, mentions, primary)
        if claim.versus is None and claim.subject_source in ("proposed", "primary") and setups:
            _from_setup(claim, setups, structure)
    _restated(claims)
    _fields(text, sentences, claims, mentions, structure)
    return extra


# "We compare the native scheduler against Quokka": the evaluation's setup names the baseline of the
# results that follow it in its section ("Quokka cuts the tail latency by 95%").
_SETUP = re.compile(
    r"\b(?:we|We)\s+(?:also\s+|then\s+|further\s+)?compare\s+(?P<a>[^.;:!?\n]{2,80}?)\s+"
    r"(?:against|with|to)\s+(?P<b>[^.;:!?\n]{2,80}?)(?=\s*[.;:!?\n]|\s+(?:using|on|under|across|for|in|at)\b)"
)
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_PAREN_NOTE = re.compile(r"\s*[(\[][^)\]]*[)\]]")
_OWN_WORDS = re.compile(r"\b(?:our|ours)\b", re.I)


def _setups(text: str, structure: Structure, own: set[str]) -> list[tuple[int, str]]:
    """(position, baseline) of each "we compare A against B" whose one side is the paper's system."""
    out = []
    for m in _SETUP.finditer(text):
        a, b = (_PAREN_NOTE.sub("", m.group(g)).strip() for g in ("a", "b"))
        a_own, b_own = (_names_own(side, own) for side in (a, b))
        if a_own != b_own:
            baseline = b if a_own else a
            baseline = re.sub(r"^(?:the|a|an)\s+", "", baseline, flags=re.I)
            if 2 <= len(baseline) <= 60 and " and " not in baseline and "," not in baseline:
                out.append((m.start(), baseline))
    return out


def _names_own(side: str, own: set[str]) -> bool:
    words = set(re.findall(r"[\w+-]+", side.lower()))
    return bool(_OWN_WORDS.search(side)) or any(name in words for name in own)


def _from_setup(claim: Claim, setups: list[tuple[int, str]], structure: Structure) -> None:
    """The baseline of the nearest setup before the claim, in the same section and its paragraph or the
    next ("We compare A against ours. <blank line> Figure 5 shows the results: ours cuts ... by 40%")."""
    section = bisect.bisect_right(structure.starts, claim.start)
    for pos, baseline in reversed(setups):
        if pos < claim.start:
            if (
                bisect.bisect_right(structure.starts, pos) == section
                and len(_PARAGRAPH_BREAK.findall(structure.text, pos, claim.start)) <= 1
            ):
                claim.versus, claim.versus_source = baseline, "setup"
            return


def _restated(claims: list[Claim]) -> None:
    """A result restated without its baseline (the conclusion's "improves JCT by 3.5x") keeps the one the
    paper gave it where it stated it with one ("by 3.5x compared to X"): the same subject, unit and value,
    and one baseline only among those statements."""
    stated: dict[tuple[Any, ...], set[str]] = {}
    for claim in claims:
        if claim.versus and claim.versus_source in ("phrase", "respectively", "list"):
            stated.setdefault(_result_key(claim), set()).add(claim.versus)
    for claim in claims:
        if claim.versus is None and claim.subject_source in ("proposed", "primary"):
            found = stated.get(_result_key(claim))
            if found and len(found) == 1:
                claim.versus, claim.versus_source = next(iter(found)), "restated"


def _result_key(claim: Claim) -> tuple[Any, ...]:
    return (claim.subject, claim.unit, claim.value, claim.value_low, claim.value_high)


#: Characters before a pronoun searched for what it stands for (its sentence and the one before).
_ANTECEDENT_REACH = 400


def _resolve_pronoun(text: str, claim: Claim, mentions: MentionIndex) -> None:
    """A baseline written as a pronoun ("within 3% of it") is the system named last before it that is not
    the claim's subject; none found, the claim has no baseline rather than "it"."""
    if not claim.versus or not claim.versus_span or not _context.PRONOUN.match(claim.versus):
        return
    lo = max(0, claim.versus_span[0] - _ANTECEDENT_REACH)
    hi = claim.versus_span[0]
    found = [(m.start, m.end, m.name) for m in mentions.inside(lo, hi) if m.type in ("system", "method")]
    # A name the paper did not otherwise mark ("FooSched is the strongest baseline. ... within 3% of it").
    found += [(m.start(), m.end(), m.group()) for m in _DISTINCT_NAME.finditer(text, lo, hi)]
    for start, end, name in sorted(found, reverse=True):
        if (
            _key(name) != _key(claim.subject or "")
            and acceptable(name)
            and not _covered(mentions, start, end)
        ):
            claim.versus, claim.versus_span = name, (start, end)
            return
    claim.versus, claim.versus_span, claim.versus_source = None, None, None


# A name with a capital or digit after its first letter ("FooSched", "vPipe"): a system's, not a word's.
_DISTINCT_NAME = re.compile(
    r"(?<![A-Za-z0-9-])(?:[A-Z][a-z]+[A-Z0-9][A-Za-z0-9]*|[a-z]{1,3}[A-Z][A-Za-z0-9]*)\+{0,2}"
)


def _covered(mentions: MentionIndex, start: int, end: int) -> bool:
    """Whether a known mention other than a system covers the span (a model, a device: not a baseline)."""
    return any(m.type not in ("system", "method") for m in mentions.overlapping(start, end))


def _not_its_own_baseline(claim: Claim, mentions: MentionIndex, primary: str | None) -> None:
    """A system is never its own baseline: when the subject names the baseline ("the batches GPipe reaches
    are 68% of those ZeRO reaches" with ZeRO taken for both), the subject is the paper's system, else the
    other system named before the number, else unknown."""
    if not (claim.subject and claim.versus) or _key(claim.subject) != _key(claim.versus):
        return
    if primary and _key(primary) != _key(claim.versus):
        claim.subject, claim.subject_source = primary, "primary"
        return
    lo = claim.sentence[0] if claim.sentence else claim.start
    for m in reversed(mentions.inside(lo, claim.start)):
        if m.type in ("system", "method") and _key(m.name) != _key(claim.versus):
            claim.subject, claim.subject_source = m.name, "nearest"
            return
    claim.subject, claim.subject_source = None, None


def _key(name: str) -> str:
    return re.sub(r"[\s_-]+", "", name).lower()


def _continue_subjects(text: str, claims: list[Claim], own: set[str]) -> None:
    """A pronoun opening a later clause of the sentence continues the subject of the claim before it when
    that subject is another system ("FooSched is 1.4x faster on small jobs, but its speed drops to 20% on
    large ones": its = FooSched), which the paper-level prior (and the parse, which reads "its" as the
    paper's system) would give to the paper's system."""
    for previous, claim in zip(claims, claims[1:], strict=False):
        if (
            previous.sentence == claim.sentence
            and previous.subject
            and previous.subject_source in ("topic", "parse")
            and previous.subject.lower() not in own
            and claim.subject_source in ("primary", "parse")
            and claim.subject is not None
            and claim.subject.lower() in own
            and _PRONOUN_SUBJECT.search(text, previous.end, claim.start)
            and not _SELF_WORDS.search(text, previous.end, claim.start)
        ):
            claim.subject, claim.subject_source = previous.subject, previous.subject_source


# A pronoun opening a clause, after a comma or a conjunction: it continues the subject before it.
_PRONOUN_SUBJECT = re.compile(r"(?:[,;]\s*|\b(?:and|but|yet|while|so)\s+)(?:it|its|they|their)\b", re.I)


#: Sentences before a claim's looked at for the paragraph's accelerator.
_PARAGRAPH_LOOKBACK = 6


def _fields(
    text: str, sentences: np.ndarray, claims: list[Claim], mentions: MentionIndex, structure: Structure
) -> None:
    """Each claim's setting as fields, once every claim's baseline is known (after ``distribute``): a
    figure in any baseline phrase of the sentence belongs to that baseline."""
    baselines: dict[tuple[int, int], list[tuple[int, int]]] = {}
    found: dict[tuple[int, int], dict[str, Any]] = {}  # the candidates of each sentence, read once
    for claim in claims:
        region = baseline_region(text, claim.versus_span, mentions)
        if region and claim.sentence:
            baselines.setdefault(claim.sentence, []).append(region)
    for index, claim in enumerate(claims):
        sentence = claim.sentence or (claim.start, claim.end)
        earlier = partial(_paragraph_before, text, sentences, sentence, structure)
        own = [r for r in [baseline_region(text, claim.versus_span, mentions)] if r]
        before = claims[index - 1] if index else None
        after = claims[index + 1] if index + 1 < len(claims) else None
        clause = clause_of(
            text,
            claim,
            before.end if before and before.sentence == claim.sentence else sentence[0],
            after.start if after and after.sentence == claim.sentence else sentence[1],
        )
        if sentence not in found:
            found[sentence] = candidates(text, sentence, mentions)
        claim.fields = claim_settings(
            text, claim, found[sentence], baselines.get(sentence, []) + own, earlier, clause, mentions
        )


def _paragraph_before(
    text: str, sentences: np.ndarray, sentence: tuple[int, int], structure: Structure
) -> list[tuple[int, int]]:
    """The sentences of ``sentence``'s paragraph before it, nearest first (a blank line or a heading ends a
    paragraph)."""
    floor = text.rfind("\n\n", max(0, sentence[0] - 4000), sentence[0])
    floor = floor + 2 if floor >= 0 else max(0, sentence[0] - 4000)
    i = bisect.bisect_right(structure.starts, sentence[0]) - 1
    if i >= 0:
        floor = max(floor, structure.heading_ends[i])
    j = int(np.searchsorted(sentences[:, 1], sentence[0], side="right")) if len(sentences) else 0
    out = []
    for k in range(j - 1, max(-1, j - 1 - _PARAGRAPH_LOOKBACK), -1):
        lo, hi = int(sentences[k, 0]), int(sentences[k, 1])
        if hi <= floor:
            break
        out.append((max(lo, floor), min(hi, sentence[0])))
    return out


@dataclass
class _Doubt:
    """A sentence to parse and the claims of it whose subject the parse decides."""

    sentence: str
    primary: str | None
    # (claim, its offset in the sentence, the names' (start, end, name, is_system) spans in the sentence)
    claims: list[tuple[Claim, int, list[tuple[int, int, str, bool]]]]


def _doubts(draft: _Draft) -> list[_Doubt]:
    """The sentences of ``draft`` whose claims' subjects the rules leave in doubt (``MAX_PARSES`` at most)."""
    text, claims = draft.text, draft.claims
    mentions = MentionIndex(draft.mentions + draft.subjects)
    names = draft.own
    primary = names[0] if names else None
    baselines = sorted(c.versus_span for c in claims if c.versus_span)
    baseline_starts = [b[0] for b in baselines]
    parsed: dict[tuple[int, int], _Doubt] = {}
    for claim in claims:
        lo, hi = claim.sentence or (claim.start, claim.end)
        near = baselines[bisect.bisect_left(baseline_starts, lo) : bisect.bisect_left(baseline_starts, hi)]
        # Another system named before the number, not as a baseline ("than GPipe and 1.4x over X").
        others = [
            m.name
            for m in mentions.inside(lo, claim.start)
            if m.type in ("system", "method")
            and m.name not in names
            and not any(_inside(m, span) for span in near)
        ]
        if not doubtful(text[lo : claim.start], others):
            continue
        if (lo, hi) not in parsed:
            if len(parsed) >= MAX_PARSES:
                break
            parsed[(lo, hi)] = _Doubt(text[lo:hi], primary, [])
        spans = [
            (m.start - lo, m.end - lo, m.name, m.type in ("system", "method"))
            for m in mentions.inside(lo, hi)
            # A model or dataset is the workload of a result, not what achieved it ("ResNet-50 trains 1.9x
            # faster" with the paper's system).
            if m.source != COUNT_SOURCE and m.type not in ("model", "dataset")
        ]
        parsed[(lo, hi)].claims.append((claim, claim.start - lo, spans))
    return list(parsed.values())


def _decide_by_parse(doubts: list[_Doubt], parse: Parser) -> None:
    texts = [d.sentence for d in doubts]
    pipe = getattr(parse, "pipe", None)
    docs = pipe(texts, batch_size=256) if pipe is not None else map(parse, texts)
    for doubt, doc in zip(doubts, docs, strict=True):
        for claim, offset, spans in doubt.claims:
            subject = subject_from_parse(doc, offset, spans, doubt.primary)
            if subject:
                claim.subject, claim.subject_source = subject, "parse"


def _earlier(claims: list[Claim], index: int, sentence: tuple[int, int]) -> list[int]:
    """Ends of the claims of the sentence before ``claims[index]`` (claims are in order of position)."""
    out = []
    j = index - 1
    while j >= 0 and claims[j].start >= sentence[0] and len(out) < _NEIGHBOURS:
        out.append(claims[j].end)
        j -= 1
    return out


def _blockers(text: str, claims: list[Claim], index: int, sentence: tuple[int, int]) -> list[int]:
    """Starts of the later claims of the sentence that are not listed with ``claims[index]`` ("66.5%, 3.3%
    higher than X": X is the second claim's baseline, not the first's); a list ("4.5x and 3.1x higher than
    X") shares its phrase."""
    out = []
    last = claims[index]
    for other in claims[index + 1 : index + 1 + _NEIGHBOURS]:
        if other.start < last.end:
            continue
        if other.start >= sentence[1]:
            break
        gap = text[last.end : other.start]
        if _LIST_GAP.match(gap) is None and _CLAUSE_GAP.search(gap):
            out.append(other.start)
            break
        last = other
    return out


def _inside(m: Mention, span: tuple[int, int] | None) -> bool:
    return span is not None and span[0] <= m.start and m.end <= span[1]


def _subject(
    claim: Claim,
    sentence: tuple[int, int],
    mentions: MentionIndex,
    proposed: set[str],
    primary: str | None,
    text: str = "",
) -> tuple[str | None, str | None, bool]:
    """The subject by the rules, how it was found, and whether another system is named before the number
    (a rival the rules may have passed over).

    In order: the paper's own system named nearest before the number (``proposed``); another system that
    is the topic or the grammatical subject of the claim's clause ("In FooPipe, the waste exceeds 40%",
    "FooPipe reaches 1.4x", ``topic``) when no own system or self-reference ("we", "our system") stands
    between it and the number; else the paper's main system (``primary``: a result of the paper is about
    its own system unless the clause names another); else the nearest name (``nearest``)."""
    before = [
        m
        for m in mentions.inside(sentence[0], claim.start)
        # A name the built-in list calls a method (ZeRO, FlashAttention) is a subject as much as a system.
        if m.type in ("system", "method") and not _inside(m, claim.versus_span)
    ]
    rival = any(m.name.lower() not in proposed for m in before)
    for m in reversed(before):
        if m.name.lower() in proposed:
            return m.name, "proposed", rival
        if text and _topic(text, m, sentence[0], claim.start):
            return m.name, "topic", rival
    if primary:
        return primary, "primary", rival
    return (before[-1].name, "nearest", rival) if before else (None, None, rival)


# Before a name: a word that makes it a setting, a baseline or a part of the paper's system, not what the
# clause is about ("on Megatron-LM", "than X", "与X", "its AllReduce").
_NOT_TOPIC_BEFORE = re.compile(
    r"(?:\b(?:on|atop|upon|using|with|via|into|from|of|over|than|to|against|versus|vs\.?|by|like|as|and|or|"
    r"outperforms?|outperformed|beats?|surpass(?:es|ed)?|exceeds?|unlike|including|such\s+as|"
    r"its|our|their)|"
    r"[与比和及、]|相比于?|相较于?|对比|基于|在)\s*(?:the\s+)?$",
    re.I,
)
# Between a rival's name and the number: a self-reference hands the clause back to the paper's system.
_SELF_WORDS = re.compile(r"\b(?:we|our|ours|us|this\s+(?:paper|work))\b|本文|我们", re.I)
# A clause boundary between the name and the number ("In X, ... ; ours ...").
_TOPIC_BREAK = re.compile(r"[;；。]|\b(?:while|whereas|but)\b|[，,]\s*(?:而|但)", re.I)


# What may stand just before a clause's subject: the sentence start, a comma, a clause word.
_CLAUSE_OPENS = re.compile(
    r"(?:^|[,，:：;；]|\b(?:that|which|when|whereas|while|and|but|yet|so)|而|但|但是|同时|并且)$", re.I
)
# What follows a subject: its verb (perhaps after a possessive, a parenthesis or an adverb), or in
# Chinese a place or adverb before the verb ("X 在 A100 上为", "X 分别仅实现").
_VERB_AFTER = re.compile(
    r"[’'`]?s?\s*(?:\([^)]{0,40}\)\s*)?(?:\w+ly\s+)?(?:is|are|was|were|has|have|had|can|could|does|did|only|"
    r"still|also|achieves?|achieved|reaches|reached|attains?|delivers?|provides?|offers?|gets?|shows?|runs?|"
    r"takes?|spends?|uses?|incurs?|increases?|reduces?|improves?|drops?|falls?|needs?|requires?|sees?|"
    r"suffers?|yields?|in\b|on\b|的|在|仅|分别|只|可|能|实现|达到|为|[a-z]{3,}(?:s|ed)\b)"
)


def _topic(text: str, m: Mention, lo: int, claim_start: int) -> bool:
    """Whether ``m`` is what the clause holding the number is about: its subject or topic, not a setting or a
    baseline named on the way."""
    if _NOT_TOPIC_BEFORE.search(text, max(lo, m.start - 20), m.start):
        return False
    between = text[m.end : claim_start]
    if _SELF_WORDS.search(between) or _TOPIC_BREAK.search(between):
        return False
    lead = text[max(lo, m.start - 30) : m.start]
    # "In X, ...": a topic set off by a comma; otherwise the name must open its clause (sentence start,
    # after a comma or a clause word) and be followed by its verb.
    if re.search(
        r"(?:^|[,，;；]\s*|\b(?:and|but|yet|so|thus|hence|while|whereas)\s+)(?:in|for)\s*$", lead, re.I
    ):
        return re.match(r"\s*[,，]", text[m.end : m.end + 3]) is not None
    if lead.strip() and not _CLAUSE_OPENS.search(lead.rstrip()):
        return False
    return _VERB_AFTER.match(text, m.end, m.end + 40) is not None


def _setting(claim: Claim, sentence: tuple[int, int], mentions: MentionIndex) -> str | None:
    """Hardware, models and datasets named in the claim's sentence (not its baseline's), widest first kept."""
    texts: list[str] = []
    for m in mentions.inside(*sentence):
        if _inside(m, claim.versus_span):
            continue
        if (m.source == COUNT_SOURCE or m.type in ("model", "dataset")) and m.text not in texts:
            texts.append(m.text)
    parts = [t for t in texts if not any(t != other and t in other for other in texts)]
    return "; ".join(parts[:4] + claim.notes) or None


def _claim_row(c: Claim, doc_id: str, operator: str, lang: str) -> dict[str, Any]:
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
def _baseline_mentions(text: str, claims: list[Claim], mentions: MentionIndex) -> list[Mention]:
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


def _entity_rows(mentions: list[Mention]) -> list[dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for m in mentions:
        key = entity_id(m.type, m.name)
        row = rows.setdefault(key, {"entity_id": key, "name": m.name, "type": m.type, "aliases": []})
        if normalise(m.text) != normalise(m.name) and m.text not in row["aliases"]:
            row["aliases"].append(m.text)
    return list(rows.values())


def _mention_row(m: Mention, doc_id: str, operator: str) -> dict[str, Any]:
    return {
        "entity_id": entity_id(m.type, m.name),
        "doc_id": doc_id,
        "start": m.start,
        "end": m.end,
        "text": m.text,
        "operator": operator,
    }


# -- relations --------------------------------------------------------------------------------------------
def _relations(
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
            if _inside(m, span) and m.type in ("system", "method", "model"):
                add(
                    subject,
                    "compared_with",
                    entity_id(m.type, m.name),
                    start,
                    end,
                    min(claim.confidence, m.confidence),
                )
            elif not _inside(m, span) and m.type in ("hardware", "model"):
                add(
                    subject,
                    "evaluated_on",
                    entity_id(m.type, m.name),
                    start,
                    end,
                    min(claim.confidence, m.confidence) * 0.9,
                )
    return list(rows.values())
