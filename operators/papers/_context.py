"""Attribution of a claim from its sentence: qualifier ("up to"), metric ("speedup"), baseline ("over X").

Each rule looks at a short window beside the number, bounded by its sentence, so the cost per claim is
constant whatever the document's length.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence

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
_CLAUSE_END = re.compile(r"[;；。:：!?！？]|,\s+(?:and|but|while|which|whereas)\b|，(?:而|但|并|同时)")

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

_STOP_EN = re.compile(
    r"\s+(?:on|in|for|with|when|while|across|at|under|using|by|and\s+(?:achiev|deliver|reduc|improv)\w*|"
    r"and\s+(?:also\s+)?(?:is|are|was|were|has|have|[a-z]{3,}(?:es|ed))\b|"
    # "... than X and speeds training up by 26%": a verb in -s with its object starts another clause.
    r"(?-i:and\s+(?:also\s+)?[a-z]{3,}s\s+(?!and\b|or\b|of\b|in\b|on\b)[a-z]{2,}\b)|"
    r"respectively|which|that|thanks|because|without|through|is|are|was|were)\b|\s*[,.;:()\[\]]|"
    r"\s+(?:(?:and|or)\s+)?[\d$~]",
    re.I,
)
# A phrase runs over a line break inside a paragraph (a PDF's or a LaTeX source's lines), not a blank line.
_PHRASE = r"(?:[^,.;:()\n]|\n(?!\s*\n))"
_VERSUS_EN = re.compile(
    r"\b(?:compared\s+(?:with|to|against)|relative\s+to|in\s+comparison\s+(?:with|to)|over|than|versus|vs\.?|"
    r"against|outperform(?:s|ed|ing)?|beat(?:s|ing)?|surpass(?:es|ed|ing)?|exceed(?:s|ed|ing)?)\s+(?!\s*[\d$~])"
    # "than with FooSched", "than under the default": the baseline, not the preposition.
    rf"(?:(?:with|using|under)\s+)?(?:the\s+|a\s+|an\s+)?(?P<v>{_PHRASE}{{2,90}})",
    re.I,
)
# Verbs that name their baseline before the numbers: "outperforms A and B by 1.2x and 1.5x".
_VERB_FIRST = re.compile(r"\b(?:outperform|beat|surpass|exceed)\w*\s+(?:the\s+)?$", re.I)
# "compared to the runner-up, BarPipe": a descriptive phrase, then the system's name after a comma.
# A name, perhaps with its citation ("Tiresias [22]"), which the caller drops.
_ONE_NAME = r"(?:[A-Z][\w+-]*|[a-z]{1,3}[A-Z][\w+-]*)(?:[ -][A-Z][\w+-]*)?(?:\s*\[[\w\s,.-]{1,20}\])?"
# ... or several: "compared with recent schedulers, FooSched and BarPipe, ...".
_APPOSITIVE_NAME = re.compile(
    rf",?\s*(?:namely\s+|i\.e\.,?\s+)?(?P<n>{_ONE_NAME}(?:,\s*{_ONE_NAME})*(?:,?\s+(?:and|or)\s+{_ONE_NAME})?)"
    r"(?=\s*(?:[,.;:)]|$|\s(?:and|by|on|in|with|for|which|while|across)\b))"
)
# A ratio "of" a named system's result: "68% of those achieved by ZeRO", "20% of GPipe's", "37% of Foo".
_SHARE_OF = re.compile(
    r"\s+of\s+(?:(?:those|that|the\s+\w+)\s+(?:[a-z]+(?:ed|en)\s+by\s+|of\s+)?)?(?P<v>(?:[A-Z][\w+-]*|[a-z]{1,3}[A-Z][\w+-]*))(?:['’]s)?(?![\w-])"
)
# "1.4x the training speed of GPipe": a multiple of a named system's figure.
_TIMES_THE = re.compile(
    r"\s+the\s+(?:[\w-]+\s+){1,3}?of\s+(?P<v>(?:[A-Z][\w+-]*|[a-z]{1,3}[A-Z][\w+-]*))(?:['’]s)?(?![\w-])"
)
# Words that stand for a system named elsewhere ("within 3% of it"): resolved by the caller.
PRONOUN = re.compile(r"^(?:it|its|them|this|that|theirs|these|those)$", re.I)
_VERSUS_ZH = re.compile(
    r"与(?P<v1>[^，。；,;]{1,60}?)(?:相比|相较|比较)"
    # "相比 TransformerEngine 取得 ...": a Latin name right after the word is the whole baseline.
    r"|(?:相比于?|相较于?|相对于|对比于?|较之)\s*(?P<v6>[A-Za-z][A-Za-z0-9_.+-]*(?:[ ][A-Za-z][A-Za-z0-9_.+-]*)*)"
    r"(?=\s*(?:[，。；,;的]|\[|$)|\s(?!和|与|及|、|基线|框架|系统|方法|实现|版本|库|方案|算法|策略)[^\sA-Za-z])"
    r"|(?:相比于?|相较于?|相对于|对比于?|较之)(?P<v2>[^，。；,;]{1,80}?)(?=[，。；,;]|$|的|，)"
    r"|比(?P<v3>[^，。；,;\d]{1,30}?)(?:快|高|低|少|多|好|强|提升|提高|减少|降低)"
    r"|优于(?P<v4>[^，。；,;\d]{1,40}?)(?=\d|[，。；,;]|$)"
    r"|在(?P<v5>[^，。；,;在]{1,30}?(?:基线|框架|系统|方法|实现|库|baselines?|systems?))上"
)
_REACH = 40
_ZH_CLAUSE_END = re.compile(r"[；;。]")
_ZH_COMMA = re.compile(r"[，,；;。]")
# A Latin name run straight into Chinese words that are not part of a name ("ZeRO将总通信量"), unlike a
# coordination or a head noun ("A 和 B", "X 基线", "X 的实现").
_ZH_LATIN_LEAD = re.compile(
    r"^(?P<n>[A-Za-z][A-Za-z0-9_.+-]*(?:[ ][A-Za-z][A-Za-z0-9_.+-]*)*)\s*(?=[\u4e00-\u9fff])"
    r"(?!和|与|及|、|的|基线|框架|系统|方法|实现|版本|库|模型|方案|算法|策略)"
)
_BARE_COMPARATIVE = re.compile(r"^(?:more|less|fewer|faster|higher|lower|better|an?|one|two)$", re.I)


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
    for m in _CLAUSE_END.finditer(text, lo, hi):
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


def versus(
    text: str,
    claim: Claim,
    sentence: tuple[int, int],
    blockers: Sequence[int] = (),
    earlier: Sequence[int] = (),
) -> tuple[str, int, int] | None:
    """The baseline a claim is measured against, with its span: the comparison phrase of the claim's clause.

    English states the baseline after the number ("1.4x over X"), Chinese before it ("与X相比...1.8倍"): a
    phrase on that side within a clause's reach wins over a nearer one on the other side. An English phrase
    before the number counts only in the claim's own clause or when it opens the sentence ("Compared with
    X, ..."); one after the number only up to the next claim that is not listed with it (``blockers``: the
    starts of such claims), and not one that follows an earlier claim of the sentence (``earlier``: their
    ends), whose baseline it states ("15% over A, a 3x speedup on B", a list). Failing those, a comparison that introduces a list ("faster than X: 15% on A,
    3x on B") holds for every claim of the list."""
    s_start, s_end = sentence
    candidates: list[tuple[int, int, str, int, int]] = []
    introducing: tuple[str, int, int] | None = None
    for m in _overlapping(_VERSUS_EN, text, s_start, s_end):
        start = m.start("v")
        phrase = text[start : m.end("v")]
        stop = _STOP_EN.search(phrase)
        phrase = (phrase[: stop.start()] if stop else phrase).strip()
        if len(phrase) < 2 or _BARE_COMPARATIVE.match(phrase):
            continue
        end = start + len(phrase)
        if _DESCRIPTIVE.search(phrase):
            named = _APPOSITIVE_NAME.match(text, end, s_end)
            if named:  # "compared to the second-best method, vPipe": the name, not the description
                phrase, start, end = _CITATION.sub("", named.group("n")), named.start("n"), named.end("n")
        if end <= claim.start:
            if _INTRODUCES.match(text, end, claim.start):
                introducing = (phrase, start, end)
            if _CLAUSE_END.search(text, end, claim.start) and not _OPENS_SENTENCE.fullmatch(
                text, s_start, m.start()
            ):
                continue
            if "," in text[end : claim.start] and any(
                e <= m.start() and not _CLAUSE_END.search(text, e, m.start()) for e in earlier
            ):
                continue
        elif start >= claim.end and any(claim.end <= b < start for b in blockers):
            continue
        distance = _distance(claim, start, end)
        preferred = start >= claim.end and distance <= _REACH
        candidates.append((0 if preferred else 1, distance, phrase, start, end))
    for m in _VERSUS_ZH.finditer(text, s_start, s_end):
        group = next(g for g in ("v1", "v6", "v2", "v3", "v4", "v5") if m.group(g) is not None)
        phrase = m.group(group).strip()
        lead = _ZH_LATIN_LEAD.match(phrase)
        if lead:  # "比ZeRO将总通信量减少": the name, not the words the segmentation ran on into
            phrase = lead.group("n")
        if phrase:
            start = m.start(group) + (m.group(group).index(phrase) if lead else 0)
            end = start + len(phrase) if lead else m.end(group)
            distance = _distance(claim, start, end)
            if start >= claim.end and (group != "v4" or _ZH_COMMA.search(text, claim.end, start)):
                # "相比 X" after the number introduces the next statement; only "优于X" closes this one.
                continue
            # Chinese states the baseline first; it holds up to the next clause (；) or the next baseline.
            preferred = end <= claim.start and not _ZH_CLAUSE_END.search(text, end, claim.start)
            candidates.append((0 if preferred else 1, distance, phrase, start, end))
    share = _SHARE_OF.match(text, claim.end, s_end) or (
        _TIMES_THE.match(text, claim.end, s_end) if claim.unit == "x" else None
    )
    if share and claim.unit in ("%", "x") and not _PERCENT_WORDS.match(share.group("v")):
        # "68% of those achieved by ZeRO": the system whose result is the whole.
        candidates.append((0, 0, share.group("v"), share.start("v"), share.end("v")))
    within = _WITHIN_OF.match(text, claim.end, s_end)
    if within and _WITHIN_BEFORE.search(text, max(s_start, claim.start - 12), claim.start):
        # "within 5% of Megatron-LM": the system it comes close to is the baseline.
        phrase = within.group("v")
        stop = _STOP_EN.search(phrase)
        phrase = (phrase[: stop.start()] if stop else phrase).strip()
        if len(phrase) >= 2:
            candidates.append((0, 0, phrase, within.start("v"), within.start("v") + len(phrase)))
    if not candidates:
        return introducing
    _, _, phrase, start, end = min(candidates)
    return " ".join(phrase.split()), start, end


_CITATION = re.compile(r"\s*\[[^\]]*\]")
# A phrase ending in a common noun describes its systems ("the runner-up", "recent DL schedulers").
_DESCRIPTIVE = re.compile(r"(?:^|\s)[a-z][a-z-]*$")
# Something in a phrase that names a system: a capital or a digit ("the second-best method" names none).
_NAMED = re.compile(r"[A-Z0-9]")
# Capitalised words after "N% of" that are not systems ("30% of Peak", "50% of The ...").
_PERCENT_WORDS = re.compile(r"^(?:the|peak|all|each|its|their|our|this|these|those|GPU|GPUs|CPU|CPUs)$", re.I)


_WITHIN_OF = re.compile(rf"\s+of\s+(?:the\s+)?(?P<v>{_PHRASE}{{2,90}})")
_WITHIN_BEFORE = re.compile(r"\bwithin\s*$", re.I)


def _overlapping(pattern: re.Pattern[str], text: str, lo: int, hi: int) -> Iterator[re.Match[str]]:
    """Matches that may overlap: a phrase runs on over the next comparison ("than A and 27% higher than
    B"), which must still be found."""
    m = pattern.search(text, lo, hi)
    while m:
        yield m
        m = pattern.search(text, m.start("v"), hi)


# "Compared with X, ..." / "Relative to X, ..." opening the sentence: its baseline holds for the sentence.
_OPENS_SENTENCE = re.compile(r"\s*(?:[\w-]+\s+){0,2}")
# A comparison that introduces a list of results: "faster than existing baselines: a 15% ... , a 3x ...".
_INTRODUCES = re.compile(r"\s*[:：—]")
_RESPECTIVELY = re.compile(r"\brespectively\b|分别")
_PARTS = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|、|和|与|及)\s*")


def distribute(text: str, claims: list[Claim]) -> None:
    """ "4.5x and 3.1x higher than A and B, respectively": the i-th claim of a list sharing one comparison
    phrase is measured against the i-th of the phrase's coordinated baselines."""
    groups: dict[tuple[int, int], list[Claim]] = {}
    for claim in claims:
        if claim.versus_span and claim.sentence:
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
        if len(parts) != len(group):
            continue
        # Without "respectively", as many named systems as numbers pair in order too ("(1.5x and 5.4x) over
        # FooSched and BarPipe"); descriptions ("a batching baseline and the default") do not.
        all_named = all(_NAMED.match(p) for p in parts)
        if not (named_first or all_named or _RESPECTIVELY.search(text, *sentence)):
            continue
        offset = start
        for claim, part in zip(group, parts, strict=True):
            at = text.find(part, offset, end)
            claim.versus, claim.versus_span = _CITATION.sub("", part).strip(), (at, at + len(part))
            claim.versus_source = "respectively"
            offset = at + len(part)


def _distance(claim: Claim, start: int, end: int) -> int:
    if end <= claim.start:
        return claim.start - end
    if start >= claim.end:
        return start - claim.end
    return 0
