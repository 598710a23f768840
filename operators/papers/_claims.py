"""Numeric claims: the numbers with a unit that state a result ("up to 1.42x", "7.6-171$\\times$",
"26.4 \\％", "20.68倍", "two orders of magnitude", "12.8~Tbps").

One compiled regex finds candidates in a single pass; a few cheap checks on their surroundings drop
what only looks like a claim (``3x3`` kernels, ``8x A100`` machines, "repeated 5 times", "5-fold
cross-validation", "关键发现是三倍"). Plain counts, years, citations and model sizes never match because
they carry no ratio or rate unit. Attribution is elsewhere: qualifier and metric in ``_context``,
baseline in ``_baselines``, subject in ``_subjects``, the per-claim loop in ``_attribution``.

Why one module: the number patterns, units and the filters that reject non-results interlock (one regex
alternation and the checks on its groups).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from assay.operators.papers._changes import keep_ends, merge_changes
from assay.operators.papers._clause import not_a_result
from assay.operators.papers._list_measures import listed_before
from assay.operators.papers._multiplied import (
    FRACTION,
    HALVES_NOT_RESULT,
    HALVING_RESULT,
    fraction_share,
    multiplied,
)
from assay.operators.papers._numbers import (
    NUMBER,
    NUMBER_START,
    NUMBER_WORDS,
    ZH_NUMBER,
    counts_machines,
    is_change,
    parse_number,
    rate_unit,
)
from assay.operators.papers._run_settings import run_setting
from assay.operators.papers._table_units import unit_cells

_START = NUMBER_START
# A minus sign belongs to the number when it follows a space or bracket ("by -63%", "(-213% to -36%)"), not
# a word or number ("ResNet-50", "1.3-16x").
_SIGN = r"(?:(?:(?<=[\s(\[:、，,;；：（])|^)[-−])?"
_X = (
    r"[ \t]?[xX](?![A-Za-z0-9])|[ \t~]*×|[ \t~]*\$[ \t]*\\times[ \t]*\$|[ \t~]*\\times(?![A-Za-z])[ \t]*\$?"
    # ("2+倍": at least twice, a plus sign written right before 倍 as before a percent sign)
    r"|[ \t~]*\{\\times\}|[ \t~]*\\texttimes(?![A-Za-z])|\+?[ \t]*倍"
)
# "10+%": at least the number, a plus sign written right before the percent sign
_PCT = r"\+?[ \t]*\\?[ \t]*[%％]|[ \t]+per[ \t]?cent\b"
_PP = r"[ \t]+percentage[ \t]+points?\b|[ \t]*个百分点"
_OOM = r"[ \t]+orders?[ \t]+of[ \t]+magnitude\b|[ \t]*个?数量级"
_TIMES = r"[ \t]+times\b"
_FOLD = r"[ \t]*-?[ \t]*fold\b"
_RATE = (
    r"[ \t~]*(?:(?:peta|tera|giga|exa)[ \t-]?flop(?:s|/s)?|[KMGTPE]?FLOP/s|[KMGTPE]?FLOPS|[KMGTPE]FLOPs|[KMGTP]b(?:ps|it/s)|[KMGTP]i?B/s"
    r"|(?:samples|tokens|images|sequences|queries|requests|frames)"
    r"(?:[ \t]*/[ \t]*s(?:ec)?|[ \t]+per[ \t]+second)"
    r"|QPS)(?![A-Za-z0-9])"
    # A rate stated per device or node ("4,300 tokens/s per GPU"): the scope goes to ``Claim.scope``.
    r"(?:[ \t]*(?:/|per)[ \t]*(?:GPU|TPU|NPU|device|accelerator|chip|node|server|machine|worker|core)"
    r"(?![A-Za-z0-9]))?"
)
_UNIT = (
    rf"(?:(?P<x>{_X})|(?P<pct>{_PCT})|(?P<pp>{_PP})|(?P<oom>{_OOM})|(?P<times>{_TIMES})|(?P<fold>{_FOLD})"
    rf"|(?P<rate>{_RATE}))"
)
# The low end of a range may repeat the unit: "1.3x-2.4x", "20%~30%".
_LOW_UNIT = r"(?:[ \t]?[xX×]|[ \t]*\$\\times\$|[ \t]*\\times|[ \t]*\\?[%％]\$?|[ \t]*倍)?"
# A range may be broken over a line ("cuts cost by 15–" / "40%"), its dash doubled as LaTeX writes it ("21--29%").
# The line may also break before the dash ("1.40x" / "– 3.20x"), but not before a hyphen, which there opens a
# Markdown list item.
_RANGE_SEP = (
    r"[ \t]*(?:--?|–|—|−|~|～|∼|至|到)[ \t]*(?:\n[ \t]*)?|[ \t]*\n[ \t]*(?:--|–|—|~|～|∼)[ \t]*"
    r"|[ \t]+to(?:[ \t]+|[ \t]*\n[ \t]*)"
)

_DURATION = r"(?:ms|msec|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?)"
#: Durations in seconds, by the unit as normalised.
_SECONDS = {"ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0}

# The common case, led by a digit (the lookahead lets the regex engine skip to digits quickly).
_NUMERIC_RE = re.compile(
    rf"(?=[\d\-−]){_START}(?P<lo>{_SIGN}{NUMBER})"
    rf"(?:(?P<lo_unit>{_LOW_UNIT})(?P<sep>{_RANGE_SEP})(?P<hi>(?:[-−](?=\d))?{NUMBER}))?{_UNIT}",
    re.IGNORECASE,
)
# Rarer forms, each tried only when its keyword occurs in the text.
_KEYWORD_RES: list[tuple[tuple[str, ...], re.Pattern[str]]] = [
    (
        ("between",),
        re.compile(
            rf"(?P<between>\bbetween[ \t]+){_START}(?P<lo>{NUMBER})(?P<lo_unit>{_LOW_UNIT})"
            rf"(?P<sep>[ \t]+and[ \t]+)"
            rf"(?P<hi>{NUMBER}){_UNIT}",
            re.IGNORECASE,
        ),
    ),
    (
        ("times", "fold", "magnitude"),
        re.compile(rf"\b(?P<wnum>{NUMBER_WORDS})(?P<wunit>{_TIMES}|{_FOLD}|{_OOM})", re.IGNORECASE),
    ),
    (
        ("twice",),
        re.compile(
            r"\b(?P<twice>twice)(?=[ \t]+(?:as|the|that|those|faster|more|higher|fewer|less|larger|smaller)\b)",
            re.I,
        ),
    ),
    (("factor",), re.compile(rf"\bfactor\s{{1,3}}of\s{{1,3}}(?P<fnum>{NUMBER}|{NUMBER_WORDS}\b)", re.I)),  # "of\n1.05" too
    # A speedup stated without a unit: "a speedup of 2.5", "加速比达到3.1".
    (
        ("speedup", "speed-up", "加速比"),
        re.compile(
            rf"(?:\bspeed-?ups?|加速比)[ \t]*(?:of|为|达到|高达|是|达)?[ \t]*(?:up[ \t]+to[ \t]+)?"
            rf"(?P<snum>{NUMBER})"
            rf"(?![\d.,]|[ \t~]*(?:[%％xX×倍$\\]|times|fold|percent))",
            re.IGNORECASE,
        ),
    ),
    (("百分之",), re.compile(rf"百分之(?P<pnum>{NUMBER}|{ZH_NUMBER})")),
    # A multiple signed first: "79 ± 1 (x1.46)", "the speedup of only x3.3", "up to x9.7" (no lane count: "x16 PCIe")
    # (the words may be broken over a line: "goes up\nto x9.7"); a bracket glued to a name is a function's
    # argument, no multiple ("ℱ(X1)", "f(x2)")
    (("(x", "(×", "（x", "（×", "to x", "from x", "speedup of", "speed-up of"), re.compile(
        r"(?:(?<![^\s\d±])[(（][ \t]*|\b(?:speed-?ups?\s+of\s+(?:(?:only|about|nearly|up\s+to)\s+)?|up\s+(?:to|from)\s+))[xX×][ \t]?(?P<pxnum>\d+(?:\.\d+)?)(?![\w.])", re.I)),
    # "cuts the cost by half", "减半": a 50 % reduction.
    (
        ("half", "halv", "减半", "一半"),
        re.compile(
            r"\b(?:by|in)[ \t]+(?P<half>half)\b(?!-|[ \t]+(?:precision|floats?|floating)\b)|\b(?P<halves>halv(?:es|ed|ing))\b|(?P<zhalf>减半|减少了?一半)",
            re.I,
        ),
    ),
    # "doubles the number of users served", "tripled throughput": a multiple said by its verb.
    (
        ("doubl", "tripl", "quadrupl"),
        re.compile(r"\b(?P<multiplies>(?:doubl|tripl|quadrupl)(?:es|ed|ing))\b(?!-)", re.I),
    ),
    # "推理速度接近翻倍", "吞吐量翻了一番": Chinese says a doubling (翻两番: doubled twice, four times) with its verb
    (("翻",), re.compile(r"(?P<zmult>翻了?[一两三]番|翻倍)")),
    # "reduces the upload size by up to 1/2", "only half of X's": a share said as a fraction (``_multiplied``)
    (("/", "half"), FRACTION),
    (("倍", "数量级"), re.compile(rf"(?P<znum>{ZH_NUMBER})(?P<zunit>[ \t]*倍|{_OOM})")),
    # A time that changes: "cuts the step time from 840 ms to 610 ms", "recovery drops from 9 minutes to 40 s".
    (
        ("ms", "sec", "min", "hour", "hrs"),
        re.compile(
            rf"{_START}(?P<dlo>{NUMBER})[ \t]*(?P<dlo_unit>{_DURATION})?(?![A-Za-z])[ \t]+to[ \t]+"
            rf"(?P<dhi>{NUMBER})[ \t]*(?P<dunit>{_DURATION})(?![A-Za-z])",
            re.I,
        ),
    ),
]


class _Match:
    """A regex match seen through one interface whatever pattern produced it (absent groups are None)."""

    __slots__ = ("m",)

    def __init__(self, m: re.Match[str]):
        self.m = m

    def group(self, name: str) -> str | None:
        return self.m.group(name) if name in self.m.re.groupindex else None

    def start(self, name: str | int = 0) -> int:
        return self.m.start(name)

    def end(self, name: str | int = 0) -> int:
        return self.m.end(name)

    def span(self) -> tuple[int, int]:
        return self.m.span()


def _candidates(text: str, lo: int, hi: int) -> list[_Match]:
    found = [part for m in _NUMERIC_RE.finditer(text, lo, hi) for part in _one_unit(text, m, hi)]
    lowered = text[lo:hi].lower()
    for keywords, pattern in _KEYWORD_RES:
        if any(k in lowered for k in keywords):
            found.extend(_Match(m) for m in pattern.finditer(text, lo, hi))
    if len(found) < 2:
        return found
    found.sort(key=lambda m: (m.start(), -m.end()))
    kept = [found[0]]
    for m in found[1:]:
        if m.start() >= kept[-1].end():
            kept.append(m)
        elif m.start() == kept[-1].start() and m.end() > kept[-1].end():
            kept[-1] = m
    return kept


def _one_unit(text: str, m: re.Match[str], hi: int) -> list[_Match]:
    """A range's two ends share one unit: "by nearly 8x to 620 Pflop/s" is a multiple and a rate, each a
    number of its own, not a range from 8 to 620 Pflop/s."""
    lo_unit = (m.group("lo_unit") or "").strip(" \t$\\")
    if not lo_unit or m.group("hi") is None:
        return [_Match(m)]
    low = "%" if lo_unit[-1] in "%％" else "x"
    high = next((_UNIT_NAMES[k] for k in ("x", "pct") if m.group(k) is not None), None)
    if low == high:
        return [_Match(m)]
    parts = [_NUMERIC_RE.match(text, m.start(), m.end("lo_unit")), _NUMERIC_RE.match(text, m.start("hi"), hi)]
    return [_Match(p) for p in parts if p]


_UNIT_NAMES = {
    "x": "x",
    "times": "x",
    "fold": "x",
    "pct": "%",
    "pp": "percentage points",
    "oom": "orders of magnitude",
}
_COMPARATIVE_AFTER = re.compile(
    r"[ \t]*(?:(?:\S+[ \t]+){0,2}?"
    r"(?:faster|slower|higher|lower|more|less|fewer|larger|smaller|better|greater|"
    r"speed-?ups?|improvements?|reductions?|increases?|decreases?|cheaper)|the|as|over|than|that|those)\b",
    re.IGNORECASE,
)
_COMPARATIVE_BEFORE = re.compile(
    r"(?:\bby|\bup[ \t-]+to|\b(?:speed-?ups?|factor|improvements?|gains?|reductions?|increases?|decreases?|"
    r"accelerations?|slowdowns?)[ \t]+of|\bachiev\w*|\bdeliver\w*|\bprovid\w*|\byield\w*|\bgain\w*|\breach\w*|"
    r"\bspeed[- ]?up|\bimprov\w*|\breduc\w*|\baccelerat\w*)[ \t]+(?:\w+[ \t]+)?$",
    re.IGNORECASE,
)
# A percentage followed by these is a setting ("at 90% sparsity", "95% confidence interval", an offered load "at
# 80% load"), or a percentile's name ("the 99%-tile completion time", "99%ile"), no result.
_PCT_SETTING_AFTER = re.compile(
    r"[ \t]*(?:sparsity|sparse|pruning|pruned|dropout|masking|mask|quantile|percentile|confidence|稀疏|"
    r"(?:traffic\s+|network\s+|offered\s+)?load\b)|-?\s?tile\b|ile\b", re.I
)
# Words of the clause before a number that describe hardware or data rather than a result: a rate after them
# is a specification ("HBM with bandwidth 1.5-2.0 TB/s", "节点间网络为25Gbps"), a percentage a data split ("we
# hold out 3% of", "取5%的数据作为验证集") or a definition ("a perfect run has 100% efficiency") -- unless the
# clause also states a result ("achieves an aggregate bandwidth of 1.2 TB/s").
_SPEC_BEFORE = re.compile(
    r"bandwidth|带宽|\bHBM\d?|\bSRAM|\bDRAM|NVLink|NVSwitch|PCIe|InfiniBand|Ethernet|\blinks?\b|interconnect|"
    r"network|网络|connected|\bmemory\b|capacity|\bpeak\b|\brated\b|theoretical",
    re.I,
)
_SPLIT_NEAR = re.compile(
    r"held[- ]out|\bhold(?:s|ing)?\s+out|validation|\btest(?:ing)?\s+(?:set|split)|\bsplits?\b|"
    r"\bsubsample|\breserv\w*|training\s+(?:set|data)|for\s+(?:tuning|validation|testing)|"
    r"验证集|测试集|训练集|留出|\bperfect\b|\bideal(?:ly)?\b|理想|by\s+definition",
    re.I,
)
# "125 TFLOPS of half-precision compute at peak": a device's rating, whatever the verb.
_PEAK_AFTER = re.compile(r"[^.;,\n]{0,40}?\b(?:at\s+peak|peak|theoretical(?:ly)?)\b", re.I)
_RESULT_WORDS = re.compile(
    r"achiev|\breach|attain|obtain|deliver|sustain|support|improv|reduc|outperform|faster|slower|higher|"
    r"lower|better|worse|speed|slowdowns?|overheads?|penalt|\bwithin\b|\bgains?\b|\bsav(?:e|es|ing)\b|\bcuts?\b|"
    r"提高|提升|降低|减少|达到|实现|加速|缩短",
    re.I,
)
_CLAUSE_BREAK = re.compile(r"[.;!?](?=\s)|[。；！？,，]")
_FOLD_NOT_CLAIM = re.compile(r"[ \t-]*(?:cross|cv\b|validation)", re.IGNORECASE)
_ZH_VERB_BEFORE = re.compile(
    r"(?:提高|提升|加速|加快|快|减少|降低|增加|增长|达到|高达|最高|缩短|节省|扩大|改善|优于|超过|了|至|到|约|近|达)$"
)
#: A number right after a plus-minus sign that follows a figure is that figure's spread ("41.2% ± 1.3%"); a
#: tolerance standing alone ("within ±1%") is a figure of its own.
_SPREAD_BEFORE = re.compile(r"\d\s*[%％x×]?\s*(?:±|\+/-)\s*$")
# A rate followed by these is the setting's link speed ("on 25 Gbps networks"), not a result.
_RATE_SETTING_AFTER = re.compile(
    r"[ \t-]*(?:\w+[ \t]+)?(?:networks?|links?|ethernet|infiniband|nvlink|roce|interconnects?|nics?|fabric|"
    r"connections?|switch(?:es)?|网络|链路)",
    re.IGNORECASE,
)
@dataclass
class Claim:
    """One numeric claim with its exact span; attribution fields are filled in by ``_attribution``."""

    start: int
    end: int
    text: str
    unit: str
    value: float | None = None
    value_low: float | None = None
    value_high: float | None = None
    confidence: float = 0.9
    qualifier: str | None = None
    metric: str | None = None
    versus: str | None = None
    #: The paper's baseline for its results where the statement names none (``_default_baseline``): what a
    #: check compares with, kept apart from ``versus``, the baseline the statement names.
    implied_versus: str | None = None
    setting: str | None = None
    subject: str | None = None
    sentence: tuple[int, int] | None = None
    versus_span: tuple[int, int] | None = None
    section: str | None = None
    notes: list[str] = field(default_factory=list)
    #: How the number was written (``x``, ``pct``, ``rate``, ``words``, ``zh_numeral``, ``list_item``, ...) and,
    #: once attributed, where its subject and baseline came from: what ``_confidence`` calibrates on.
    shape: str = "x"
    subject_source: str | None = None
    versus_source: str | None = None
    in_list: bool = False
    #: Another system named before the number in its sentence (not as its baseline): a rival subject.
    rival_before: bool = False
    #: The setting as fields (``_settings.FIELDS``: hardware, gpus, model, ..., measure, direction).
    fields: dict[str, Any] = field(default_factory=dict)
    #: A rate stated per device or node ("4,300 tokens/s per GPU": "per GPU"); ``_settings`` makes it part of
    #: the metric, so a check compares it with a per-device figure, not a cluster's.
    scope: str | None = None

    @property
    def is_ratio(self) -> bool:
        return self.unit in ("x", "%")


def find_claims(
    text: str, spans: list[tuple[int, int]] | None = None, limit: int | None = None
) -> list[Claim]:
    """The numeric claims in ``text`` (within ``spans``, consecutive pieces of it), in order of position.

    With ``limit``, scanning stops once more than ``limit`` claims are found, so a pathological text (a
    50 MB table dump) costs no more than its first pieces; the caller sees ``limit + 1`` claims and knows.
    """
    claims: list[Claim] = []
    for lo, hi in spans or [(0, len(text))]:
        for match in _candidates(text, lo, hi):
            claim = _claim(text, match)
            if claim is None:
                continue
            if claim.value is not None and claim.is_ratio:
                claims.extend(_listed_before(text, claim, claims[-1].end if claims else 0))
            claims.append(claim)
        claims.extend(_column_claims(text, lo, hi, claims))
        if limit is not None and len(claims) > limit:
            break
    claims.sort(key=lambda c: c.start)
    return merge_changes(text, claims)


def _column_claims(text: str, lo: int, hi: int, found: list[Claim]) -> list[Claim]:
    """The bare numbers of table cells whose column's header writes their unit (``% of Peak`` over ``50.6``);
    whether each states a result is the table's to say (``_clause.table_result``)."""
    taken, shape = {(c.start, c.end) for c in found}, {"%": "pct", "x": "x"}
    cells = [c for c in unit_cells(text, lo, hi) if c[:2] not in taken]
    return [Claim(a, b, n, u, value=parse_number(n), confidence=0.8, shape=shape[u]) for a, b, n, u in cells]


