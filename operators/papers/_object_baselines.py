"""Baselines a clause names as the object of its verb rather than after a comparison word.

English also names what a number is measured against with verbs that act on it: "X speeds up Y by 2x",
"X accelerates Y by 1.6x" (or "Y training", where Y is a known system), "X reduces Y's iteration time by 30%",
"X cuts the cost of Y by 40%", "X improves on Y by 17%" (the direct object, its possessive, or the noun after
"of" in it), and "X brings a 20% gain to
Y" (the goal of the gain). A list may leave the verb out after its first item ("speeds up A by 2x and B and
C by 30%", also with a comma alone), and a coordinated object pairs with a "respectively" list ("cuts the
latency of A and B by 40% and 55%, respectively"). Per-number brackets name one baseline a number ("by 2x (A)
and 3x (B)"); "X matches Y's accuracy while training 2.1x faster" sets the number against Y, and "replaces Y
with a 3.2x faster Z" against what is replaced. Chinese puts the object before the
number: "减少了Y的显存（最多13倍）", "将Y的训练时间缩短了40%".

Only a system's name counts as that object -- the paper's known or compared systems, a name written as a
system's ("FooSched", "vPipe"), or, after a verb whose object is a system or a task (speed up, accelerate,
improve on), a capitalised name the paper does not type as a model, dataset or device; never the paper's
own system. "reduces the JCT by 31%", "speeds up MoE training by 3x" or "reduces GPT-3's memory" name no
baseline (a metric, a workload, a model), nor does "reduces the training time of Y" (Y is the model
trained). Rows of ``VERBS`` carry their examples; each construction is
tested through ``extract_knowledge`` in ``tests/unit/test_papers_comparisons.py``. A module of its own because
it reads the mentions (what is a system) over the words before a number, after the phrase rules of
``_baselines`` found nothing.
"""

from __future__ import annotations

import re

from assay.operators.papers._claims import Claim
from assay.operators.papers._mentions import COUNT_SOURCE, MentionIndex
from assay.operators.papers._phrase_names import DESCRIPTORS
from assay.operators.papers._proposals import acceptable

