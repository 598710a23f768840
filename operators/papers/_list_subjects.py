"""Numbers listed after a list of names take those names in order: "the batches that GPipe and vPipe reach are
68% and 46% of ZeRO's" gives 68% to GPipe and 46% to vPipe, as "respectively" would; unless the names are what
the paper's own work was measured on ("our approach reduces the training time of A and B by 9% and 7%").
A module of its own because it reads a sentence's runs of numbers against its runs of names, after every
claim's own subject was decided (``_subjects``)."""

from __future__ import annotations

import re

from assay.operators.papers._baseline_lists import RESPECTIVELY
from assay.operators.papers._baselines import inside, name_key
from assay.operators.papers._claims import Claim
from assay.operators.papers._mentions import Mention, MentionIndex
from assay.operators.papers._numbers import NUMBER_LIST_GAP
from assay.operators.papers._subjects import _SELF_WORDS

# Between two coordinated names: "A and B", "A, B, and C", "A or B".
_NAME_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s+|、|和|与|及)\s*", re.I)


def distribute_subjects(text: str, claims: list[Claim], mentions: MentionIndex, own: set[str]) -> None:
    """ "the batches that GPipe and vPipe reach are 68% and 46% of ZeRO's": a list of as many numbers as a
    list of other systems named before them in the sentence (not as baselines) gives the i-th number to
    the i-th system, as "respectively" would."""
    runs: list[list[Claim]] = []
    for claim in claims:
        if (
            runs
            and runs[-1][-1].sentence == claim.sentence
            and NUMBER_LIST_GAP.fullmatch(text, runs[-1][-1].end, claim.start)
        ):
            runs[-1].append(claim)
        else:
            runs.append([claim])
    for run in runs:
        if len(run) < 2 or run[0].sentence is None:
            continue
        names = [
            m
            for m in mentions.inside(run[0].sentence[0], run[0].start)
            if m.type in ("system", "method") and not any(inside(m, c.versus_span) for c in run)
        ]
        listed = _last_name_list(text, names)
        # (the paper's own system among the names: only where "respectively" says the numbers are theirs in
        # order, "the GPU times for Foo, FCFS and SJF were 96%, 75% and 97%, respectively")
        ours = any(m.name.lower() in own for m in listed)
        if len(listed) != len(run) or (
            ours and not (_respectively_theirs(text, run, listed) or _subject_of_the_verb(text, run, listed))
        ):
            continue
        if _measured_on(text, run[0], listed[0], own):
            continue  # "our approach reduces the training time of A and B by 9% and 7%": A and B are workloads
        if len({name_key(m.name) for m in listed}) != len(listed):
            continue
        for claim, m in zip(run, listed, strict=True):
            if claim.versus and name_key(claim.versus) == name_key(m.name):
                break
        else:
            for claim, m in zip(run, listed, strict=True):
                claim.subject, claim.subject_source = m.name, "list"


def _respectively_theirs(text: str, run: list[Claim], listed: list[Mention]) -> bool:
    """Whether "respectively" pairs the numbers with the listed names, the paper's own among them: the names are
    coordinated ("Foo, FCFS, and SJF") and the numbers pair with no list of baselines after them ("6.3x and 4.3x
    compared to A and B respectively" pairs those)."""
    coordinated = re.search(r"\b(?:and|or)\b|和|与|及", text[listed[0].end : listed[-1].start])
    return bool(
        coordinated
        and RESPECTIVELY.search(text, *run[0].sentence)
        and not any(c.versus_source == "respectively" for c in run)
    )


#: Coordinated names that are the clause's subject, their verb right after them: "Foo and Bar reach an average of
#: 95% and 97%", "Foo and Bar can both sustain".
_VERB_AFTER_LIST = re.compile(
    r"\s+(?:(?:can|could|both|each|also|only|still|respectively|then)\s+){0,2}"
    r"(?:reach|achieve|attain|obtain|deliver|sustain|show|get|have|are|were|take|need|use|run|spend|keep|"
    r"incur|cut|reduce|improve|lose)\b[^,;:]*$",
    re.I,
)


def _subject_of_the_verb(text: str, run: list[Claim], listed: list[Mention]) -> bool:
    """Whether the coordinated names are the subject of the verb that states the numbers, the paper's own among
    them ("Dymem and vDNN reach an average of 95% and 97% ..."): in order, as "respectively" would say."""
    coordinated = re.search(r"\b(?:and|or)\b", text[listed[0].end : listed[-1].start])
    return bool(coordinated and _VERB_AFTER_LIST.match(text[listed[-1].end : run[0].start]))


#: A list named as what a measure is of ("the training time of A and B").
_OF_BEFORE = re.compile(r"\bof\s+(?:the\s+)?$", re.I)


def _measured_on(text: str, claim: Claim, first: Mention, own: set[str]) -> bool:
    """Whether a list of names is what the paper's own system is measured on: the list is a measure's object
    ("the training time of A and B") and the clause before it has the paper's work as its subject."""
    lo = claim.sentence[0] if claim.sentence else first.start
    if not _OF_BEFORE.search(text, max(lo, first.start - 12), first.start):
        return False
    before = text[lo : first.start]
    return bool(_SELF_WORDS.search(before)) or any(
        re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", before, re.I) for name in own if name
    )


def _last_name_list(text: str, names: list[Mention]) -> list[Mention]:
    """The coordinated list of two or more names that ends ``names`` (in order of position): none when
    another name stands after the list, closer to the numbers."""
    out: list[Mention] = []
    for m in reversed(names):
        if out and not _NAME_LIST_GAP.fullmatch(text, m.end, out[-1].start):
            break
        out.append(m)
    return list(reversed(out)) if len(out) >= 2 else []
