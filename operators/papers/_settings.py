"""A claim's setting as fields: hardware, device and node counts, interconnect, model and size, sequence
length, parallel layout, batch sizes, and the quantity measured with the direction that is better.

Later checks (runs, the cost model) read these fields instead of re-parsing the free-text ``setting``.
Everything comes from the claim's own sentence: the hardware and model names the gazetteer found, the
device counts ``_configs`` found, and a few regexes for what no mention covers (layouts, batch sizes,
sequence lengths, links). Nothing is guessed: a field the sentence does not state stays None. The one
exception is the accelerator, which a paper often names once per paragraph ("We train on 8 A100 GPUs.
FlashAttention is 3x faster ..."): it is taken from the nearest earlier sentence of the paragraph that
names exactly one.

Per side: a figure inside a baseline's phrase ("than Megatron-LM on 32 GPUs") describes the baseline, so
the baseline phrases of the sentence's claims, with a device count right after them, are left out.

Why one module: every settings field is found per sentence once and picked per claim by the same side-and-
clause rules; split, the rules would be repeated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from assay.operators.papers._claims import Claim
from assay.operators.papers._mentions import COUNT_SOURCE, Mention, MentionIndex

#: The claim columns this module fills (schema 3 of the store), in order.
FIELDS = (
    "hardware",
    "gpus",
    "nodes",
    "interconnect",
    "model",
    "params_b",
    "seq_len",
    "dp",
    "tp",
    "pp",
    "micro_batch",
    "global_batch",
    "measure",
    "direction",
)
#: Whether a larger value of each measure is better.
DIRECTIONS = {
    "throughput": "higher",
    "mfu": "higher",
    "tflops": "higher",
    "scaling_efficiency": "higher",
    "bandwidth": "higher",
    "accuracy": "higher",
    "step_time": "lower",
    "latency": "lower",
    "memory": "lower",
    "communication": "lower",
    "cost": "lower",
    "energy": "lower",
    "jct": "lower",
}

Span = tuple[int, int]
# A candidate value: where it was written and the value.
_Found = tuple[int, int, Any]

# -- hardware ---------------------------------------------------------------------------------------------
# The gazetteer files links under "hardware" too; they are the interconnect, not the accelerator.
_LINK_NAMES = frozenset({"nvlink", "nvswitch", "infiniband"})
_MEMORY_AFTER = re.compile(r"[\s-]*\(?\s*(\d{2,3})\s?GB\b", re.I)
_MEMORY_IN = re.compile(r"(\d{2,3})\s?GB\b", re.I)
_CPU = re.compile(
    r"\b(?i:on|using|with|across)\s+(?:\d[\d,]*\s+)?(?:[A-Za-z-]+\s+)?CPUs?\b(?![\s-]*(?:offload|memory))"
    r"|\b\d[\d,]*\s+CPU(?:s|\s+cores?|\s+workers?)\b|\bCPU[- ]only\b"
)

# -- counts -----------------------------------------------------------------------------------------------
_DEVICE_NOUNS = frozenset({"gpu", "tpu", "npu", "ipu", "accelerator", "chip", "device", "card", "processor"})
_NODE_NOUNS = frozenset({"node", "machine", "server", "host", "instance"})
# Counts of nodes with words between ("8 DGX A100 nodes", "8 p3.16xlarge instances", "4台服务器"), which the
# device-count mentions do not cover.
# The words between name a product ("DGX", "A100", "p3.16xlarge"): capitalised or with a digit, so "4 stages
# on servers" is not a count of servers.
_NODES = re.compile(
    r"(?<![\w.,])(?P<n>\d{1,3}(?:,\d{3})+|\d+)[\s~]*(?:(?=[A-Z]|[\w.-]*\d)[\w.-]+\s+){0,2}?"
    r"(?i:nodes?|servers?|machines?|hosts?|instances?)\b"
    r"|(?P<zn>\d+)\s*[台个]\s*(?:计算)?(?:服务器|节点|机器|主机)"
)
# A count per node ("8 GPUs each", "each with 8 GPUs", "8 GPUs per server", "每台服务器配有8块"): not a total.
_PER_NODE_BEFORE = re.compile(r"(?:\b(?:each|every)\b[^,.;:\d]{0,30}|每[^，。；,;\d]{0,10})$", re.I)
_PER_NODE_AFTER = re.compile(
    r"^[^,.;:，。；]{0,24}?(?:\beach\b|\bapiece\b|\bper\s+(?:node|server|machine|host|instance)\b|"
    r"/\s*(?:node|server)\b)",
    re.I,
)

# -- interconnect -----------------------------------------------------------------------------------------
_LINK = re.compile(
    r"(?:(?P<speed>\d+(?:\.\d+)?)[\s~-]*(?P<rate>[GT]b(?:ps|/s|it/s))[\s~-]*)?"
    r"(?<![A-Za-z])(?P<name>NVLink|NVSwitch|(?:(?P<grade>HDR|NDR|EDR|FDR)\s+)?InfiniBand(?:\s+(?P<grade2>HDR|NDR|EDR|FDR))?"
    r"|RoCE(?:v2)?|Ethernet|以太网|PCIe)(?![A-Za-z])"
    r"|(?P<gbe>\d+)\s?GbE\b",
    re.I,
)
_LINK_CANON = {"nvlink": "NVLink", "nvswitch": "NVSwitch", "infiniband": "InfiniBand", "pcie": "PCIe"}

# -- model and size ---------------------------------------------------------------------------------------
# A model as written goes on with its variant and size: "GPT-2 small", "BERT-48", "LLaMA-2 70B".
_MODEL_TAIL = re.compile(
    r"(?:-\d+(?:\.\d+)?[BMT]?(?![A-Za-z0-9]|\.\d)|[\s-](?:small|medium|large|base|xl|xxl|tiny|mini|huge)\b"
    r"|\s\(?\d+(?:\.\d+)?\s?[BMT]\)?(?![A-Za-z0-9]))*",
    re.I,
)
_SCALE = {"m": 1e-3, "million": 1e-3, "b": 1.0, "billion": 1.0, "t": 1e3, "trillion": 1e3}
_ZH_SCALE = {"万亿": 1e3, "千亿": 100.0, "百亿": 10.0, "亿": 0.1, "千万": 1e-2, "百万": 1e-3}
_SIZE = re.compile(
    r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s?(?:(?P<mag>[BMT])(?![A-Za-z0-9])|(?P<word>billion|million|trillion)\b)"
    r"(?P<after>[\s-]*(?:param(?:eter)?s?|models?|LLMs?|transformers?|network)\b)?"
    r"|(?P<znum>\d+(?:\.\d+)?)\s*(?P<zmag>万亿|千亿|百亿|亿|千万|百万)\s*(?:个)?参数"
    r"|参数(?:量|规模)?\s*(?:为|达到?|是|约)?\s*(?P<znum2>\d+(?:\.\d+)?)\s*(?P<zmag2>万亿|千亿|百亿|亿)"
)
# A bare "170B" is a size unless it counts data ("300B tokens").
_NOT_PARAMS_AFTER = re.compile(
    r"[\s-]*(?:tokens?|words?|samples?|images?|sequences?|examples?|bytes?|FLOPs?|hours?|steps?|dollars?|"
    r"USD|\$)",
    re.I,
)

# -- sequence length --------------------------------------------------------------------------------------
_NUM_K = r"\d[\d,]*(?:\.\d+)?(?:\s?[Kk])?(?!\w|[.,]\d)(?!\s*[-–~～]\s*\d)"
_SEQ = re.compile(
    rf"(?:(?:sequence|seq\.?)[\s_-]*(?:lengths?|len\.?)|context[\s_-]*(?:lengths?|len\.?|sizes?|windows?))\s*"
    rf"(?:of|=|:|is|was|set\s+to)?[\s~]*(?P<a>{_NUM_K})"
    rf"|(?<![\w.])(?P<b>{_NUM_K})[\s~-]*(?:tokens?[\s-]+(?:sequences?|contexts?|inputs?)|context"
    rf"(?:[\s-]+(?:length|window))?)\b"
    rf"|(?:序列长度|上下文长度|序列长)\s*(?:为|是|=|:|：|达到)?\s*(?P<c>\d+(?:[Kk])?)",
    re.I,
)

# -- parallel layout --------------------------------------------------------------------------------------
_AXES = {
    "tp": (r"tensor(?:[\s-]+model)?", "张量并行"),
    "pp": (r"pipeline(?:[\s-]+model)?", "流水线?并行"),
    "dp": (r"data", "数据并行"),
}
# "data parallelism (8 GPUs)", "pipeline parallelism 2x faster": a count or a result, not a degree.
_NOT_A_DEGREE = r"(?!\s*(?:GPUs?|TPUs?|nodes?|devices?|machines?|servers?|workers?|%|×|x\b|times\b))"
_DEGREE = {
    axis: re.compile(
        rf"\b{word}[\s-]*parallel(?:ism|ization)?[\s-]*(?:size|degree|dimension|width|group\s+size)?"
        rf"\s*(?:of|=|:|is|was|set\s+to)?\s*\(?(?P<a>\d+)(?!\w|\.\d){_NOT_A_DEGREE}"
        rf"|(?<![\w.])(?P<b>\d+)\s*-?\s*(?:way|路)[\s-]*{word}[\s-]*(?:parallel|并行)"
        rf"|{zh}(?:度|大小|规模|数)?\s*(?:为|=|是|：|:)?\s*(?P<d>\d+)"
        rf"|(?<![\w.])(?P<b2>\d+)\s*路\s*{zh}",
        re.I,
    )
    for axis, (word, zh) in _AXES.items()
}
# Abbreviations are matched in capitals only: "dp" or "pp" in lower case are words ("pp. 103").
_ABBREVIATED = re.compile(r"(?<![A-Za-z])(?P<axis>TP|PP|DP)\s*(?:=|:|size|degree)?\s*(?P<n>\d+)(?!\d|\.\d)")
_STAGES = re.compile(r"(?<![\w.])(?P<n>\d+)[\s-]+pipeline[\s-]+stages?\b", re.I)
_TUPLE = re.compile(
    r"\([\s$]*(?P<k1>[tpd]p?)[\s$]*,[\s$]*(?P<k2>[tpd]p?)[\s$]*,[\s$]*(?P<k3>[tpd]p?)"
    r"[\s$]*\)[\s$]*=[\s$]*\(\s*(?P<v1>\d+)\s*,\s*(?P<v2>\d+)\s*,\s*(?P<v3>\d+)\s*\)",
    re.I,
)

# -- batch sizes ------------------------------------------------------------------------------------------
_BATCH = re.compile(
    r"(?<!per-GPU )(?<!per GPU )(?<!local )(?P<kind>micro[\s-]?batch|global[\s-]+batch|mini[\s-]?batch|batch)"
    r"[\s-]*sizes?\s*(?:of|=|:|is|was|set\s+to)?[\s~]*(?P<n>\d[\d,]*)(?!\w|[.,]\d)(?!\s*[KkMm]\b)"
    r"|(?P<zkind>微批次?|全局批次?|批次?|批量)(?:大小|尺寸)\s*(?:为|=|是|：|:)?\s*(?P<zn>\d+)(?!\d|\.\d)",
    re.I,
)

# -- measure ----------------------------------------------------------------------------------------------
_FLOP_RATE = re.compile(r"flop", re.I)
_ITEM_RATE = re.compile(r"(?:samples|tokens|images|sequences|queries|requests|frames)\b|QPS", re.I)
_BIT_RATE = re.compile(r"^[KMGTP]i?(?:b(?:ps|it/s)|B/s)$", re.I)
_OF_PEAK = re.compile(r"^\s*of\s+(?:the\s+)?(?:[\w'’-]+\s+){0,3}?(?:peak|theoretical)\b", re.I)
_OF_SCALING = re.compile(r"^\s*of\s+(?:linear|ideal|perfect)\s+scaling\b", re.I)
_LARGER_MODEL = re.compile(
    r"^\s*(?:larger|bigger)\b|^\s*increases?\s+in\s+(?:\w+\s+)?model\s+size|^\s*more\s+parameters", re.I
)
# Words of ``_context``'s metric names (in order: "job completion time" before "time").
_METRIC_MEASURES = (
    ("job completion time", "jct"),
    ("scaling efficiency", "scaling_efficiency"),
    ("throughput", "throughput"),
    ("speedup", "throughput"),
    ("goodput", "throughput"),
    ("memory", "memory"),
    ("communication", "communication"),
    ("latency", "latency"),
    ("utilization", "mfu"),
    ("accuracy", "accuracy"),
    ("bandwidth", "bandwidth"),
    ("energy", "energy"),
    ("cost", "cost"),
    ("time", "step_time"),
)
# What may follow a baseline's name and still be its setting: "than Megatron-LM on 32 GPUs".
_BASELINE_TAIL = re.compile(
    r"\s+(?:on|with|using|across|at)\s+[^,.;:，。；\n]{0,40}?"
    r"(?:GPUs?|TPUs?|NPUs?|nodes?|machines?|servers?|accelerators?|devices?|chips?|cards?|cores?|instances?)\b",
    re.I,
)


_DEVICE_LEAD = re.compile(r"\s+(?:on|with|using|across)\s+(?:(?:a|an|the|one|single|only)\s+)*", re.I)


def baseline_region(text: str, span: Span | None, mentions: MentionIndex | None = None) -> Span | None:
    """A claim's baseline phrase, with the devices that may follow it ("than X on 32 GPUs", "than X on 16
    V100s", "than X on a single A100")."""
    if span is None:
        return None
    end = span[1]
    tail = _BASELINE_TAIL.match(text, end, min(len(text), end + 60))
    if tail:
        end = tail.end()
    lead = _DEVICE_LEAD.match(text, end, min(len(text), end + 24))
    if lead and mentions is not None:
        devices = [m for m in mentions.inside(lead.end(), lead.end() + 40) if m.type == "hardware"]
        if devices and devices[0].start == lead.end():
            end = max(m.end for m in devices if m.start == lead.end())
    return span[0], end


