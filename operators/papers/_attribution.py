"""Attributing a document's claims: each claim's sentence, qualifier, metric, baseline, subject and setting.

One pass over the claims in order of position, since a claim listed with the one before it ("4.5x and
3.1x higher than X") shares its qualifier and baseline; the rules of each field are in their own modules
(``_context``: qualifier and metric, ``_baselines``, ``_subjects``, ``_settings``: the setting's fields).

Why one module: the pass is one loop whose fields depend on each other in order (a subject found by a table
row or a clause changes which baseline holds, a list shares both), so its steps stay together here while each
rule lives in its own module.
"""

from __future__ import annotations

import bisect
import re
from functools import partial
from typing import Any

import numpy as np

from assay.operators.papers import _context
from assay.operators.papers._ablation import ablations, named_system_without, runs_with_component
from assay.operators.papers._baselines import (
    comparison_setups,
    distribute,
    from_setup,
    inside,
    restated,
    share_backwards,
    versus,
)
from assay.operators.papers._claims import Claim
from assay.operators.papers._clause_subjects import (
    acting_phrase,
    cause_phrase,
    clause_subject,
    compared_subject,
    configuration,
    measured_owner,
    unknown_topic,
)
from assay.operators.papers._comparand import comparand_numbers, derived_numbers
from assay.operators.papers._competitor_deficits import competitor_deficits
from assay.operators.papers._contrast import contrast_baselines, group_while_baselines, while_baselines
from assay.operators.papers._default_baseline import default_baselines, is_comparison
from assay.operators.papers._mentions import COUNT_SOURCE, Mention, MentionIndex
from assay.operators.papers._normalised_to import normalised_baselines
from assay.operators.papers._number_owners import (
    bracketed_owner,
    level_owner,
    others_after,
    others_as_subject,
)
from assay.operators.papers._object_baselines import object_baselines
from assay.operators.papers._paired_figures import paired_figures
from assay.operators.papers._passive import passive_comparison
from assay.operators.papers._phrase_names import name_baselines
from assay.operators.papers._pronouns import resolve_pronoun
from assay.operators.papers._proposals import name_before
from assay.operators.papers._sections import Structure
from assay.operators.papers._sentences import sentence_at
from assay.operators.papers._settings import (
    DIRECTIONS,
    baseline_region,
    candidates,
    claim_settings,
    clause_of,
    measure,
)
from assay.operators.papers._share_parts import share_part
from assay.operators.papers._stacked_rows import stacked_row_label
from assay.operators.papers._subjects import not_its_own_baseline, subject_by_rules
from assay.operators.papers._table_read import cell_context

_LIST_GAP = re.compile(r"^[\s,，、;；]*(?:and|和|与|及|以及|or)?[\s,，、]*$", re.I)
# Between two claims, what makes them separate statements rather than coordinated ones ("an 8x increase in
# size and a 10x increase in speed over X" shares X; "66.5% accuracy, 3.3% higher than X" does not).
_CLAUSE_GAP = re.compile(r"[,;:，；]|\b(?:while|whereas|but)\b", re.I)
# A bracket opened right before a later claim, after words of the first claim's own ("2.26x on average (3.36x vs
# X and 1.62x vs Y)"): an aside that breaks the first number down, whose baselines are its own numbers'.
_ASIDE_OPENS = re.compile(r"\w[^()]*[(（]\s*$")
# A baseline that says there is one, not which: "relative to the baseline", "over the default" (a capitalised
# "Baseline" is the name a paper gave its baseline system: "compared to Baseline").
_UNNAMED = re.compile(
    r"^(?:(?:the|a|an|our)\s+)?(?:(?-i:baselines?)|default|(?-i:baseline)\s+(?:system|version|setup))$", re.I
)


# ... standing bare: its clause goes on with a place or a new clause, not with words that say which one ("a
# baseline with activation checkpointing", "a baseline that uses X", "a baseline (i.e. without X)").
_ENDS_BARE = re.compile(r"\s*(?:[,.;:]|$)|\s+(?:on|in|for|at|across|when|while|and|but)\b", re.I)