def _claim(text: str, m: _Match) -> Claim | None:
    start, end = m.span()
    if _SPREAD_BEFORE.search(text, max(0, start - 8), start):
        return None  # "41.2% ± 1.3%": the spread over runs, no claim of its own
    if m.group("dhi"):
        return _duration_claim(text, m)
    if m.group("znum"):
        return _chinese_claim(text, m)
    halves = m.group("halves")
    if halves and (
        HALVES_NOT_RESULT.search(text, max(0, start - 60), start)
        or not_a_result(text, start, end, "half")
        or halves.lower() == "halving"
        and (halves[0] == "H" or not HALVING_RESULT.search(text, max(0, start - 12), start))
    ):
        return None  # "as the batch halves": a setting that changes, not a result
    if m.group("fn") or m.group("hf"):
        share = fraction_share(text, m.m)
        if share is None:
            return None
        lo, hi = share
        start = m.start("hf") if m.group("hf") else m.start("fn")
        end = m.end("hf") if m.group("hf") else m.end("gd") if m.group("gd") else m.end("fd")
        if lo == hi:
            return Claim(start, end, text[start:end], "%", value=lo, confidence=0.7, shape="words")
        return Claim(start, end, text[start:end], "%", value_low=lo, value_high=hi, confidence=0.7, shape="words")
    if m.group("multiplies"):
        times = multiplied(text, m.span(), m.group("multiplies") or "")
        return Claim(start, end, text[start:end], "x", value=times, confidence=0.7, shape="words") if times else None
    if m.group("zmult"):
        return _zh_multiplied(text, m)
    if m.group("half") or m.group("zhalf") or m.group("halves"):
        group = next(g for g in ("half", "halves", "zhalf") if m.group(g))
        return Claim(
            m.start(group), m.end(group), m.group(group), "%", value=50.0, confidence=0.7, shape="half"
        )
    for group, unit, confidence, shape in (("fnum", "x", 0.85, "factor"), ("snum", "x", 0.8, "speedup"),
                                           ("pxnum", "x", 0.8, "factor"), ("pnum", "%", 0.85, "zh_percent")):
        if m.group(group):
            number = m.group(group)
            if group == "fnum" and re.match(r"[x×](?![\w])", text[end : end + 2]):
                end += 1  # "by a factor of 1.34x": the sign written again is the claim's, not a variable after it
            # a speedup's span is its number; a multiple signed first starts at its sign ("x3.3")
            lead = {"snum": m.start(group), "pxnum": m.start(group) - 1}.get(group, start)
            # "if it drops by a factor of 10", "a x16 PCIe4.0 link"
            if group in ("fnum", "pxnum") and not_a_result(text, start, end, "x"):
                return None
            return Claim(
                lead,
                end,
                text[lead:end],
                unit,
                value=parse_number(number),
                confidence=confidence,
                shape=shape,
            )
    if m.group("wnum") or m.group("twice"):
        return _word_claim(text, m)
    if m.group("between"):
        start = m.start("lo")
    kind = next(k for k in ("x", "pct", "pp", "oom", "times", "fold", "rate") if m.group(k) is not None)
    after = text[end : end + 40]
    if kind == "x" and counts_machines(text, start, end, m.group("x")):
        return None
    if kind == "times" and not (
        _COMPARATIVE_AFTER.match(after) or _COMPARATIVE_BEFORE.search(text, max(0, start - 40), start)
    ):
        return None
    if kind == "fold" and _FOLD_NOT_CLAIM.match(after):
        return None
    if kind == "rate" and (
        _RATE_SETTING_AFTER.match(after)
        or _PEAK_AFTER.match(after)
        or _not_result(text, start, _SPEC_BEFORE, "")
    ):
        return None
    if kind == "pct" and (_PCT_SETTING_AFTER.match(after) or _not_result(text, start, _SPLIT_NEAR, after)):
        return None
    if run_setting(text, start, after, kind):
        return None
    if kind in ("x", "pct", "times", "fold") and not_a_result(text, start, end, kind):
        return None
    unit, scope = rate_unit(m.group("rate")) if kind == "rate" else (_UNIT_NAMES[kind], None)
    confidence = {"x": 0.95, "pct": 0.9, "times": 0.8, "fold": 0.8}.get(kind, 0.85)
    claim = Claim(start, end, text[start:end], unit, confidence=confidence, shape=kind, scope=scope)
    lo = parse_number(m.group("lo"))
    if m.group("hi") is None:
        claim.value = lo
        return claim
    hi = parse_number(m.group("hi"))
    if is_change(text, m.group("sep"), start, unit):
        # "rises from 40% to 62%" is a before/after pair, not a range: the claim is the value reached, with
        # both ends kept.
        claim.value = hi
        lo_unit = (m.group("lo_unit") or "").strip()
        keep_ends(claim, lo, f"{m.group('lo')}{lo_unit or ('%' if unit == '%' else '')}")
        return claim
    if hi <= lo:
        # "2-1x" is not a range a paper states; keep the number next to the unit.
        claim.start = m.start("hi")
        claim.text = text[claim.start : end]
        claim.value = hi
        return claim
    claim.value_low, claim.value_high = lo, hi
    return claim