_CLAUSE_BREAK = re.compile(r"[,;:，；：、]")


def clause_of(text: str, claim: Claim, previous_end: int, next_start: int) -> Span:
    """The claim's clause: from the last clause break after the previous claim of its sentence (or the
    sentence's start, ``previous_end``) to the next claim (or the sentence's end, ``next_start``)."""
    lo = previous_end
    for m in _CLAUSE_BREAK.finditer(text, previous_end, claim.start):
        lo = m.end()
    return lo, next_start


# Words without which a group of regexes cannot match: most sentences skip most of them.
_HINTS = {
    "cpu": re.compile(r"CPU"),
    "links": re.compile(r"nvlink|nvswitch|infiniband|roce|ethernet|以太网|pcie|gbe", re.I),
    "seq": re.compile(r"seq|context|序列|上下文", re.I),
    "layout": re.compile(r"(?i:parallel|stage|并行)|TP|PP|DP|\(\s*\$?[tpdTPD]"),
    "batch": re.compile(r"batch|批", re.I),
}


def candidates(text: str, sentence: Span, mentions: MentionIndex) -> dict[str, list[_Found]]:
    """Every value a sentence states, per field, with where it is written: computed once per sentence
    (a table dump on one line has thousands of claims) and picked from per claim by ``claim_settings``."""
    lo, hi = sentence
    found = mentions.inside(lo, hi)
    piece = text[lo:hi]
    hinted = {name: bool(hint.search(piece)) for name, hint in _HINTS.items()}
    out: dict[str, list[_Found]] = {
        "hardware": _hardware(text, found),
        "cpu": [(m.start(), m.end(), "CPU") for m in _CPU.finditer(text, lo, hi)] if hinted["cpu"] else [],
        **_counts(text, found, lo, hi),
        "interconnect": _links(text, lo, hi) if hinted["links"] else [],
        "model": _models(text, found),
        "params_b": _sizes(text, found, lo, hi),
        "seq_len": _seq_lens(text, lo, hi) if hinted["seq"] else [],
        **(_layout(text, lo, hi) if hinted["layout"] else {"dp": [], "tp": [], "pp": []}),
        **(_batches(text, lo, hi) if hinted["batch"] else {"micro_batch": [], "global_batch": []}),
    }
    return out


