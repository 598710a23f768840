"""What a comparison phrase names, by its grammar: the words after "than", "over", "compared to", ... are a noun
phrase whose head or appositive is the baseline, with words around it that are not part of the name.

``_baselines.versus`` cuts the phrase where its clause goes on; this module reads the phrase's shape. Each
shape is a row of ``SHAPES`` with its own example (tested through ``extract_knowledge`` in
``tests/unit/test_papers_comparisons.py``):

* a quantifier over a coordination: "than both A and B" -> ``A and B`` ("either", "all of", "each of");
* a selection from a list: "over the best of A, B and C" -> ``A, B and C`` (the list runs over its commas,
  which end a phrase elsewhere);
* the figure of another system: "than that of A", "than those achieved by A" -> ``A``;
* the clause of the than-phrase: "than A does", "than A can" -> ``A`` (its verb is no part of the name), and
  a conjunction left at the phrase's end ("over A and by 45% over B" -> ``A``);
* a description with its name in apposition: "than the state-of-the-art scheduler A" -> ``A`` (the words
  before the name end in a noun that describes a system: ``_phrase_names.DESCRIPTORS``); "than vanilla A"
  keeps its modifier, which names a variant;
* examples of a description: "existing schedulers such as A" / "like A" / "including A" -> ``A``;
* a coordination of names the comma cut: "outperforms A, B and C by ..." -> ``A, B and C`` (for the list
  rules to pair); the clause's verb left before a number: "the gains over A grow to 3x" -> ``A``, or a verb
  of change a preposition cut: "the advantage over A grows with skew" -> ``A``.

A citation between coordinated names ("A [12] and B [7]") no longer ends the phrase (``mask_citations``).
A module of its own because it is one step over one phrase, with no knowledge of the claim or the document.
"""

from __future__ import annotations

import re

from assay.operators.papers._baseline_lists import ONE_NAME
from assay.operators.papers._phrase_names import DESCRIPTORS

# A coordination of names: "A", "A and B", "A, B, and C" (citations allowed after each).
_NAME_LIST = re.compile(rf"{ONE_NAME}(?:\s*,\s*{ONE_NAME})*(?:,?\s+(?:and|or)\s+{ONE_NAME})?")
_AUX = r"does|do|did|can|could|would|will|is|are|was|were|has|have|had"

#: (what the phrase's shape is, the pattern read on the phrase, an example): ``n`` is the baseline's start;
#: a row whose ``list`` group matched takes the whole coordination of names from the text at that point.
SHAPES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    (
        "a quantifier over a coordination",
        re.compile(r"^(?:both|either|all\s+of|each\s+of|any\s+of)\s+(?:the\s+)?(?P<n>\S)", re.I),
        "than both FooSched and BarPipe",
    ),
    (
        "a selection from a list",
        re.compile(
            r"^(?:the\s+)?(?:best|strongest|fastest|better|stronger|faster|top|leading)\s+(?:one\s+)?"
            r"(?:of|among)\s+(?:the\s+)?(?P<list>)(?P<n>[A-Z]|[a-z]{1,3}[A-Z])"
        ),
        "over the best of FooSched, BarPipe and TideRun",
    ),
    (
        "the figure of another system",
        re.compile(
            r"^(?:that|those|the\s+ones?)\s+(?:of|for|(?:achieved|reached|obtained|attained|measured)\s+"
            r"(?:by|with))\s+(?:the\s+)?(?P<n>\S)"
        ),
        "lower than that of BarPipe",
    ),
    (
        "examples of a description",
        re.compile(
            r"^(?:[a-z][\w-]*\s+){1,4}?(?:such\s+as|like|including|e\.\s?g\.,?)\s+(?P<list>)"
            r"(?P<n>[A-Z]|[a-z]{1,3}[A-Z])"
        ),
        "existing schedulers such as BarPipe",
    ),
    (
        "a description with its name in apposition",
        re.compile(rf"^(?:(?:the|a|an)\s+)?(?:[a-z][\w-]*\s+){{0,4}}(?:{DESCRIPTORS})\s+(?P<n>{ONE_NAME})$"),
        "the state-of-the-art scheduler BarPipe",
    ),
)
# "than FooSched does", "than BarPipe can": the than-clause's verb after the name; "by 31% over A and by 45%
# over B": a conjunction the phrase's cut left behind.
_TRAILING_AUX = re.compile(rf"\s+(?:{_AUX}|and|or)$")
_NAME_START = re.compile(r"[A-Z]|[a-z]{1,3}[A-Z]")
# A citation followed by more of a coordination: "FooSched [12] and BarPipe [7]".
_INNER_CITATION = re.compile(r"\s*\[[\w\s.-]{1,20}\](?=\s*,?\s+(?:and|or)\s)")