# What a changing time measures ("step time", "recovery", "latency") and a verb saying it changed.
_TIME_NOUN = re.compile(
    r"\b(?:time|times|latency|latencies|makespan|JCTs?|duration|recovery|recover\w*|downtime|stall\w*|"
    r"iteration|step|epoch|start-?up|restart|checkpoint\w*|failover)\b",
    re.I,
)
_TIME_CHANGE = re.compile(
    r"\bfrom[ \t]+$|\b(?:reduc|cut|lower|drop|decreas|shrink|shrank|fall|fell|improv|shorten|speed)\w*", re.I
)


def _duration_unit(word: str) -> str:
    w = word.lower()
    if w in ("ms", "msec") or w.startswith("milli"):
        return "ms"
    if w.startswith("min"):
        return "min"
    return "h" if w.startswith("h") else "s"


def _duration_claim(text: str, m: _Match) -> Claim | None:
    """A time that changes ("from 840 ms to 610 ms") when the clause says what time it is and that it changed:
    the value reached, with both ends (in the unit of the value reached)."""
    start, end = m.span()
    clause = text[_clause_start(text, start) : start]
    if not (_TIME_NOUN.search(clause) and _TIME_CHANGE.search(clause)):
        return None
    unit = _duration_unit(m.group("dunit"))
    lo_unit = _duration_unit(m.group("dlo_unit")) if m.group("dlo_unit") else unit
    hi = parse_number(m.group("dhi"))
    lo = parse_number(m.group("dlo")) * _SECONDS[lo_unit] / _SECONDS[unit]
    claim = Claim(start, end, text[start:end], unit, value=hi, confidence=0.8, shape="duration")
    keep_ends(claim, lo, f"{m.group('dlo')} {m.group('dlo_unit') or m.group('dunit')}")
    return claim