def claim_settings(
    text: str,
    claim: Claim,
    found: dict[str, list[_Found]],
    baselines: Iterable[Span] = (),
    earlier: Callable[[], Sequence[Span]] | None = None,
    clause: Span | None = None,
    mentions: MentionIndex | None = None,
) -> dict[str, Any]:
    """The ``FIELDS`` of one claim from its sentence's ``candidates``. ``baselines``: the baseline regions
    of the sentence's claims (its own included); ``earlier``: the paragraph's sentences before the claim's,
    nearest first (a function: only asked for when needed), whose accelerators (in ``mentions``) stand in when the sentence names none; ``clause``:
    the part of the sentence that is the claim's own (see ``clause_of``)."""
    side = _Side(claim, list(baselines), clause)
    out: dict[str, Any] = dict.fromkeys(FIELDS)
    for name in ("model", "params_b", "seq_len", "dp", "tp", "pp", "micro_batch", "global_batch", "nodes"):
        out[name] = side.pick(found[name])
    out["hardware"] = side.pick(found["hardware"])
    if out["hardware"] is None and mentions is not None and earlier is not None:
        out["hardware"] = _hardware_before(text, mentions, earlier())
    if out["hardware"] is None:
        out["hardware"] = side.pick(found["cpu"])
    out["gpus"] = side.pick(found["gpus"])
    if out["gpus"] is None and out["nodes"] is not None:
        each = side.pick(found["per_node"])
        out["gpus"] = out["nodes"] * each if each else None
    links = [v for start, end, v in found["interconnect"] if side.keeps(start, end)]
    out["interconnect"] = ", ".join(dict.fromkeys(links)) or None
    out["measure"] = measure(claim.metric, claim.unit, text[claim.end : claim.end + 60])
    out["direction"] = DIRECTIONS.get(out["measure"]) if out["measure"] else None
    if claim.scope and not (claim.metric or "").endswith(claim.scope):
        # "4,300 tokens/s per GPU": the scope is part of what is measured ("throughput per GPU"), so a check
        # compares it with a per-device figure (the unit stays as the gold sets write it, "tokens/s").
        named = {"tflops": "FLOP rate", None: "rate"}.get(
            out["measure"], str(out["measure"]).replace("_", " ")
        )
        claim.metric = f"{claim.metric or named} {claim.scope}"
    return out