# "outperforms A, B and C by ...": a name followed by more names, the last after "and", is a coordination the
# comma cut; it ends where the clause goes on.
_LIST_TAIL = re.compile(
    # (the first name's citation, which a stop at its number cut from the phrase: "outperforms A [64], B [4] and C")
    rf"(?:\s*\[[\w\s,.-]{{1,20}}\])?(?:\s*,\s*{ONE_NAME})+,?\s+(?:and|or)\s+{ONE_NAME}"
    r"(?=\s*(?:[,.;:)]|$|\s(?:by|on|in|with|for|across|at|respectively|when|while|under)\b))"
)
_ONE = re.compile(ONE_NAME)
# "the gains of X over A grow to 3x": the clause's verb and its preposition, left when a number cut the phrase.
_TRAILING_VERB = re.compile(r"\s+(?:[a-z]+\s+){1,2}(?:to|by|at|of|from|between)$")
# "the advantage over static grows with skew": the clause's verb of change after the phrase, which a
# preposition after it cut ("with skew"), is no part of the baseline.
_TRAILING_CHANGE = re.compile(
    r"\s+(?:grows?|grew|increases?|increased|shrinks?|shrank|widens?|widened|narrows?|narrowed|rises?|rose|"
    r"drops?|dropped|falls?|fell|diminish(?:es|ed)|vanish(?:es|ed)|disappears?|disappeared|peaks?|peaked)$"
)


def mask_citations(phrase: str) -> str:
    """The phrase with each citation that stands inside a coordination of names blanked out (same length),
    so that a search for where the phrase ends does not stop at its bracket."""
    return _INNER_CITATION.sub(lambda m: " " * len(m.group()), phrase)


def shape(text: str, start: int, end: int, limit: int) -> tuple[str, int, int]:
    """The baseline the phrase ``text[start:end]`` names, with its span (the phrase itself when no shape
    applies); ``limit``: where the sentence ends, up to which a list may run."""
    phrase = text[start:end]
    for _what, pattern, _example in SHAPES:
        m = pattern.search(phrase)
        if not m:
            continue
        at = start + m.start("n")
        if m.groupdict().get("list") is not None:
            names = _NAME_LIST.match(text, at, limit)
            if names:
                return " ".join(names.group().split()), at, names.end()
            continue
        if at >= end:
            continue
        return shape(text, at, end, limit)
    if _ONE.fullmatch(phrase):
        tail = _LIST_TAIL.match(text, end, limit)
        if tail:
            return " ".join(text[start : tail.end()].split()), start, tail.end()
    change = _TRAILING_CHANGE.search(phrase)
    if change and change.start() > 0:
        phrase, end = phrase[: change.start()], start + change.start()
    verb = _TRAILING_VERB.search(phrase)
    if verb and _NAME_START.match(phrase) and verb.start() > 0:
        phrase, end = phrase[: verb.start()], start + verb.start()
    aux = _TRAILING_AUX.search(phrase)
    if aux and _NAME_START.match(phrase) and aux.start() > 0:
        return " ".join(phrase[: aux.start()].split()), start, start + aux.start()
    return " ".join(phrase.split()), start, end


# "varies over time", "over the course of a day", "over the past year": a stretch of time, no baseline.
SPAN_OVER = re.compile(
    r"over\s+(?:time|(?:the\s+)?(?:course|lifetime|duration|span)\s+of|"
    r"(?:the\s+)?(?:past|last|next|previous|following|first|entire|whole)\s+(?:\w+\s+)?"
    r"(?:years?|months?|weeks?|days?|hours?|minutes?|seconds?|runs?|periods?|decades?)|"
    # "pricing over longer horizons", "over a short horizon": a stretch of time by its length
    r"(?:an?\s+|the\s+)?(?:(?:longer|shorter|long|short|longest|shortest|extended)\s+)?(?:time\s+)?horizons?)\b",
    re.I,
)


# A clause or sentence break in Chinese.
_ZH_BREAK = re.compile(r"[；;。]")
# What may follow a Chinese comparison that closes its sentence: a full stop, spaces, a closing bracket, and links
# set after a list item's statement ("... 与X相比 [[代码]](https://...) [[博客]](https://...)").
_ZH_SENTENCE_END = re.compile(r"(?:[\s。.!?！？)）]|\[\[?[^\]\n]{0,40}\]?\]\([^)\s]*\))*")


def closes_sentence(text: str, claim_end: int, m: re.Match[str], s_end: int) -> bool:
    """Whether the Chinese comparison ``m`` after a claim is the last thing its sentence says ("实现了2倍的吞吐量
    提升，与X相比。") with no clause break (；。) between the claim and it: it then holds for the claims before it."""
    return _ZH_SENTENCE_END.fullmatch(text, m.end(), s_end) is not None and not _ZH_BREAK.search(
        text, claim_end, m.start()
    )
