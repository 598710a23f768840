"""Baselines shared by lists: a list of numbers and a list of coordinated baselines paired in order
("4.5x and 3.1x higher than A and B, respectively", "outperforms A and B by 1.2x and 1.5x"; a run of
slash-joined numbers per baseline, "by 9x/8x and 3x/2x at batch 8/16"), a baseline named
in an earlier clause for a "respectively" list, and a baseline stated after a list's last number holding for
the numbers before it ("68% and 46% of those achieved by X"; "1.4x on average, and up to 2.1x, over X"), and
a later conjunct that leaves its than-phrase out ("2x faster than X when busy, and 3x faster when idle", or
"..., and 3x when idle", the comparative left out as well; "..., and BarNet 1.3x faster", naming what it
measured). Split from ``_baselines`` (which finds one
claim's phrase): these rules run once over a document's claims, after every claim has its own phrase.
"""

from __future__ import annotations

import re

from assay.operators.papers._claims import Claim
from assay.operators.papers._numbers import NUMBER_LIST_GAP

# Verbs that name their baseline before the numbers: "outperforms A and B by 1.2x and 1.5x".
_VERB_FIRST = re.compile(r"\b(?:outperform|beat|surpass|exceed|outpac)\w*\s+(?:the\s+)?$", re.I)
# A name of up to three capitalised words, perhaps with its citation ("Tiresias [22]"), which the caller drops,
# and a short parenthesis before or after it ("TVM Relay VM (Nimble) [71]", "Inductor [21] (dynamic shape)").
_NAME_ASIDE = r"(?:\s*\((?-i:[A-Za-z])[\w-]*(?:\s[\w-]+){0,2}\))?"
# An ablation's variant is a name too: the system without a part ("w/o CUDA graph") or with one added ("vLLM +
# async").
ONE_NAME = (
    r"(?:w/o?\s+(?-i:[A-Za-z])[\w+-]*(?:\s(?-i:[A-Za-z])[\w+-]*){0,2}|"
    r"(?:[A-Z][\w+-]*|[a-z]{1,3}[A-Z][\w+-]*)(?:[ -][A-Z][\w+-]*){0,2}(?:\s\+\s[A-Za-z][\w-]*)?)"
    rf"{_NAME_ASIDE}(?:\s*\[[\w\s,.-]{{1,20}}\])?{_NAME_ASIDE}"
)
CITATION = re.compile(r"\s*\[[^\]]*\]")

# "at 55%", "at about 40%": a level or condition, set after the number a comparison is about.
_AT_LEVEL = re.compile(r"\bat\s+(?:(?:about|around|roughly|nearly|over|least|most)\s+)?[~∼≈]?$", re.I)
#: "respectively" (or 分别): numbers listed are paired in order with a list of names.
RESPECTIVELY = re.compile(r"\brespectively\b|分别")
_PARTS = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|、|和|与|及)\s*")


def distribute(text: str, claims: list[Claim]) -> None:
    """ "4.5x and 3.1x higher than A and B, respectively": the i-th claim of a list sharing one comparison
    phrase is measured against the i-th of the phrase's coordinated baselines."""
    groups: dict[tuple[int, int], list[Claim]] = {}
    for claim in claims:
        if claim.versus_span and claim.sentence:
            if claim.versus_span in groups and _AT_LEVEL.search(text, max(0, claim.start - 24), claim.start):
                # "16x longer sequences at 55% MFU than A and B": the number after "at" is the level the
                # comparison holds at, no second comparison with the phrase
                claim.versus, claim.versus_span, claim.versus_source = None, None, None
                continue
            groups.setdefault(claim.versus_span, []).append(claim)
    for (start, end), group in groups.items():
        if len(group) < 2:
            continue
        sentence = group[0].sentence
        assert sentence is not None
        # "respectively", or a verb naming its baselines before the numbers ("surpasses A and B by 1.2x and
        # 1.5x"), pairs them in order.
        named_first = end <= group[0].start and _VERB_FIRST.search(text, max(sentence[0], start - 30), start)
        parts = [p for p in _PARTS.split(text[start:end]) if p]
        runs: list[list[Claim]] | None = [[claim] for claim in group]
        if len(parts) != len(group):
            runs = _slashed_runs(text, group, claims, len(parts))  # "by 9×/8×, 3×/2× and 2×/1×": a run each
            if runs is None:
                continue
        # Without "respectively", as many named systems as numbers pair in order too ("(1.5x and 5.4x) over
        # FooSched and BarPipe"); descriptions ("a batching baseline and the default", "A 和 B 基线": a name with
        # a head noun after it, which the list shares) do not.
        all_named = all(_BARE_NAME.fullmatch(CITATION.sub("", p).strip()) for p in parts)
        if not (named_first or all_named or RESPECTIVELY.search(text, *sentence)):
            continue
        offset = start
        for run, part in zip(runs, parts, strict=True):
            at = text.find(part, offset, end)
            for claim in run:
                claim.versus, claim.versus_span = CITATION.sub("", part).strip(), (at, at + len(part))
                claim.versus_source = "respectively"
            offset = at + len(part)
    _respectively_runs(text, claims)
    _respectively_named_before(text, claims)
    _respectively_previous_sentence(text, claims)