def measure(metric: str | None, unit: str | None, after: str = "") -> str | None:
    """The canonical quantity of a claim from its metric words and unit; ``after``: the text after it."""
    unit = unit or ""
    if _FLOP_RATE.search(unit):
        return "tflops"
    if _ITEM_RATE.search(unit):
        return "throughput"
    if _BIT_RATE.match(unit.replace(" ", "")):
        return "bandwidth"
    if _OF_PEAK.match(after):
        return "mfu"
    if _OF_SCALING.match(after):
        return "scaling_efficiency"
    if _LARGER_MODEL.match(after):
        return None  # the model's size, which no check measures
    if metric:
        lowered = metric.lower()
        for word, name in _METRIC_MEASURES:
            if word in lowered:
                return name
    return "throughput" if unit == "x" and metric is None else None


class _Side:
    """Which text is the claim's own side: outside every baseline region of its sentence, and within its
    clause first ("a 15% speedup on BERT-large (sequence length 512), a 3x speedup on GPT-2 (sequence
    length 1K)": GPT-2 and 1K are the 3x's)."""

    def __init__(self, claim: Claim, baselines: list[Span], clause: Span | None = None):
        self.claim = claim
        own = claim.versus_span
        self.excluded = baselines + ([own] if own else [])
        self.clause = clause

    def keeps(self, start: int, end: int) -> bool:
        if start < self.claim.end and end > self.claim.start:
            return False  # the claim's own number is not its setting
        return not any(lo <= start and end <= hi for lo, hi in self.excluded)

    def pick(self, found: list[_Found]) -> Any:
        """The value written nearest before the claim in its clause, else the first after it there; then
        the same over the whole sentence."""
        if not found:
            return None
        kept = sorted((f for f in found if self.keeps(f[0], f[1])), key=lambda f: f[0])
        if self.clause:
            lo, hi = self.clause
            value = self._nearest([f for f in kept if lo <= f[0] and f[1] <= hi])
            if value is not None:
                return value
        return self._nearest(kept)

    def _nearest(self, kept: list[_Found]) -> Any:
        before = [f for f in kept if f[1] <= self.claim.start]
        if before:
            return before[-1][2]
        after = [f for f in kept if f[0] >= self.claim.end]
        return after[0][2] if after else None