def _clause_start(text: str, start: int) -> int:
    lo = max(0, start - 120)
    breaks = list(_CLAUSE_BREAK.finditer(text, lo, start))
    return breaks[-1].end() if breaks else lo


def _not_result(text: str, start: int, words: re.Pattern[str], after: str) -> bool:
    """Whether the clause around a number describes a setting (``words``) and states no result."""
    lo = max(0, start - 70)
    breaks = list(_CLAUSE_BREAK.finditer(text, lo, start))
    clause = text[breaks[-1].end() if breaks else lo : start]
    tail = _CLAUSE_BREAK.split(after, 1)[0]
    return bool(words.search(clause) or words.search(tail)) and not _RESULT_WORDS.search(clause + " " + tail)


def _word_claim(text: str, m: _Match) -> Claim | None:
    start, end = m.span()
    unit_text = (m.group("wunit") or "").lower()
    is_oom = "magnitude" in unit_text
    if not is_oom:
        after = text[end : end + 40]
        if not (
            _COMPARATIVE_AFTER.match(after) or _COMPARATIVE_BEFORE.search(text, max(0, start - 40), start)
        ):
            return None  # "the key findings are threefold"
    if not is_oom and not_a_result(text, start, end, "words"):
        return None
    value = parse_number(m.group("twice") or m.group("wnum"))
    unit = "orders of magnitude" if is_oom else "x"
    return Claim(start, end, text[start:end], unit, value=value, confidence=0.75, shape="words")