#: Numbers joined by a slash into one run ("9.0×/8.3×/7.0×", one value a setting: batch size 8/16/32).
_SLASH = re.compile(r"\s*/\s*")


def _slashed_runs(text: str, group: list[Claim], claims: list[Claim], n: int) -> list[list[Claim]] | None:
    """The numbers of a list as runs of slash-joined numbers, where there are ``n`` runs of equal length: each run
    measures one of ``n`` baselines in order, at each of the settings its slashes go through. The list goes on
    through numbers after the group's that found no phrase of their own (``1.4×/1.3× when the batch size is
    ...``), as long as only slashes and the list's commas and conjunctions stand between them."""
    first = min(group, key=lambda c: c.start)
    later = [c for c in claims if c.sentence == first.sentence and c.versus_span is None and c.start > first.start]
    ordered = sorted([*group, *later], key=lambda c: c.start)
    runs: list[list[Claim]] = [[ordered[0]]]
    for prev, claim in zip(ordered, ordered[1:], strict=False):
        if _SLASH.fullmatch(text, prev.end, claim.start):
            runs[-1].append(claim)
        elif _PARTS.fullmatch(text, prev.end, claim.start):
            runs.append([claim])
        else:
            break
    if len(runs) != n or len({len(r) for r in runs}) != 1 or len(runs[0]) < 2 or len(runs) * len(runs[0]) < len(group):
        return None
    return runs


# "outperforms A, B, C, and D even more, reducing the time by 95%, 84%, 88%, and 53%, respectively": the
# comparison names its list of baselines in an earlier clause of the sentence than the list of numbers.
_LIST_BEFORE = re.compile(
    r"\b(?:outperform\w*|beat(?:s|ing)?|surpass\w*|over|than|compared\s+(?:with|to|against)|relative\s+to|"
    r"with\s+respect\s+to|w\.\s?r\.\s?t\.?|"
    r"versus|vs\.?|against)\s+(?:the\s+)?"
    rf"(?P<n>{ONE_NAME}(?:\s*,\s*{ONE_NAME})*,?\s+(?:and|or)\s+{ONE_NAME})",
)
_ONE_OF_LIST = re.compile(rf"{ONE_NAME}")
# Between such a list and its numbers, a copula: "the speedup over A, B and C is 1.2x, 1.4x and 1.1x".
_PREDICATE = re.compile(
    r"\s*(?:\[[^\]]{1,20}\]\s*)?,?\s*(?:is|are|was|were|reaches|reach|:)\s*"
    r"(?:(?:about|around|roughly|up\s+to|on\s+average)\s+)?[~≈∼]?\s*",
    re.I,
)


