"""A claim's qualifier ("up to", "on average") and metric ("speedup", "latency reduction") from its sentence.

Each rule looks at a short window beside the number, bounded by its sentence, so the cost per claim is
constant whatever the document's length. The baseline's rules are in ``_baselines``, which shares the
clause boundary (``CLAUSE_END``) defined here.
"""

from __future__ import annotations

import bisect
import re

from assay.operators.papers._claims import Claim

# Qualifiers that may stand a few words before the number ("achieves up to a 2.4x", "最高可达1.42x").
_QUALIFIER_IN_CLAUSE = [
    (
        "up to",
        re.compile(r"\bup\s+to\b|\bas\s+(?:much|high|many|large)\s+as\b|最高|高达|最多|至多|多达|可达", re.I),
    ),
    ("on average", re.compile(r"\bon\s+average\b|\ban\s+average\s+of\b|\baverage\b|平均", re.I)),
]
# Qualifiers that must touch the number ("over 90%", "~2x", "约3倍").
_QUALIFIER_ADJACENT = [
    ("at least", re.compile(r"(?:\bat\s+least|至少|不少于|不低于)\s*(?:a|an|by)?\s*$", re.I)),
    (
        "more than",
        re.compile(r"(?:\bmore\s+than|\bover|\babove|\bexceeding|超过|\$?>\$?|>)\s*(?:by\s+)?$", re.I),
    ),
    (
        "less than",
        re.compile(r"(?:\bless\s+than|\bbelow|\bunder|\bfewer\s+than|低于|不到|不超过|小于)\s*$", re.I),
    ),
    ("within", re.compile(r"(?:\bwithin|\bto\s+within)\s*$", re.I)),
    (
        "about",
        re.compile(
            r"(?:\babout|\bapproximately|\baround|\bnearly|\broughly|\balmost|~|\$\\sim\$|\\sim"
            r"|≈|约|大约|近|接近)\s*(?:by\s+)?$",
            re.I,
        ),
    ),
]
_QUALIFIER_AFTER = [
    ("on average", re.compile(r"^\s*(?:\w+\s+){0,3}?on\s+average\b|^[^，。,;]{0,12}?平均", re.I)),
    ("more than", re.compile(r"^\s*(?:以上|多)")),
    ("about", re.compile(r"^\s*左右")),
]
# Where the words that can name a claim's metric end, after the number ("吞吐量提升了1.8倍，显存降低了37％").
_AFTER_STOP = re.compile(r"[;；。:：!?！？，,]")
CLAUSE_END = re.compile(r"[;；。:：!?！？]|,\s+(?:and|but|while|which|whereas)\b|，(?:而|但|并|同时)")

_METRICS = [
    ("job completion time", r"job\s+completion\s+times?|\bJCTs?\b|作业完成时间"),
    ("throughput", r"throughput|吞吐"),
    ("speedup", r"speed-?ups?|\bfaster|accelerat\w*|加速|更快|提速|速度"),
    ("memory", r"memory|footprint|内存|显存|存储"),
    ("communication", r"communication|traffic|通信|流量"),
    ("latency", r"latency|latencies|延迟|时延"),
    ("utilization", r"utili[sz]ation|\bMFU\b|\bHFU\b|of\s+peak|利用率"),
    (
        "scaling efficiency",
        r"scal(?:ing|ability)\s+efficiency|weak[- ]scaling|strong[- ]scaling|scalability|"
        r"可扩展性|扩展效率|扩展性",
    ),
    ("accuracy", r"accuracy|准确率|精度|精确度"),
    ("bandwidth", r"bandwidth|带宽"),
    ("energy", r"energy|power\s+consumption|能耗|能源|功耗"),
    ("cost", r"\bcosts?\b|成本|费用|开销"),
    ("swap", r"\bswap\w*|交换"),
    (
        "time",
        r"(?:training|completion|execution|iteration|running|run|wall[- ]clock|end-to-end|generation|"
        r"search|compilation|step)\s+time|\btime\b|时间|耗时",
    ),
    ("efficiency", r"efficiency|效率"),
    ("error", r"\berrors?\b|误差|错误率"),
    ("goodput", r"goodput"),
]
_METRIC_RE = re.compile("|".join(f"(?P<m{i}>{p})" for i, (_, p) in enumerate(_METRICS)), re.I)
# Lower-case literal stems where a metric word can start: a pure literal alternation scans ~10x faster than
# _METRIC_RE, which then only has to confirm each hit at its position.
_METRIC_STEMS = re.compile(
    r"job completion|jct|throughput|吞吐|speed|faster|accelerat|加速|更快|提速|速度|"
    r"memory|footprint|内存|显存|存储|"
    r"communicat|traffic|通信|流量|laten|延迟|时延|utili|mfu|hfu|of peak|利用率|scal|weak|strong|扩展|可扩展|"
    r"accura|准确率|精度|精确度|bandwidth|带宽|energy|power|能耗|能源|功耗|cost|成本|费用|开销|swap|交换|"
    r"training|completion|execution|iteration|running|run|wall|end-to-end|generation|search|compilation|step|"
    r"time|时间|耗时|efficien|效率|error|误差|错误率|goodput"
)
_REDUCTION = re.compile(
    r"reduc\w*|\blower\w*|\bless\b|\bfewer\b|\bsav\w*|shorter|decreas\w*|\bcut\w*|smaller|"
    r"减少|降低|缩短|节省|下降|减小",
    re.I,
)
_IMPROVEMENT = re.compile(
    r"improv\w*|increas\w*|\bhigher\b|\bmore\b|better|boost\w*|\bgains?\b|提高|提升|增加|"
    r"改善|增长|改进",
    re.I,
)