def _chinese_claim(text: str, m: _Match) -> Claim | None:
    start, end = m.span()
    if not _ZH_VERB_BEFORE.search(text, max(0, start - 4), start):
        return None  # "关键发现是三倍" (the findings are threefold) states no result
    unit = "orders of magnitude" if "数量级" in m.group("zunit") else "x"
    value = float(parse_number(m.group("znum")))
    if m.group("znum") == "一" and unit == "x":
        # "快一倍", "提升了一倍": faster by one whole again, twice; "缩短了一倍": cut by half
        if _ZH_FALLS_BEFORE.search(text, max(0, start - 4), start):
            unit, value = "%", 50.0
        elif _ZH_RISES_BEFORE.search(text, max(0, start - 4), start):
            value = 2.0
    return Claim(start, end, text[start:end], unit, value=value, confidence=0.75, shape="zh_numeral")


def _zh_multiplied(text: str, m: _Match) -> Claim | None:
    """A doubling said with 翻 (翻倍, 翻一番: 2x; 翻两番: 4x), unless what doubles is a resource the run was given
    ("GPU 数量翻倍": a setting that changes, not a result)."""
    start, end = m.span()
    if _ZH_SETTING_BEFORE.search(text, max(0, start - 12), start) or not_a_result(text, start, end, "words"):
        return None
    said = m.group("zmult")
    value = 2.0 ** (1 + "一两三".index(said[-2])) if said.endswith("番") else 2.0
    return Claim(start, end, said, "x", value=value, confidence=0.7, shape="words")


#: What doubles before 翻倍 is a setting where it is a resource or a size the run was given.
_ZH_SETTING_BEFORE = re.compile(r"(?:GPU|卡|节点|机器|批量|批大小|batch[ _]?size|数量|规模|个数)(?:数)?(?:也|都)?(?:接近|几乎|近)?$", re.I)


#: Before "一倍": a rise by one whole again (twice as much), or a fall by it (half: "缩短了一倍").
_ZH_RISES_BEFORE = re.compile(r"(?:快|加快|提高|提升|增加|增长|增大|扩大)了?$")
_ZH_FALLS_BEFORE = re.compile(r"(?:缩短|减少|降低|下降|减小|节省)了?$")


def _listed_before(text: str, claim: Claim, floor: int) -> list[Claim]:
    """Bare numbers listed before ``claim`` that share its unit ("by 1.3, 1.5 and 2.0x"), as claims."""
    items = listed_before(text, claim.start, claim.end, floor)
    return [
        Claim(
            i.start(),
            i.end(),
            i.group(),
            claim.unit,
            value=parse_number(i.group()),
            confidence=0.8,
            shape="list_item",
        )
        for i in items
    ]
