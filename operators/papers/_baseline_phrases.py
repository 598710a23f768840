"""What a comparison phrase's words say it is, read once ``_baselines.versus`` has cut it (issue 26):

* a bound, not a baseline: "over" before a number ("achieving over a 2.2x speedup") qualifies the number that
  follows it (``is_bound``);
* a measure of a system: "compared to the latency with X", "than the throughput under X" set the number
  against the same measure of X, so X is the baseline (``measured_system``); a measure at a setting ("the
  performance on 1024 GPUs") names no system and is left to be dropped;
* a distance from X after the number: "a 2x gap from ideal scaling", "a factor of 10x away from peak device
  throughput" measure how far the subject is from X (``distance_from``);
* a system run without a component: "compared to FooChat without Hybrid Engine" (``component_left_out``);
* another number's phrase: one followed by its own "by N" ("over A by 8x and over B by 170x") is that
  number's (``has_own_amount``);
* no comparison: "over" after what moves along a path or a scope ("traffic sent over the spine links",
  "averaged over runs", ``over_a_path``).

A module of its own because each rule reads one phrase's shape, with no knowledge of the document.
"""

from __future__ import annotations

import re

from assay.operators.papers._baseline_lists import ONE_NAME
from assay.operators.papers._configs import DEVICE_WORDS
from assay.operators.papers._numbers import NUMBER_WORDS

# "over a 2.2x speedup", "over the 30% mark": the words after the comparison word open with a figure.
_FIGURE = re.compile(r"[~∼≈]?\d[\d.,]*\s*(?:x|×|%|-?fold)(?![\w-])", re.I)
# A measure word standing for "the measure of": "the latency", "the throughput", ...
_MEASURE = re.compile(
    r"^(?:the\s+)?(?:[a-z]+\s+)?(?:performance|throughput|latency|latencies|time|speed|efficiency|runtime|"
    r"results?|cost|memory(?:\s+usage)?|bandwidth|accuracy|utili[sz]ation)$",
    re.I,
)
# ... and the system it is the measure of, after "with", "using" or "under" (not a setting: "on", "at", "for").
_WITH_SYSTEM = re.compile(
    r"\s+(?:with|using|under|of)\s+(?:the\s+|a\s+|an\s+)?(?P<v>[^,.;:()\n]{2,60})", re.I
)
# "a 2x gap from X", "10x away from X", "(over 2x gap to X)": after the number, before the phrase.
_DISTANCE = re.compile(
    r"\s*[x×]?\s*(?:\)\s*)?(?:gap|distance|away|off)\s+(?:from|to)\s+(?:the\s+)?(?P<v>(?:[^,.;:()\n]|\n(?!\s*\n)){2,90})", re.I
)


# "fewer than four GPUs", "more than 8 nodes": a count of machines, the bound of a workload's size.
_MACHINE_COUNT = re.compile(
    rf"^(?:\d[\d,]*|{NUMBER_WORDS}|sixteen|a\s+(?:few|single))\s+(?:[A-Za-z0-9-]+\s+)?(?:{DEVICE_WORDS}|CPUs?)$", re.I
)


def is_bound(phrase: str) -> bool:
    """Whether the words after a comparison word are a figure ("over a 2.2x speedup": "over" is then the
    number's bound) or a count of machines ("jobs requesting fewer than four GPUs": a size, no system)."""
    return _FIGURE.match(phrase) is not None or _MACHINE_COUNT.match(phrase) is not None


def measured_system(text: str, phrase: str, end: int, stop: re.Pattern[str]) -> tuple[str, int, int] | None:
    """The system whose measure the phrase names ("the latency with CUDA-only kernels": CUDA-only kernels),
    with its span, when the phrase cut at ``end`` is a measure alone; ``stop`` ends the system's words."""
    if not _MEASURE.match(phrase):
        return None
    return _named(_WITH_SYSTEM.match(text, end), stop)


def distance_from(text: str, end: int, limit: int, stop: re.Pattern[str]) -> tuple[str, int, int] | None:
    """What a number right before "gap from X" / "away from X" measures the distance to: X, with its span."""
    return _named(_DISTANCE.match(text, end, limit), stop)


def _named(m: re.Match[str] | None, stop: re.Pattern[str]) -> tuple[str, int, int] | None:
    """The words of ``m``'s group ``v`` up to where ``stop`` ends them, with their span; None for fewer than two
    characters."""
    if not m:
        return None
    words = m.group("v")
    cut = stop.search(words)
    words = (words[: cut.start()] if cut else words).strip()
    if len(words) < 2:
        return None
    return words, m.start("v"), m.start("v") + len(words)