#: (verb, whether its object may be a plain capitalised name, an example). A verb whose object is often a
#: metric ("reduces JCT") takes only a name the paper knows as a system or one written as a system's.
VERBS: tuple[tuple[str, bool, str], ...] = (
    (r"speed(?:s|ing)?\s+up|sped\s+up", True, "Quill speeds up FooSched by 2x"),
    (r"accelerat(?:e|es|ed|ing)", True, "Quill accelerates BarPipe by 1.6x"),
    (r"improv(?:e|es|ed|ing)\s+(?:up)?on", True, "Quill improves on FooSched by 17%"),
    (
        r"boost(?:s|ed|ing)?|improv(?:e|es|ed|ing)|enhanc(?:e|es|ed|ing)",
        False,
        "Quill boosts FooSched's throughput by 1.6x",
    ),
    (
        r"reduc(?:e|es|ed|ing)|cut(?:s|ting)?|lower(?:s|ed|ing)?|shorten(?:s|ed|ing)?|decreas(?:e|es|ed|ing)",
        False,
        "Quill reduces FooSched's iteration time by 30%",
    ),
)
_VERB = re.compile("|".join(rf"\b(?P<v{i}>{pattern})\b" for i, (pattern, _, _) in enumerate(VERBS)), re.I)
# After the object: "by", perhaps with a qualifier ("by up to", "by an average of", "by ~").
_BY = (
    r"\s+by\s+(?:(?:up\s+to|about|around|over|nearly|almost|roughly|approximately|more\s+than|at\s+least|"
    r"as\s+much\s+as|a\s+factor\s+of|an\s+average\s+of|on\s+average|only)\s+)*[~∼≈]?\s*"
)
# The object's characters: a line break inside a paragraph is a PDF's or a source file's, not a clause's end.
_WORDS = r"(?:[^,;:.()\n]|\n(?!\s*\n))"
_OBJECT_BY = re.compile(rf"\s+(?P<o>{_WORDS}{{1,80}}?){_BY}")
# A gapped item of a list: "... by 100% and BOHB and ASHA by 30%".
_GAPPED = re.compile(rf"\s*(?:,\s*(?:(?:and|while)\s+)?|\s(?:and|while)\s+)(?P<o>{_WORDS}{{1,60}}?){_BY}")
_NAME = r"(?:[A-Z][\w+-]*|[a-z]{1,3}[A-Z][\w+-]*)(?:[ -][A-Z][\w+-]*)?"
_CITE = r"(?:\s*\[[\w\s,.-]{1,20}\])?"
# Where the name stands in the object: after "of" ("the cost of Y"), a possessive ("Y's iteration time"), or
# the head, maybe with descriptor nouns ("synchronous Y", "the Y baseline", "Y and Z").
_OF = re.compile(
    rf"\bof\s+(?:the\s+)?(?P<n>{_NAME}{_CITE}(?:(?:\s*,\s*|,?\s+(?:and|or)\s+){_NAME}{_CITE})*)(?:['’]s?)?\s*$"
)
# An object that is a workload's measure ("the end-to-end training time of Y", "the inference latency of Y"):
# what follows "of" is the model run, not a baseline.
_WORKLOAD_OF = re.compile(r"\b(?:training|inference|fine-?tuning|pre-?training|serving|decoding)\b", re.I)
_POSSESSIVE = re.compile(rf"(?:(?:the|a|an)\s+)?(?:[a-z][\w-]*\s+){{0,2}}(?P<n>{_NAME}){_CITE}['’]s?\s+[a-z]")
_HEAD = re.compile(
    rf"(?:(?:the|a|an)\s+)?(?:[a-z][\w-]*\s+){{0,2}}(?P<n>{_NAME}{_CITE}(?:,?\s+(?:and|or)\s+{_NAME}{_CITE})?)"
    rf"(?:\s+(?:{DESCRIPTORS}))*\s*$"
)
# "accelerates FSDP training by 2.1x": a system's name before the task it runs is that system run, the baseline,
# where the paper knows the name as a system's ("speeds up MoE training" names a model's kind, no baseline).
_TASK_HEAD = re.compile(
    rf"(?:(?:the|a|an)\s+)?(?P<n>{_NAME}){_CITE}\s+(?:training|inference|fine-?tuning|pre-?training|serving|"
    rf"jobs?|runs?|workloads?)\s*$"
)
_NAME_PART = re.compile(_NAME)
_DISTINCT = re.compile(r"(?:[A-Z][a-z]+[A-Z0-9][A-Za-z0-9]*|[a-z]{1,3}[A-Z][A-Za-z0-9]*)\+{0,2}")
_SIZE = re.compile(r"\d+(?:\.\d+)?[BMK]\b")
# "brings a 20% gain to Y", "delivers a 1.4x speedup for Y": the goal of the gain.
_GIVES = re.compile(
    r"\b(?:bring|give|provide|deliver|offer|add)(?:s|ed|ing)?\s+(?:an?\s+)?(?:(?:up\s+to|about|over|nearly)\s+)?$",
    re.I,
)
_GAIN_TO = re.compile(
    rf"\s*(?:[a-z][\w-]*\s+){{0,2}}?(?:gains?|speedups?|improvements?|boosts?|acceleration)\s+(?:to|for)\s+"
    rf"(?:the\s+)?(?P<n>{_NAME})(?![\w-])"
)
# "matches Y's accuracy while training 2.1x faster": alike in one respect, the number says how it differs.
_MATCHES = re.compile(
    rf"\b(?:match|equal|retain|preserv|maintain)\w*\s+(?:the\s+[\w-]+\s+of\s+(?P<n1>{_NAME})|(?P<n2>{_NAME})['’]s"
    r"\s+[\w-]+)\s*,?\s+(?:while|and|but|yet)\s+[^,;.()]{0,60}$"
)
_COMPARATIVE = re.compile(
    r"\s*(?:less|more|fewer|lower|higher|faster|slower|smaller|larger|cheaper|better)\b"
)
# "replaces the FooSched planner with a 3.2x faster solver": the thing replaced is what the number is against.
_REPLACES = re.compile(
    r"\b(?:replac|switch|swap|substitut)\w*\s+(?:the\s+|an?\s+)?(?P<n>[^,;:.()]{2,60}?)\s+(?:with|by|for|to)\s+"
    r"(?:an?\s+|the\s+)?(?:(?:nearly|up\s+to|about|roughly|over|almost)\s+)?[~∼≈]?\s*$"
)
_RESPECTIVELY = re.compile(r"\brespectively\b")
_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)")
# A bracket right after a number holding one name: "by 2x (FooSched) and 3x (BarPipe)".
_BRACKET = re.compile(rf"\s*\((?P<n>{_NAME})\)")
# Chinese: "减少了OpenFold的训练峰值内存需求（最多13倍）": the object's owner before 的, a Latin name.
_ZH_OBJECT = re.compile(
    r"(?:减少|降低|缩短|提升|提高|加速|加快|节省)了?\s*(?P<n>[A-Za-z][A-Za-z0-9_.+-]*)\s*的[^，。；,;]{0,30}$"
)
# The object moved before its verb by 将/把: "将A的训练时间缩短了40%".
_ZH_BA = re.compile(
    r"(?:将|把)\s*(?P<n>[A-Za-z][A-Za-z0-9_.+-]*)\s*的[^，。；,;]{0,30}?"
    r"(?:缩短|降低|减少|提升|提高|加速|压缩|节省)了?[^，。；,;\d]{0,6}$"
)
# "accelerates the baseline by 41%", "speeds up the synchronous baseline by 2x": the paper's baseline, unnamed
# here, which the document-level rules name from context where they can.
_UNNAMED_OBJECT = re.compile(r"(?:the\s+|our\s+)?(?P<n>(?:[a-z][\w-]*\s+)?baselines?)\s*")
#: Characters before a number searched for the verb and its object.
_REACH = 160