def _accelerator(text: str, m: Mention) -> str | None:
    if m.type != "hardware" or m.source == COUNT_SOURCE or m.name.lower() in _LINK_NAMES:
        return None
    memory = _MEMORY_IN.search(m.text) or _MEMORY_AFTER.match(text, m.end, min(len(text), m.end + 12))
    return f"{m.name}-{memory.group(1)}GB" if memory else m.name


def _hardware(text: str, found: list[Mention]) -> list[_Found]:
    out = []
    for m in found:
        name = _accelerator(text, m)
        if name:
            out.append((m.start, m.end, name))
    return out


def _hardware_before(text: str, mentions: MentionIndex, earlier: Sequence[Span]) -> str | None:
    """The accelerator of the nearest earlier sentence that names any, when it names exactly one."""
    for lo, hi in earlier:
        names = {n for n in (_accelerator(text, m) for m in mentions.inside(lo, hi)) if n}
        if len(names) == 1:
            return names.pop()
        if names:
            return None
    return None


def _counts(text: str, found: list[Mention], lo: int, hi: int) -> dict[str, list[_Found]]:
    """Total device counts, counts per node ("8 GPUs each") and node counts."""
    out: dict[str, list[_Found]] = {"gpus": [], "per_node": [], "nodes": []}
    for m in found:
        if m.type != "hardware" or m.source != COUNT_SOURCE:
            continue
        words = m.name.split()
        n = int(words[0])
        if words[-1].lower().rstrip("s") in _NODE_NOUNS:
            out["nodes"].append((m.start, m.end, n))
        elif _counts_devices(words):
            per = _PER_NODE_BEFORE.search(text, max(lo, m.start - 40), m.start) or _PER_NODE_AFTER.match(
                text[m.end : min(hi, m.end + 30)]
            )
            out["per_node" if per else "gpus"].append((m.start, m.end, n))
    for m in _NODES.finditer(text, lo, hi):
        if not _PER_NODE_BEFORE.search(text, max(lo, m.start() - 40), m.start()):
            out["nodes"].append((m.start(), m.end(), int((m.group("n") or m.group("zn")).replace(",", ""))))
    return out