def qualifier(text: str, claim: Claim, sentence: tuple[int, int]) -> str | None:
    s_start, s_end = sentence
    clause_start = _clause_start(text, max(s_start, claim.start - 60), claim.start)
    before = text[clause_start : claim.start]
    for name, pattern in _QUALIFIER_ADJACENT:
        if pattern.search(before):
            return name
    best: tuple[int, str] | None = None
    for name, pattern in _QUALIFIER_IN_CLAUSE:
        for m in pattern.finditer(before):
            if best is None or m.start() > best[0]:
                best = (m.start(), name)
    if best:
        return best[1]
    after = text[claim.end : min(s_end, claim.end + 40)]
    for name, pattern in _QUALIFIER_AFTER:
        if pattern.search(after):
            return name
    return None


def _clause_start(text: str, lo: int, hi: int) -> int:
    last = lo
    for m in CLAUSE_END.finditer(text, lo, hi):
        last = m.end()
    return last


class MetricWords:
    """The metric words of the sentences that hold claims, found once, for claims to look up by position."""

    def __init__(self, text: str, spans: list[tuple[int, int]]):
        found: list[tuple[int, int, str]] = []
        for lo, hi in _merged(spans):
            lowered = text[lo:hi].lower()
            if len(lowered) != hi - lo:  # a character whose lower case is longer: no shortcut
                hits = [m.start() for m in _METRIC_RE.finditer(text, lo, hi)]
            else:
                hits = [lo + m.start() for m in _METRIC_STEMS.finditer(lowered)]
            end = lo
            for pos in hits:
                m = _METRIC_RE.match(text, pos, hi) if pos >= end else None
                if m:
                    found.append((m.start(), m.end(), _METRICS[int(m.lastgroup[1:])][0]))  # type: ignore[index]
                    end = m.end()
        self.starts = [f[0] for f in found]
        self.found = found

    def between(self, lo: int, hi: int) -> list[tuple[int, int, str]]:
        i = bisect.bisect_left(self.starts, lo)
        j = bisect.bisect_left(self.starts, hi)
        return [f for f in self.found[i:j] if f[1] <= hi]


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(set(spans)):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def metric(
    text: str, claim: Claim, sentence: tuple[int, int], previous_end: int, words: MetricWords
) -> str | None:
    """The quantity a claim is about: the nearest metric word after it, else before it, else in its sentence,
    with the direction ("reduction", "improvement") read between that word and the number."""
    s_start, s_end = sentence
    after_end = min(s_end, claim.end + 50)
    stop = _AFTER_STOP.search(text, claim.end, after_end)
    after = (claim.end, stop.start() if stop else after_end)
    before = (max(s_start, previous_end, claim.start - 80), claim.start)
    for lo, hi, nearest_last in (
        (after[0], after[1], False),
        (before[0], before[1], True),
        (s_start, s_end, False),
    ):
        hits = words.between(lo, hi)
        found = (hits[-1] if nearest_last else hits[0]) if hits else None
        if found:
            m_start, m_end, name = found
            return _with_direction(name, text, m_start, m_end, claim, s_start, s_end)
    if claim.unit == "x":
        return "speedup"
    if claim.unit == "orders of magnitude":
        return _with_direction("improvement", text, claim.start, claim.end, claim, s_start, s_end)
    return None


#: Metrics whose percentages are usually levels ("91.7% scaling efficiency"), not changes.
_LEVELS = ("accuracy", "utilization", "scaling efficiency", "bandwidth", "goodput", "efficiency")


def _with_direction(
    name: str, text: str, m_start: int, m_end: int, claim: Claim, s_start: int, s_end: int
) -> str:
    if name == "speedup":
        return name
    lo, hi = min(m_start, claim.start), max(m_end, claim.end)
    # The words between the metric and the number decide first ("时间减少26.4%", "2x lower latency"), then
    # those just around them ("reduces the time by 30%"), except for levels such as accuracy.
    direction = _direction(text[lo:hi])
    if direction is None and name not in _LEVELS:
        direction = _direction(text[max(s_start, lo - 25) : lo] + " " + text[hi : min(s_end, hi + 20)])
    if direction is None and claim.unit == "x":
        direction = "improvement"
    if direction is None:
        return name
    return direction if name == "improvement" else f"{name} {direction}"


def _direction(window: str) -> str | None:
    if _REDUCTION.search(window):
        return "reduction"
    if _IMPROVEMENT.search(window):
        return "improvement"
    return None