def _respectively_named_before(text: str, claims: list[Claim]) -> None:
    """A list of numbers with "respectively" and no baseline of its own takes, in order, the names of a
    comparison earlier in its sentence that lists as many systems ("A outperforms B, C and D, cutting the
    JCT by 40%, 30% and 20%, respectively"); so does a list the numbers follow as its predicate, with or
    without "respectively" ("the average speedup over B, C and D is 1.2x, 1.4x and 1.1x")."""
    for sentence, group in _by_sentence(claims).items():
        respectively = RESPECTIVELY.search(text, *sentence)
        for run in _list_runs(text, group):
            if len(run) < 2:
                continue
            found = list(_LIST_BEFORE.finditer(text, sentence[0], run[0].start))
            if not found:
                continue
            names = list(_ONE_OF_LIST.finditer(text, found[-1].start("n"), found[-1].end("n")))
            listed = {CITATION.sub("", n.group()).strip() for n in names}
            # a number whose own phrase found one of the list's names (its first, cut at a comma) is the
            # list's as well
            if len(names) != len(run) or any(c.versus is not None and c.versus not in listed for c in run):
                continue
            if not respectively and not _PREDICATE.fullmatch(text, found[-1].end("n"), run[0].start):
                continue  # without "respectively", only a list the numbers follow as its predicate
            for claim, name in zip(run, names, strict=True):
                claim.versus = CITATION.sub("", name.group()).strip()
                claim.versus_span, claim.versus_source = (name.start(), name.end()), "respectively"


def _respectively_previous_sentence(text: str, claims: list[Claim]) -> None:
    """A list of numbers with "respectively" and no baseline in its sentence goes on from the sentence before
    when that one paired as many numbers of the same subject with its baselines in order ("A outperforms B and C
    by 1.7x and 1.3x, respectively. In communication latency alone, A reduces it by 3.7x and 1.8x,
    respectively"): the same baselines, in the same order."""
    sentences = sorted(_by_sentence(claims).items())
    for (previous_sentence, before), (sentence, group) in zip(sentences, sentences[1:], strict=False):
        if (
            text[previous_sentence[1] : sentence[0]].strip()  # (the very next sentence only)
            or len(group) < 2
            or len(group) != len(before)
            or any(c.versus is not None for c in group)
            or not RESPECTIVELY.search(text, *sentence)
            or any(c.versus_source != "respectively" for c in before)
            or len({c.subject for c in [*before, *group]}) != 1
            or "\n\n" in text[previous_sentence[1] : sentence[0]]  # (a paragraph between: another topic)
        ):
            continue
        for claim, previous in zip(sorted(group, key=lambda c: c.start), sorted(before, key=lambda c: c.start),
                                   strict=True):
            claim.versus, claim.versus_span, claim.versus_source = previous.versus, None, "respectively"


def _respectively_runs(text: str, claims: list[Claim]) -> None:
    """ "40% and 31% lower cost, 22% and 18% lower tail latency, and 15% and 26% shorter runs, compared
    to A and B, respectively": each earlier list of as many numbers as the phrase has baselines pairs with
    them in order too, not only the list next to the phrase."""
    for sentence, group in _by_sentence(claims).items():
        paired = [c for c in group if c.versus_source == "respectively"]
        if len(paired) < 2 or not RESPECTIVELY.search(text, *sentence):
            continue
        names = [(c.versus, c.versus_span) for c in paired]
        for run in _list_runs(text, group):
            if len(run) == len(names) and all(c.versus is None and c.end <= paired[0].start for c in run):
                for claim, (name, span) in zip(run, names, strict=True):
                    claim.versus, claim.versus_span, claim.versus_source = name, span, "respectively"


def _by_sentence(claims: list[Claim]) -> dict[tuple[int, int], list[Claim]]:
    """The claims of each sentence, in order (claims without a sentence left out)."""
    found: dict[tuple[int, int], list[Claim]] = {}
    for claim in claims:
        if claim.sentence:
            found.setdefault(claim.sentence, []).append(claim)
    return found


def _list_runs(text: str, group: list[Claim]) -> list[list[Claim]]:
    """``group`` cut into runs of claims listed together (``40% and 31%``: only a list's joiner between)."""
    runs: list[list[Claim]] = []
    for claim in group:
        if runs and NUMBER_LIST_GAP.fullmatch(text, runs[-1][-1].end, claim.start):
            runs[-1].append(claim)
        else:
            runs.append([claim])
    return runs