def object_baselines(text: str, claims: list[Claim], mentions: MentionIndex, own: set[str]) -> None:
    """Give each claim without a baseline the system its clause names as the object of a comparison verb
    (the rules above); per-number brackets naming systems in a list override a shared phrase."""
    _brackets(text, claims, mentions, own)
    previous: Claim | None = None
    for index, claim in enumerate(claims):
        if claim.versus is None and claim.sentence:
            found = _object(text, claim, previous, mentions, own)
            if found:
                claim.versus, claim.versus_span = " ".join(text[found[0] : found[1]].split()), found
                claim.versus_source = "object"
                _pair(text, claims, index)
        previous = claim


def _pair(text: str, claims: list[Claim], index: int) -> None:
    """ "cuts the tail latency of A and B by 40% and 55%, respectively": a coordinated object pairs in order
    with the list of numbers its verb measures it by."""
    first = claims[index]
    assert first.versus_span is not None and first.sentence is not None
    if not _RESPECTIVELY.search(text, *first.sentence):
        return
    names = list(_NAME_PART.finditer(text, *first.versus_span))
    run = [first]
    for other in claims[index + 1 :]:
        if other.sentence != first.sentence or not _LIST_GAP.fullmatch(text, run[-1].end, other.start):
            break
        run.append(other)
    if len(names) < 2 or len(run) != len(names) or any(c.versus is not None for c in run[1:]):
        return
    for claim, name in zip(run, names, strict=True):
        claim.versus, claim.versus_span, claim.versus_source = name.group(), name.span(), "object"