# A comparison phrase's own amount right after it ("over B by more than 170x"): the phrase belongs to that number.
_BY_NUMBER_AFTER = re.compile(
    r"\s+by\s+(?:(?:more|less)\s+than\s+|up\s+to\s+|over\s+|about\s+|around\s+|nearly\s+|almost\s+|roughly\s+|[~≈∼]\s*)?"
    r"\d[\d.,]*\s*(?:x|×|%|times)",
    re.I,
)
# After a system's name, the component it is run without: "FooChat without Hybrid Engine", "X without caching".
_NAME_WITHOUT = re.compile(r"\s+without\s+(?:the\s+|its\s+)?(?:[A-Z][\w+-]*(?:\s+[A-Z][\w+-]*){0,3}|[a-z][\w-]+(?=\s*[,.;)(]|\s*$))")


def component_left_out(text: str, end: int) -> int | None:
    """Where a system's name ending at ``end`` is followed by the component it is run without ("FooChat
    without Hybrid Engine"): the end of that component, else None."""
    m = _NAME_WITHOUT.match(text, end)
    return m.end() if m else None


def has_own_amount(text: str, end: int) -> bool:
    """Whether a comparison phrase ending at ``end`` is followed by its own "by N" ("over A by 8x and over B by
    170x": "over B" is 170x's, not 8x's)."""
    return _BY_NUMBER_AFTER.match(text, end) is not None


# "traffic sent over the spine links": a path; "latency (over all lengths)", "averaged (amortized) over runs": a scope.
_PATH_OVER = re.compile(
    r"(?:\b(?:communication|traffic|transfers?|messages?|packets?|data|bytes|sent|transferred|communicated|"
    r"exchanged|moved|carried|routed|streamed|averaged|amortized|amortised|spread|"
    # memory operations made across a link: "8% accesses over the interconnect"
    r"accesses|reads|writes|requests|loads|stores|fetches|lookups)\s+|\(\s*)$",
    re.I,
)


# "over a PCIe 3.0 x16 link", "over the 100 Gbps network": what follows "over" is a link, whatever moved on it.
_OVER_A_LINK = re.compile(
    r"over\s+(?:an?\s+|the\s+|one\s+|two\s+)?(?:[\w.×-]+\s+){0,4}?(?:links?|network|bus|interconnects?|fabric|"
    r"wires?|channels?|NVLinks?|InfiniBand|Ethernet)\b",
    re.I,
)


def over_a_path(text: str, lo: int, at: int) -> bool:
    """Whether the "over" at ``at`` follows what moves along a path or a scope it spans (``lo``: how far back to
    look), or names a link: "traffic sent over the spine links", "averaged over runs", "a transfer over a PCIe
    x16 link" name no baseline."""
    return _PATH_OVER.search(text, lo, at) is not None or _OVER_A_LINK.match(text, at) is not None


def stops_at_the_claim(text: str, at: int, claim_start: int) -> bool:
    """Whether a phrase cut at ``at`` by a number runs up to the claim's own number ("outperforms the baselines
    2.26x"): the number is the claim, not one of a series the phrase names ("larger than layer 2")."""
    return at <= claim_start and not text[at:claim_start].strip()


# A verb's object and "by" right before a later number of its sentence, the verb left out ("..., B by 1.9x, and C
# by"), where the verb compared an earlier object by a figure ("outperforms A by 1.3x").
_ELIDED_OBJECT = re.compile(rf"(?:,|\band)\s+(?:and\s+)?(?P<v>{ONE_NAME})\s+by\s+(?:up\s+to\s+|about\s+|~)?$")
_COMPARED_BY = re.compile(
    r"\b(?:outperform|beat|surpass|exceed|outpac|lead|trail)\w*\s+(?:the\s+)?[\w+-]+(?:\s+[\w+-]+){0,3}\s+by\s+[~\d]"
)


def elided_object(text: str, s_start: int, claim_start: int) -> tuple[str, int, int] | None:
    """The object a left-out comparison verb has right before a claim's number ("outperforms A by 1.3x, B by
    1.9x": B for 1.9x), where the sentence's verb compared an earlier object by a figure; with its span."""
    m = _ELIDED_OBJECT.search(text, max(s_start, claim_start - 80), claim_start)
    if m and _COMPARED_BY.search(text, s_start, m.start()):
        return m.group("v"), m.start("v"), m.end("v")
    return None


# A Chinese share of a peak or maximum, the whole written before the number ("低于峰值的 5%": below 5% of the
# peak; "还不到这些机器所能达到的最大效率的5%"): the whole is what the share is measured against, from the word that
# bounds the share ("低于", "不到", "仅为") to the possessive before the number.
_ZH_SHARE_OF_PEAK = re.compile(
    r"(?:不到|低于|少于|仅为|仅有|只有|约为|达到|接近)(?P<v>[^，。；,;、\s]{0,24}?"
    r"(?:理论峰值|峰值|最大效率|最大吞吐量?|理论上限|上限|理论值))(?:性能|算力)?的\s*$"
)


def zh_share_of_peak(text: str, s_start: int, claim_start: int) -> tuple[str, int, int] | None:
    """The peak or maximum a Chinese share names before its number (``峰值的 5%``), with its span."""
    m = _ZH_SHARE_OF_PEAK.search(text, max(s_start, claim_start - 40), claim_start)
    return (m.group("v"), m.start("v"), m.end("v")) if m else None