def _counts_devices(words: list[str]) -> bool:
    """Whether a count mention's name ("64 A100 GPUs", "8 A100", "128 TPU v3 cores", "2 CPU workers") counts
    accelerators: bare workers and cores may be processes or CPU cores, so they are not counted."""
    noun = words[-1].lower().rstrip("s")
    if noun == "core":
        return len(words) > 2
    if noun == "worker" and len(words) > 2:
        return words[-2].lower().rstrip("s") in ("cpu", "gpu", "tpu", "npu") or words[-2][:1].isupper()
    return noun in _DEVICE_NOUNS or (noun not in ("worker", "host") and len(words) > 1)


def _links(text: str, lo: int, hi: int) -> list[_Found]:
    out = []
    for m in _LINK.finditer(text, lo, hi):
        if m.group("gbe"):
            out.append((m.start(), m.end(), f"{m.group('gbe')} Gbps Ethernet"))
            continue
        raw = m.group("name")
        key = raw.lower()
        if key.startswith("infiniband") or key.endswith("infiniband") or "infiniband" in key:
            grade = m.group("grade") or m.group("grade2")
            name = "InfiniBand" + (f" {grade.upper()}" if grade else "")
        elif key in ("ethernet", "以太网"):
            name = "Ethernet"
        elif key.startswith("roce"):
            name = "RoCE"
        else:
            name = _LINK_CANON.get(key, raw)
        speed = m.group("speed")
        if speed and name.split()[0] in ("InfiniBand", "Ethernet", "RoCE"):
            name = f"{speed} {m.group('rate')[0].upper()}bps {name}"
        out.append((m.start(), m.end(), name))
    return out