# A measure alone, its setting cut off ("the performance on 1024 GPUs"): a run at another setting, no system.
_LONE_MEASURE = re.compile(
    r"^(?:the\s+)?(?:performance|throughput|latency|time|speed|efficiency|runtime|results?|"
    # an error level, however described ("compared to near-zero errors for X": the other system's level)
    r"(?:[a-z][\w-]*\s+)?(?:errors?|error\s+rates?))$",
    re.I,
)


# "on X" / "across X" just before a name: the data set or the machines a run used.
_SETTING_BEFORE = re.compile(r"\b(?:on|across)\s+(?:the\s+)?$", re.I)

def _unnamed(versus: str | None) -> bool:
    return bool(versus) and _UNNAMED.match(versus.strip()) is not None


#: Claims of one sentence looked at around a claim (a table dump on one line has thousands).
_NEIGHBOURS = 16
#: Characters of context used around a claim when no sentence contains it (a text without punctuation).
_FALLBACK_CONTEXT = 200


def _sentence(text: str, sentences: np.ndarray, claim: Claim, structure: Structure) -> tuple[int, int]:
    found = sentence_at(sentences, claim.start)
    if found and found[1] - found[0] <= 20 * _FALLBACK_CONTEXT:
        return structure.clip(found, claim.start)
    lo, hi = found if found else (0, len(text))
    return max(lo, claim.start - _FALLBACK_CONTEXT), min(hi, claim.end + _FALLBACK_CONTEXT)