def _object(
    text: str, claim: Claim, previous: Claim | None, mentions: MentionIndex, own: set[str]
) -> tuple[int, int] | None:
    lo = max(claim.sentence[0], claim.start - _REACH) if claim.sentence else claim.start
    if previous is not None and previous.sentence == claim.sentence and previous.versus_source == "object":
        gapped = _GAPPED.fullmatch(text, previous.end, claim.start)
        if gapped:
            return _in_object(text, gapped.start("o"), gapped.end("o"), True, mentions, own)
    if previous is not None and previous.sentence == claim.sentence:
        lo = max(lo, previous.end)
    for m in reversed(list(_VERB.finditer(text, lo, claim.start))):
        rest = _OBJECT_BY.fullmatch(text, m.end(), claim.start)
        if rest:
            loose = VERBS[int(next(k for k, v in m.groupdict().items() if v)[1:])][1]
            return _in_object(text, rest.start("o"), rest.end("o"), loose, mentions, own)
    gives = _GIVES.search(text, lo, claim.start)
    goal = _GAIN_TO.match(text, claim.end, claim.sentence[1]) if gives and claim.sentence else None
    if goal and _system(text, goal.start("n"), goal.end("n"), True, mentions, own):
        return goal.span("n")
    alike = _MATCHES.search(text, lo, claim.start)
    if alike and claim.sentence and _COMPARATIVE.match(text, claim.end, claim.sentence[1]):
        group = "n1" if alike.group("n1") else "n2"
        if _system(text, alike.start(group), alike.end(group), True, mentions, own):
            return alike.span(group)
    replaced = _REPLACES.search(text, lo, claim.start)
    if replaced and claim.sentence and _COMPARATIVE.match(text, claim.end, claim.sentence[1]):
        return replaced.span("n")
    zh = _ZH_OBJECT.search(text, lo, claim.start) or _ZH_BA.search(text, lo, claim.start)
    if zh and _system(text, zh.start("n"), zh.end("n"), False, mentions, own):
        return zh.span("n")
    return None


def _in_object(
    text: str, lo: int, hi: int, loose: bool, mentions: MentionIndex, own: set[str]
) -> tuple[int, int] | None:
    """The span of the system the object ``text[lo:hi]`` names (after "of", a possessive, or its head); after a
    verb whose object is a system, the paper's unnamed baseline too ("accelerates the baseline by 41%")."""
    unnamed = _UNNAMED_OBJECT.fullmatch(text, lo, hi) if loose else None
    if unnamed:
        return unnamed.span("n")
    for pattern, plain in ((_OF, True), (_POSSESSIVE, True), (_TASK_HEAD, False), (_HEAD, loose)):
        m = pattern.search(text, lo, hi) if pattern is _OF else pattern.match(text, lo, hi)
        if not m:
            continue
        if pattern is _OF and _WORKLOAD_OF.search(text, lo, m.start()):
            return None  # "the training time of Y": Y is the model trained, not a system compared with
        names = list(_NAME_PART.finditer(text, m.start("n"), m.end("n")))
        if names and all(_system(text, n.start(), n.end(), plain, mentions, own) for n in names):
            return m.start("n"), m.end("n")
        return None
    return None


def _system(text: str, start: int, end: int, plain: bool, mentions: MentionIndex, own: set[str]) -> bool:
    """Whether ``text[start:end]`` is another system's name: a known system, a name written as a system's, or
    (``plain``) a capitalised name that is no model, dataset or device; never the paper's own."""
    name = text[start:end]
    if name.lower() in own or not acceptable(name) or _SIZE.search(name):
        return False
    covering = mentions.overlapping(start, end)
    if any(m.type not in ("system", "method") or m.source == COUNT_SOURCE for m in covering):
        return False
    if any(m.name.lower() in own or m.text.lower() in own for m in covering):
        return False
    return bool(covering) or bool(_DISTINCT.fullmatch(name)) or plain


def _brackets(text: str, claims: list[Claim], mentions: MentionIndex, own: set[str]) -> None:
    """ "outperforms the baselines by 2x (FooSched) and 3x (BarPipe)": two or more numbers of one sentence,
    each with a system's name in brackets right after it, are each measured against that name; where the
    sentence names its baseline after them ("2.9x (FooNet) and 3.1x (BarNet) faster than DP"), the brackets
    name the workloads each number was measured on."""
    marked = []
    for claim in claims:
        m = _BRACKET.match(text, claim.end)
        if m and claim.sentence and _system(text, m.start("n"), m.end("n"), False, mentions, own):
            marked.append((claim, m.span("n")))
    for claim, span in marked:
        if claim.versus_source == "phrase" and claim.versus_span and claim.versus_span[0] > span[1]:
            continue  # "2.9x (FooNet) and 3.1x (BarNet) faster than DP": the brackets name workloads
        if sum(other.sentence == claim.sentence for other, _ in marked) >= 2:
            claim.versus, claim.versus_span, claim.versus_source = text[span[0] : span[1]], span, "object"