def _models(text: str, found: list[Mention]) -> list[_Found]:
    out = []
    for m in found:
        if m.type == "model" and m.source != COUNT_SOURCE:
            tail = _MODEL_TAIL.match(text, m.end, min(len(text), m.end + 24))
            end = tail.end() if tail else m.end
            out.append((m.start, end, " ".join(text[m.start : end].split())))
    return out


def _sizes(text: str, found: list[Mention], lo: int, hi: int) -> list[_Found]:
    models = [m for m in found if m.type == "model" and m.source != COUNT_SOURCE]
    out = []
    for m in _SIZE.finditer(text, lo, hi):
        if m.group("znum") or m.group("znum2"):
            number = m.group("znum") or m.group("znum2")
            out.append((m.start(), m.end(), float(number) * _ZH_SCALE[m.group("zmag") or m.group("zmag2")]))
            continue
        magnitude = (m.group("mag") or m.group("word")).lower()
        stated = bool(m.group("after")) or any(
            0 <= m.start() - x.end <= 2 or 0 <= x.start - m.end() <= 2 for x in models
        )
        bare = magnitude in ("b", "t", "billion", "trillion") and not _NOT_PARAMS_AFTER.match(
            text, m.end(), min(len(text), m.end() + 12)
        )
        if stated or bare:
            out.append((m.start(), m.end(), round(float(m.group("num")) * _SCALE[magnitude], 6)))
    return out


def _seq_lens(text: str, lo: int, hi: int) -> list[_Found]:
    out = []
    for m in _SEQ.finditer(text, lo, hi):
        raw = (m.group("a") or m.group("b") or m.group("c")).replace(",", "").replace(" ", "")
        kilo = raw[-1] in "kK"
        number = float(raw[:-1] if kilo else raw)
        out.append((m.start(), m.end(), int(number * 1024) if kilo else int(number)))
    return out


def _layout(text: str, lo: int, hi: int) -> dict[str, list[_Found]]:
    out: dict[str, list[_Found]] = {}
    for axis, pattern in _DEGREE.items():
        found: list[_Found] = []
        for m in pattern.finditer(text, lo, hi):
            value = next(m.group(g) for g in ("a", "b", "d", "b2") if m.group(g) is not None)
            found.append((m.start(), m.end(), int(value)))
        found += [
            (m.start(), m.end(), int(m.group("n")))
            for m in _ABBREVIATED.finditer(text, lo, hi)
            if m.group("axis").lower() == axis
        ]
        if axis == "pp":
            found += [(m.start(), m.end(), int(m.group("n"))) for m in _STAGES.finditer(text, lo, hi)]
        for m in _TUPLE.finditer(text, lo, hi):
            for k, v in (("k1", "v1"), ("k2", "v2"), ("k3", "v3")):
                if m.group(k)[0].lower() == axis[0]:
                    found.append((m.start(), m.end(), int(m.group(v))))
        out[axis] = found
    return out


def _batches(text: str, lo: int, hi: int) -> dict[str, list[_Found]]:
    micro: list[_Found] = []
    global_: list[_Found] = []
    for m in _BATCH.finditer(text, lo, hi):
        kind = (m.group("kind") or m.group("zkind")).lower()
        value = int((m.group("n") or m.group("zn")).replace(",", ""))
        (micro if kind.startswith(("micro", "微")) else global_).append((m.start(), m.end(), value))
    return {"micro_batch": micro, "global_batch": global_}