def attribute(
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
    # the systems the text names, by their lower case: a table's row label in capitals names one of them
    systems = {m.name.lower(): m.name for m in mentions.inside(0, len(text)) if m.type in ("system", "method")}
    systems.update(canonical)
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
        vs = versus(text, claim, sentence, _blockers(text, claims, index, sentence), earlier)
        claim.versus = vs[0] if vs else None
        claim.versus_span = (vs[1], vs[2]) if vs else None
        claim.versus_source = "phrase" if vs else None
        claim.in_list = in_list
        if in_list and previous is not None:
            claim.qualifier = claim.qualifier or previous.qualifier
            if claim.versus is None and previous.versus is not None:
                claim.versus, claim.versus_span = previous.versus, previous.versus_span
                claim.versus_source = "list"
        claim.subject, claim.subject_source, claim.rival_before = subject_by_rules(
            claim, sentence, mentions, proposed_names, primary, text
        )
        passive = passive_comparison(text, sentence[0], claim.start) if lang == "en" else None
        if passive and passive[1] and claim.versus and passive[1].lower() not in claim.versus.lower():
            # "A ... is only slightly outperformed by B by 1.05x": the agent is what the number measures
            claim.subject, claim.subject_source = passive[1], "passive"
        row = stacked_row_label(text, claim.start, claim.end) if lang == "en" else None
        if row and row.lower() in systems:
            claim.subject, claim.subject_source = systems[row.lower()], "row"  # a table read one cell a line
        if claim.subject and claim.subject.lower() in canonical:
            claim.subject = canonical[claim.subject.lower()]  # the paper's own name as its body writes it
        # a level's owner, not a multiple's: "1.7x for Kimi-K2" names the workload a speedup was measured on
        owner = level_owner(text, claim.start, claim.end, mentions) if lang == "en" and claim.unit != "x" else None
        owner = owner or (bracketed_owner(text, claim.start, claim.end, mentions) if lang == "en" else None)
        if owner and claim.subject_source not in ("table", "row", "comparand"):
            # "exact match is 38.5% for DenseTune": the level is that system's, whoever the clause is about
            claim.subject, claim.subject_source = owner[0], "owner"
            extra.append(Mention(owner[1], owner[1] + len(owner[0]), owner[0], "system", owner[0], 0.5, "rule"))
            if claim.versus_span and claim.versus_span[0] <= owner[1] < claim.versus_span[1]:
                # "outperforming the FooSpec baseline (1.01x)": FooSpec's own figure, measured against no FooSpec
                claim.versus, claim.versus_span, claim.versus_source = None, None, None
        others = others_as_subject(text, sentence[0], claim.start, lang) if claim.subject_source == "primary" else None
        if others is None and claim.subject_source == "primary" and lang == "en":
            others = others_after(text, claim.end, sentence[1])  # "40% memory waste in existing frameworks"
        if others and not (claim.versus and others.lower() in claim.versus.lower()):
            claim.subject, claim.subject_source = others, "clause"  # "existing systems reach only 5% of peak"
        if claim.subject_source == "primary" and lang == "en":
            coined = unknown_topic(text, sentence[0], claim.start, mentions)
            if coined and coined.lower() not in proposed_names:
                claim.subject, claim.subject_source = coined, "topic"
        if claim.subject is None:
            named = name_before(
                text, sentence[0], claim.start, lang, mentions.inside(sentence[0], claim.start)
            )
            if named and _SETTING_BEFORE.search(text, max(sentence[0], named[1] - 8), named[1]):
                named = None  # "1.8x on FooBench", "across TPUv4 pods": where the run ran, not what it measures
            if named and not (claim.versus_span and claim.versus_span[0] <= named[1] < claim.versus_span[1]):
                claim.subject, claim.subject_source = named[0], "nearest"
                extra.append(
                    Mention(named[1], named[1] + len(named[0]), named[0], "system", named[0], 0.5, "rule")
                )
        if claim.subject is None and primary is None and lang == "en":
            # a text with no system of its own (a measurement study): the clause's subject as written
            phrase = clause_subject(text, sentence[0], claim.start)
            if phrase and not (claim.versus and phrase.lower() in claim.versus.lower()):
                claim.subject, claim.subject_source = phrase, "clause"
        if claim.subject_source == "primary" and claim.versus is None and lang == "en":
            # "... show that eager flushing results in a 0.4% increase in time": the number is the paper's
            # system with that component (D2), no comparison with another system
            cause = cause_phrase(text, sentence[0], claim.start)
            if cause and cause.lower() not in proposed_names:
                claim.subject, claim.subject_source = configuration(claim.subject, cause), "component"
        elif claim.subject_source == "primary" and claim.versus_source == "phrase" and lang == "en":
            # "the tuned batch size can lead to 20% lower energy than the default choice": a technique set
            # against another choice, not a run of the paper's system, is the phrase alone (D2)
            cause = cause_phrase(text, sentence[0], claim.start)
            if cause is None:
                # "Compared to full copies, delta copying reduces stalls by 2x": the technique the sentence
                # sets against another, when the phrase names no system (no name written in capitals)
                found = compared_subject(text, sentence[0], claim.start)
                if (
                    found
                    and not re.search(r"[A-Z]", found[0])
                    and not any(m.type == "system" for m in mentions.overlapping(found[1], found[2]))
                ):
                    cause = found[0]
            if (
                cause
                and cause.lower() not in proposed_names
                and cause.lower() not in (claim.versus or "").lower()
            ):
                claim.subject, claim.subject_source = cause, "component"
        if (claim.subject_source == "primary" or claim.subject is None) and claim.versus is None and lang == "en":
            # "..., collective waits remain as high as 40% of step time": a share is the part's the clause
            # names, not the paper's system's (D1), nor nobody's in a study with no system of its own
            part = share_part(text, sentence[0], claim.start, claim.end)
            if part and part.lower() not in proposed_names:
                claim.subject, claim.subject_source = part, "component"
        if primary and claim.versus is None and claim.subject_source not in ("primary", "component"):
            # "gradient checkpointing leads to 21% lower throughput": a known technique written in plain words
            # that a causal verb makes the cause is the paper's system run with it (D2), as an unknown one is
            cause = cause_phrase(text, sentence[0], claim.start) if lang == "en" else None
            if cause and not re.search(r"[A-Z]", cause) and any(
                m.type == "method" and m.name == claim.subject and m.text.lower() == cause.lower()
                for m in mentions.inside(sentence[0], claim.start)
            ):
                claim.subject, claim.subject_source = configuration(primary, cause), "component"
        claim.setting = _setting(claim, sentence, mentions)
        previous, previous_sentence = claim, sentence
    distribute(text, claims)
    share_backwards(text, claims)
    # "speeds up X by 2x", "reduces X's time by 30%": the verb's object is the baseline
    object_baselines(text, claims, mentions, proposed_names)
    setups = comparison_setups(text, structure, proposed_names)
    for claim in claims:
        resolve_pronoun(text, claim, mentions)
        not_its_own_baseline(claim, mentions, primary)
        if claim.subject is None and claim.versus and claim.sentence and lang == "en":
            # "Grid Search needs 72x more samples than ours": the paper's system is the baseline, so the
            # subject is the clause's own, as written
            phrase = clause_subject(text, claim.sentence[0], claim.start)
            if phrase and phrase.lower() not in claim.versus.lower():
                claim.subject, claim.subject_source = phrase, "clause"
    # "BarPipe takes 2.1x longer than ours": a competitor's deficit is its claim, before any default.
    competitor_deficits(text, claims, mentions, proposed_names, primary)
    contrast_baselines(text, sentences, claims, mentions, proposed_names)
    while_baselines(text, claims, mentions, proposed_names)
    group_while_baselines(text, claims)
    # "A takes 67 minutes, whereas B takes 44 minutes, reducing training time by 30%": B against A
    paired_figures(text, claims)
    # "3% vs 85%", "compared to 35.8% under X": the second number is the comparand's own figure
    comparand_numbers(text, claims, mentions)
    derived_numbers(text, claims)
    # "relative to the baseline": which one the paper says in context (its setup, the same result stated
    # elsewhere, its default); none found, the words stay
    unnamed = {
        id(c): (c.versus, c.versus_span, c.versus_source)
        for c in claims
        if _unnamed(c.versus) and c.versus_span and _ENDS_BARE.match(text, c.versus_span[1])
    }
    for claim in claims:
        if id(claim) in unnamed:
            claim.versus, claim.versus_span, claim.versus_source = None, None, None
    for claim in claims:
        if claim.versus is None and claim.subject_source in ("proposed", "primary") and setups:
            from_setup(claim, setups, structure)
    if lang == "en":
        for claim in claims:
            # "the iteration time with Blocking is 10% higher than the Baseline": Blocking's result, not the paper's
            owner = measured_owner(text, claim.sentence[0], claim.start) if claim.sentence else None
            ours = claim.subject is None or claim.subject_source in ("proposed", "primary")
            if owner and ours and owner.lower() not in (claim.versus or "").lower():
                claim.subject, claim.subject_source = owner, "clause"
    restated(claims, text)
    runs_with_component(text, claims)
    named_system_without(claims)
    ablations(text, claims, is_comparison)
    normalised_baselines(text, claims)  # "... normalized to BarPipe. FooSys is up to 2.6x faster."
    default_baselines(claims, structure)
    if lang == "en":
        techniques_acting(text, claims, proposed_names)
    for claim in claims:
        if claim.versus is None and id(claim) in unnamed:
            claim.versus, claim.versus_span, claim.versus_source = unnamed[id(claim)]
    _fields(text, sentences, claims, mentions, structure)
    # last, once the defaults have counted the phrases as written: each baseline phrase to the name it holds
    name_baselines(text, claims, mentions, proposed_names)
    for claim in claims:
        if claim.versus and _LONE_MEASURE.match(claim.versus):
            # "76.5% compared to the performance on 1024 GPUs": the same system at another setting, no
            # system to name (after the defaults, which count the phrases as written)
            claim.versus, claim.versus_span, claim.versus_source = None, None, None
    return extra


def techniques_acting(text: str, claims: list[Claim], proposed_names: set[str]) -> None:
    """"Stage folding thus cuts the bubble time by 31%": a technique written in plain words that acts on what
    the number measures makes the result the paper's system run with it (D2), "<system> with <technique>".
    Run after the defaults, so the baseline is what it would be for the system's own result: only the
    subject's name changes."""
    previous: tuple[Claim, str] | None = None  # the last claim so named, and the system it was named from
    for claim in claims:
        if claim.subject_source != "primary" or not claim.subject or not claim.sentence:
            continue
        if claim.subject.lower() not in proposed_names:
            continue  # already a configuration of the system ("<system> with X" from an ablation)
        if claim.in_list and previous and previous[0].sentence == claim.sentence and previous[1] == claim.subject:
            # "prefetching improves it by 1.13x, 1.14x and 1.21x": the list's numbers are all the same run's
            claim.subject, claim.subject_source = previous[0].subject, "component"
            continue
        phrase = acting_phrase(text, claim.sentence[0], claim.start, claim.end)
        if phrase and phrase.lower() not in proposed_names and phrase.lower() not in (claim.versus or "").lower():
            system = claim.subject
            claim.subject, claim.subject_source = configuration(system, phrase), "component"
            previous = (claim, system)


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
        if (_LIST_GAP.match(gap) is None and _CLAUSE_GAP.search(gap)) or _ASIDE_OPENS.search(gap):
            out.append(other.start)
            break
        last = other
    return out


def _setting(claim: Claim, sentence: tuple[int, int], mentions: MentionIndex) -> str | None:
    """Hardware, models and datasets named in the claim's sentence (not its baseline's), widest first kept."""
    texts: list[str] = []
    for m in mentions.inside(*sentence):
        if inside(m, claim.versus_span):
            continue
        if (m.source == COUNT_SOURCE or m.type in ("model", "dataset")) and m.text not in texts:
            texts.append(m.text)
    parts = [t for t in texts if not any(t != other and t in other for other in texts)]
    return "; ".join(parts[:4] + claim.notes) or None


#: Sentences before a claim's looked at for the paragraph's accelerator.
_PARAGRAPH_LOOKBACK = 6


def _fields(
    text: str, sentences: np.ndarray, claims: list[Claim], mentions: MentionIndex, structure: Structure
) -> None:
    """Each claim's setting as fields, once every claim's baseline is known (after ``distribute``): a
    figure in any baseline phrase of the sentence belongs to that baseline."""
    baselines: dict[tuple[int, int], list[tuple[int, int]]] = {}
    found: dict[tuple[int, int], dict[str, Any]] = {}  # the candidates of each sentence, read once
    tables: dict[int, Any] = {}  # each table's end and caption, by its top (``cell_context``)
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
        here = found[sentence]
        cell = cell_context(text, claim.start, claim.end, tables)
        if cell:  # a table's cell: of the settings the table writes, only its own label's and header's
            spans, (top, bottom), caption = cell
            here = {
                field: [f for f in values if not top <= f[0] < bottom or any(a <= f[0] and f[1] <= b for a, b in spans)]
                for field, values in here.items()
            }
        claim.fields = claim_settings(text, claim, here, baselines.get(sentence, []) + own, earlier, clause, mentions)
        if cell and caption:  # what the caption states holds for every cell the cell does not name itself
            stated = claim_settings(text, claim, candidates(text, caption, mentions), mentions=mentions)
            claim.fields.update({k: v for k, v in stated.items() if claim.fields.get(k) is None and v is not None})
        if cell and claim.fields.get("measure") is None:  # what the column's header, then the caption, measures
            named = " ".join(text[a:b] for a, b in [*spans[1:], *([caption] if caption else [])])
            if found_measure := measure(named, claim.unit):
                claim.fields["measure"], claim.fields["direction"] = found_measure, DIRECTIONS.get(found_measure)


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