def share_backwards(text: str, claims: list[Claim]) -> None:
    """ "68% and 46% of those achieved by X": a baseline stated right after the last number of a list holds
    for the numbers listed before it, which found none of their own."""
    for index in range(len(claims) - 1, 0, -1):
        claim = claims[index]
        if not claim.versus or not claim.versus_span or claim.versus_span[0] < claim.end:
            continue
        j = index - 1
        while (
            j >= 0
            and claims[j].versus is None
            and claims[j].sentence == claim.sentence
            and (
                NUMBER_LIST_GAP.fullmatch(text, claims[j].end, claims[j + 1].start)
                or _SUMMARY_PAIR.fullmatch(text, claims[j].end, claims[j + 1].start)
            )
        ):
            claims[j].versus, claims[j].versus_span = claim.versus, claim.versus_span
            claims[j].versus_source = "list"
            j -= 1
    _elided(text, claims)


# "2x faster than A when the cluster is busy, and 3x faster when it is idle": a later conjunct repeats the
# comparative and leaves out its than-phrase, which is the earlier one's.
_ELIDED_COMPARATIVE = re.compile(
    r"\s*(?:less|more|fewer|lower|higher|faster|slower|smaller|larger|cheaper|better|shorter|longer|sooner)\b"
)
# "2x slower than A at low load, and 3x at high load": the conjunct leaves out the comparative too, its number
# followed only by the condition it holds under (or the sentence's end)
_ELIDED_ALL = re.compile(r"\s*(?:(?:at|on|for|in|under|with|when|during)\b|[.;)]|$)")
# (the conjunct may name what it measured before its number: "..., and BERT-large 1.3x faster")
_CONJUNCT = re.compile(
    r",?\s+(?:and|but|while)\s+(?:(?:on|for|with)\s+)?(?:[\w.-]+\s+){0,3}?(?:(?:up\s+to|about|over|nearly|only)\s+)?"
    r"[~∼≈]?$"
)
_A_NAME = re.compile(r"\b[A-Z][\w+-]*|\b[a-z]{1,3}[A-Z]")
_WORKLOAD_AFTER = re.compile(r"\b(?:on|for|at|in|with|under|across)\s+(?:the\s+)?[\w.+-]+")
_OWN_COMPARISON = re.compile(r"\b(?:than|over|versus|vs\.?|against|compared|relative)\b")


def _elided(text: str, claims: list[Claim]) -> None:
    """A claim without a baseline, its number followed by a comparative with no comparison of its own in its
    clause, coordinated after a claim of the same sentence compared "than X" after its number: against X."""
    for index in range(1, len(claims)):
        claim, before = claims[index], claims[index - 1]
        span = before.versus_span
        if (
            claim.versus is not None
            or not before.versus
            or span is None
            or before.sentence != claim.sentence
            or claim.sentence is None
            or span[0] < before.end
            or span[1] > claim.start
            or not (
                _ELIDED_COMPARATIVE.match(text, claim.end, claim.sentence[1])
                or _ELIDED_ALL.match(text, claim.end, claim.sentence[1])
            )
            or not _CONJUNCT.search(text, span[1], claim.start)
        ):
            continue
        # (a name the conjunct runs on is its workload, no comparand: "and 2.4x faster on DCN")
        after = _WORKLOAD_AFTER.sub(" ", text[claim.end : claim.sentence[1]].split(",")[0])
        if _OWN_COMPARISON.search(after) or _A_NAME.search(after):
            continue  # "and 38% faster that FooKernel" (a typo for than): the clause names its own comparand
        claim.versus, claim.versus_span, claim.versus_source = before.versus, span, "list"


_BARE_NAME = re.compile(rf"{ONE_NAME}")
# An average and its peak stated as one result: "1.4x on average, and up to 2.1x, over X".
_SUMMARY_PAIR = re.compile(
    r"\s+(?:[a-z-]+\s+){0,2}?(?:on\s+average|in\s+(?:the\s+)?median|on\s+median|overall)\s*,?\s*(?:and|or)\s+"
    r"(?:up\s+to|as\s+much\s+as|at\s+most|peaking\s+at)\s+",
    re.I,
)
