"""Names of the systems a paper proposes: "we propose X", "X, a ... framework", "X is a ... system",
"called X", "our ... framework, X", "X (ours)", a title "X: ...", "我们提出了X", "X，这是一个...", and names a
text keeps repeating; not what a sentence credits to another work (``_ownership``) or an apposition describes as
someone else's ("X, a state-of-the-art library widely used in ...").

Why one module: every kind of evidence adds to one table of candidates with its weight and kind (``add``), and
the kinds are read in one pass whose order decides which kind a name is kept under."""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass
from itertools import islice

from assay.operators.papers._mentions import Mention
from assay.operators.papers._name_runs import NAME_RE, names_in
from assay.operators.papers._ownership import credited_to_others
from assay.operators.papers._techniques import self_reference, technique_phrases
from assay.operators.papers._title_names import (
    _DISTINCTIVE,
    _NAME,
    acceptable,
    occurrences,
    title_name,
)

_SYSTEM_NOUN = (
    r"(?:system|framework|library|engine|compiler|scheduler|runtime|tool|toolkit|platform|approach|"
    r"method|technique|algorithm|architecture|design|stack|planner|service|abstraction|optimizer|"
    r"interface|simulator|model|protocol|mechanism|solution|policy|network|cache|service|"
    r"\w+(?:er|or))s?"
)
_EN_PROPOSE = re.compile(
    r"(?<![A-Za-z])(?=[WwTtOoIi])"
    # ("the authors" of a note or post about one paper: the statement is checked for whose it is, below)
    r"(?:we|this\s+(?:paper|work|article)|the\s+paper|our\s+work|in\s+this\s+paper,?\s+we|the\s+authors)\s+"
    r"(?:(?:also|further|then|first|thus|therefore|hence)\s+)?"
    r"(?:propose[sd]?|presents?|presented|introduce[sd]?|design(?:s|ed)?|develop(?:s|ed)?|builds?|built|"
    r"implement(?:s|ed)?|describe[sd]?|create[sd]?|devise[sd]?|contribute[sd]?)\s+"
    # The statement may wrap over single line breaks ("... a framework\ncalled X"), not over a blank line.
    r"(?P<rest>(?:[^.;!?\n]|\n(?![ \t]*\n)){1,300})",
    re.IGNORECASE,
)
_ZH_PROPOSE = re.compile(
    r"(?:提出|推出|发布|开源|设计|开发|介绍|展示|实现|构建|研发)了?(?P<rest>[^。；！？!?]{0,80})"
)
_NAMES = rf"{_NAME}(?:[ \t]+{_NAME})*"  # "Amazon SageMaker"
_LEADING_NAME = re.compile(
    rf"^(?:(?:a|an|the)\s+)?(?P<n>{_NAMES})"
    r"(?=[ \t]*(?:[,:(—–\n]|\s+-\s|$)|\s+(?:which|that|on|in|as|atop|for|to|with|to)\b)"
)
# "we call it X", "which we call X", "we call our system X", "we name this design X": the name the paper gives.
_WE_CALL = r"\bwe\s+(?:call|name|term|dub)(?:\s+(?:it|this|them|our|the)(?:\s+[a-z][\w-]*){0,3}?)?"
_CALLED = re.compile(
    rf"(?:\bcalled|\bnamed|\bdubbed|\btermed|\bcoined|{_WE_CALL}|称为|名为|叫做|命名为|即)\s*[\"“']?(?P<n>{_NAME})"
)
# Said on its own, outside a "we propose" statement; not a cut-down variant named for an ablation ("we call it
# X (baseline)", "... without the cache, which we call X-NoCache" is left to the baselines).
# A lookahead for a scanning pattern's first characters skips other positions fast (same matches).
_WE_CALL_ALONE = re.compile(rf"(?=w){_WE_CALL}\s*[\"“']?(?P<n>{_NAME})(?![\w-])(?!\s*\((?:baseline|w/o|without))")
_VARIANT_WORDS = re.compile(r"\b(?:baseline|without|disabled?|vanilla|variant|ablat\w*)\b", re.I)
_PAREN = re.compile(rf"[(（](?P<n>{_NAME})[)）]")
# (a space may stand between the verb and a Latin name: "提出了 FlowKV")
_ZH_LEADING = re.compile(rf"^[ \t]*(?:一个|一种|一款|一套|了)?[ \t]*(?P<n>{_NAMES})(?![A-Za-z0-9])")
# "提出了一种拓扑感知的集合通信库Lattice": the name right after the kind of system it is.
#: The kinds of software a Chinese text says a name is (库, 框架, 系统, ...), read before a name and after one.
_ZH_SOFTWARE = "库|框架|系统|方法|引擎|调度器|编译器|平台|算法|工具|方案"
_ZH_NOUN_NAME = re.compile(rf"(?:{_ZH_SOFTWARE}|机制|技术)\s*(?P<n>{_NAME})(?![A-Za-z0-9])")
# "...的最新的FooLib框架": the name after 的, perhaps with the kind of system it is, ending the clause.
_ZH_KIND = r"(?:框架|系统|库|引擎|平台|工具|版本|方法|算法)"
_ZH_DE_NAME = re.compile(rf"的(?P<n>{_NAME})\s*{_ZH_KIND}?(?=[，,（(：:]|$)")
# "Merak, an automated ... framework", "TensorFlow is a ... system", "Celeritas，这是一个": found from these
# literal anchors first, so the text is scanned once cheaply.
_APPOSITION_ANCHOR = re.compile(r",\s+an?\s+|\s+is\s+an?\s+|[，,]?这是一[个种]|[ \t]*[)）]?[ \t]*(?<!这)是一[个种款套]")
# What a Chinese "X 是一个……" says X is, in its clause: a kind of software ("……的推理与部署工具箱").
_ZH_KIND_AHEAD = re.compile(rf"[^。；！？，,\n]{{0,60}}?(?:工具箱|工具包|加速器|运行时|模型|{_ZH_SOFTWARE})")
_NAME_AT_END = re.compile(rf"(?<![A-Za-z0-9-])(?P<n>{_NAME})[)）]?$")
# A Chinese name opening its sentence and the Latin name in brackets after it ("飞轮（FlyWheel）").
_ZH_NAME_BEFORE = re.compile(r"(?:^|[\n。！？])\s*[\u4e00-\u9fff]{1,8}[（(]$")
_SYSTEM_NOUN_AHEAD = re.compile(rf"(?:[\w-]+\s+){{0,8}}?{_SYSTEM_NOUN}\b")
# What an apposition says of someone else's system: "We targeted FooInfer, a state-of-the-art attention library
# widely used in ...", "BarDB, a popular ...": one the paper works on or against, not its own.
_THIRD_PARTY_AHEAD = re.compile(
    r"[^.;:\n]{0,60}?\b(?:state-of-the-art|widely[- ]used|widely[- ]adopted|popular|existing|well-known|"
    r"commonly[- ]used|de[- ]facto|industry-standard)\b",
    re.I,
)

# The paper calling a name its own: "our open-source training framework, X", "X [9], our framework for ...",
# "X (ours)"; the words may wrap over a line break.
_CITED = r"(?:\s*\[\d+(?:\s*[,–-]\s*\d+)*\])*(?:,\s*\[\d+\])*"
# Lower-case words before the noun ("open-source training"), so "our experiments on Perlmutter, X" is none;
# the nouns of software only ("our cluster, Frontier" names a machine).
_OUR_WORDS = r"(?:[a-z][\w-]*\s+){0,3}?"
_OUR_NOUN = (
    r"(?:system|framework|library|engine|compiler|scheduler|runtime|tool|toolkit|platform|approach|method|"
    r"technique|algorithm|design|stack|planner|optimizer|simulator|prototype|implementation|solution|"
    r"trainer|tuner|profiler)s?"
)
# After "X, our approach" the clause goes on: a verb ("..., our approach achieves 2x") makes "our approach" the
# sentence's subject and X the end of an opening phrase ("Compared to cuDNN, our approach ..."); "and"/"or"
# makes it one item of a list ("IMPLICIT, PRECOMP, our approach and TensorFlow"). Neither is an apposition.
_CLAUSE_GOES_ON = (
    r"\s+(?:and|or|is|are|was|were|can|could|will|would|may|might|has|have|had|does|did|also|still|thus|"
    r"then|further|[a-z]+ly|[a-z]+(?<![su])s|[a-z]+ed)\b"
)
# Each with the words every match of it holds (its guard): a text without them is not scanned name by name.
_OURS = (
    (None, re.compile(rf"(?=[OoTt])\b(?:[Oo]ur|[Tt]he\s+proposed)\s+{_OUR_WORDS}{_OUR_NOUN},?\s+"
                      rf"(?:called\s+|named\s+)?(?P<n>{_NAME})(?![\w-])")),
    (
        re.compile(r",\s+our\s"),
        re.compile(rf"(?<![\w-])(?P<n>{_NAME}){_CITED},\s+our\s+{_OUR_WORDS}{_OUR_NOUN}\b(?!{_CLAUSE_GOES_ON})"),
    ),
    (re.compile(r"\(ours\)"), re.compile(rf"(?<![\w-])(?P<n>{_NAME})\s*\(ours\)")),
)

_CONTRAST_BEFORE = re.compile(
    r"(?:\bunlike|\blike|\bthan|\bover|\bagainst|\bversus|\bvs\.?|\bbesides|\bbeyond|\bcompared\s+(?:to|with)|"
    r"\brelative\s+to|\binstead\s+of|\bapart\s+from|\bexcept)\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Proposal:
    name: str
    start: int  # the name's first occurrence as proposed
    end: int
    confidence: float
    #: which evidence found it: title, propose ("we present X"), called, apposition, verb, frequent, known
    how: str = ""


#: Proposals are looked for in a document's opening (its abstract and introduction), not all of a long text.
PROPOSAL_SCAN_CHARS = 100_000


# A name written in lower case ("we present ravel, a ..."): taken only before an appositive.
_LOWER_LEAD = re.compile(r"^(?P<n>[a-z][a-z0-9]{2,15}),\s+an?\s")
# "Ravel synthesizes ...", "Cairn records ...": a name opening a sentence, followed by a verb.
_SUBJECT_VERB = re.compile(
    rf"(?=[A-Z])(?:^|(?<=[.!?]\s)|(?<=\n))(?P<n>{_NAME})\s+(?:is|can|achieves|outperforms|reduces|improves|"
    r"(?!is\b)[a-z]{3,}(?<!ss)s)\b"
)


def proposals(text: str, lang: str, known: list[Mention], title: str | None = None) -> list[Proposal]:
    """Systems the document proposes, in order of first statement (a name heading the title first)."""
    found: dict[str, Proposal] = {}
    seen: set[str] = set()
    text = text[:PROPOSAL_SCAN_CHARS]
    known = [m for m in known if m.start < PROPOSAL_SCAN_CHARS]
    titled = title_name(text, title)

    def add(name: str, start: int, confidence: float, how: str, whose: bool = False) -> None:
        # ``whose``: a statement without "we" as its subject, which may credit the name to another work
        # ("Park et al. introduce X, a ...", "张等人提出了X").
        if whose and credited_to_others(text, start):
            return
        if name.lower() not in seen and acceptable(name):
            seen.add(name.lower())
            found[name] = Proposal(name, start, start + len(name), confidence, how)

    for m in _EN_PROPOSE.finditer(text):
        base, rest = m.start("rest"), m.group("rest")
        whose = m.group().lower().startswith("the authors")
        lead = _LEADING_NAME.match(rest) or _LOWER_LEAD.match(rest)
        if lead and (not lead.group("n").islower() or text.count(lead.group("n")) >= 3):
            add(lead.group("n"), base + lead.start("n"), 0.85, "propose", whose=whose)
        # "called X" anywhere in the wrapped statement; "(X)" only on its first line, as a wrapped
        # statement's later lines may be another column's ("the GPUs per node (Gnode)").
        for pattern, span in ((_CALLED, rest), (_PAREN, rest.split("\n", 1)[0])):
            for n in pattern.finditer(span):
                add(n.group("n"), base + n.start("n"), 0.8, "called", whose=whose)
    for m in _WE_CALL_ALONE.finditer(text):
        if not _VARIANT_WORDS.search(text, max(0, m.start() - 150), m.start()):
            add(m.group("n"), m.start("n"), 0.8, "called")
    for guard, pattern in _OURS:
        # "our open-source training framework, X", "X [9], our framework for ...", "X (ours)"
        if guard is not None and not guard.search(text):
            continue
        for m in pattern.finditer(text):
            # Not "our approach, In ...", nor a contrast: "Unlike X, our system ...", "Unlike our system, X ..."
            if not _ordinary_word(text, m.group("n"), lang) and not _CONTRAST_BEFORE.search(
                text, max(0, m.start() - 30), m.start()
            ):
                add(m.group("n"), m.start("n"), 0.8, "ours")
    for m in _ZH_PROPOSE.finditer(text):
        base, rest = m.start("rest"), m.group("rest")
        clause = re.split(r"[，,]", rest, maxsplit=1)[0]
        for pattern, confidence in (
            (_ZH_LEADING, 0.85),
            (_CALLED, 0.8),
            (_ZH_DE_NAME, 0.75),
            (_ZH_NOUN_NAME, 0.75),
            (_PAREN, 0.7),
        ):
            n = pattern.search(clause if pattern is not _CALLED else rest)
            if n:
                add(n.group("n"), base + n.start("n"), confidence, "propose", whose=True)
                break
    if titled:
        # "Ravel: Learned Collective Algorithms": the name before the colon is what the paper presents.
        name = titled.group("n")
        at = text.find(name)
        add(name, at if at >= 0 else 0, 0.8, "title")
    if lang not in ("zh", "ja", "ko"):
        known_names = {m.text.lower() for m in known}
        for m in _SUBJECT_VERB.finditer(text):
            name = m.group("n")
            # A proper name: said twice, never as an ordinary lower-case word ("Training ... training"),
            # and not a known system the paper builds on or compares with.
            if (
                name.lower() not in known_names
                # said twice as a word of its own, not inside a compound ("Low-Latency ... Latency drops")
                and len(occurrences(text, name, True, 2)) >= 2
                and not _written_in_lower_case(text, name.lower())
                and ("-" not in name or _DISTINCTIVE.search(name, 1))  # "First-time requests": ordinary words
            ):
                add(name, m.start("n"), 0.6, "verb")
    for anchor in _APPOSITION_ANCHOR.finditer(text):
        name = _NAME_AT_END.search(text, max(0, anchor.start() - 40), anchor.start())
        if not name:
            continue
        if COMPARED_BEFORE.search(text, max(0, name.start() - 30), name.start()) or _ordinary_word(
            text, name.group("n"), lang
        ):
            continue  # "compared against X, a strong baseline"; "measured with Nsight Compute, a tool"
        if "这是" in anchor.group():
            add(name.group("n"), name.start("n"), 0.7, "apposition", whose=True)
        elif "是一" in anchor.group():
            # "FooServe 是一个面向大模型的推理工具箱", "傅里（FooServe）是一款……框架": the sentence opens with the
            # name (or its Chinese name before it) and says what kind of software it is
            opening = text[max(0, name.start() - 12) : name.start()]
            if _ZH_KIND_AHEAD.match(text, anchor.end()) and (
                _sentence_initial(text, name.start("n")) or _ZH_NAME_BEFORE.search(opening)
            ):
                add(name.group("n"), name.start("n"), 0.7, "apposition", whose=True)
        elif _SYSTEM_NOUN_AHEAD.match(text, anchor.end(), anchor.end() + 120) and (
            anchor.group().startswith(",") or _sentence_initial(text, name.start("n"))
        ) and not _THIRD_PARTY_AHEAD.match(text, anchor.end(), anchor.end() + 120):
            add(name.group("n"), name.start("n"), 0.7, "apposition", whose=True)
    for name, start in _installed_names(text):
        # a README's or a post's ``pip install lmdeploy``: the package it installs is what it is about
        add(name, start, 0.85, "package")
    for name, start in _frequent_names(text, lang, known):
        add(name, start, 0.5, "frequent")
    if not any(p.how in STRONG_EVIDENCE for p in found.values()):
        # No name is proposed: a technique named by its words ("we propose a packing policy that ...").
        techniques = technique_phrases(text)
        ours = self_reference(text, techniques)
        if ours:  # "our approach", eighty times: the text's own words for its work
            found[ours[0]] = Proposal(ours[0], ours[1], ours[1] + len(ours[0]), 0.6, "technique")
        else:
            for phrase, start, how in techniques:
                add(phrase, start, 0.6, how)
    if all(p.how == "frequent" for p in found.values()):
        # No sentence proposes anything: a known system the whole text is about ("ALPA ... ALPA ... ALPA"),
        # beside the names it merely repeats (a post on one library's collectives: "AllReduce", "AlltoAll").
        systems = Counter(m.name for m in known if m.type == "system" and m.source == "gazetteer")
        if systems:
            name, count = systems.most_common(1)[0]
            if count >= 3:
                first = min(m.start for m in known if m.name == name)
                found[name] = Proposal(name, first, first + len(name), 0.5, "known")
    return sorted(found.values(), key=lambda p: p.start)


# The package a text tells its reader to install: ``pip install lmdeploy``, ``pip install -U vllm``.
# An exactly pinned version ("pip install foolib==0.1.5") is a dependency an artifact's set-up installs, not the
# package the text is about.
_INSTALL = re.compile(
    r"\b(?:pip3?|uv\s+pip|conda)\s+install\s+(?:-{1,2}[\w-]+\s+)*(?P<p>[A-Za-z][\w.-]*[A-Za-z0-9])(?![\w.-]|\s*==)"
)


_WORD = re.compile(r"(?<![\w./-])[A-Za-z][\w-]*(?![\w/])")


def _installed_names(text: str) -> list[tuple[str, int]]:
    """The name the text writes for a package it installs ("LMDeploy" for ``pip install lmdeploy``): the
    capitalised form the text uses most, spelled as the package but for case, dashes and underscores."""
    found: list[tuple[str, int]] = []
    for package in dict.fromkeys(m.group("p") for m in _INSTALL.finditer(text[:PROPOSAL_SCAN_CHARS])):
        key = re.sub(r"[-_.]", "", package.lower())
        forms = Counter(
            m.group()
            for m in _WORD.finditer(text)
            if re.sub(r"[-_.]", "", m.group().lower()) == key and not m.group().islower()
        )
        if forms:
            name = forms.most_common(1)[0][0]
            found.append((name, text.find(name)))
    return found


def _ordinary_word(text: str, name: str, lang: str) -> bool:
    """A capitalised word the (non-CJK) text also writes in lower case ("Compute" / "compute")."""
    if lang in ("zh", "ja", "ko") or _DISTINCTIVE.search(name, 1):
        return False
    return _written_in_lower_case(text, name.lower())


def _frequent_names(text: str, lang: str, known: list[Mention]) -> list[tuple[str, int]]:
    """Names repeated through a document that no rule caught ("Gbuilder ... Gbuilder ... Gbuilder")."""
    taken = sorted((m.start, m.end) for m in known)
    starts = [s for s, _ in taken]
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    cjk = lang in ("zh", "ja", "ko")
    for name, start in names_in(text, 0, len(text), cjk):
        if not cjk:
            if not _DISTINCTIVE.search(name, 1) or (" " not in name and _sentence_initial(text, start)):
                continue
        i = bisect.bisect_right(starts, start) - 1
        if i >= 0 and taken[i][0] <= start < taken[i][1]:
            continue
        counts[name] += 1
        first.setdefault(name, start)
    return [(n, first[n]) for n, c in counts.items() if c >= 3 and acceptable(n)]


def name_before(text: str, lo: int, hi: int, lang: str, known: list[Mention]) -> tuple[str, int] | None:
    """The last plausible name between ``lo`` and ``hi`` ("在各种模型中，Harmony能够..." -> Harmony) that is
    not already known as something else (a model, a device)."""
    last = None
    for m in NAME_RE.finditer(text, lo, hi):
        name = m.group()
        if not acceptable(name) or any(k.start < m.end() and m.start() < k.end for k in known):
            continue
        if lang not in ("zh", "ja", "ko") and (
            _sentence_initial(text, m.start()) or not _DISTINCTIVE.search(name, 1)
        ):
            continue
        last = (name, m.start())
    return last


def _sentence_initial(text: str, start: int) -> bool:
    before = text[max(0, start - 3) : start].rstrip()
    return not before or before[-1] in ".!?\n。"


#: Names that only a strong statement (title, "we present X") makes the paper's own: a repeated name with
#: nothing more is one the paper also has to beat.
STRONG_EVIDENCE = ("title", "propose", "ours", "called", "apposition", "package")
# A comparison word just before a name: the name is a baseline there ("than X", "compared to X", "与X").
COMPARED_BEFORE = re.compile(
    r"(?:\bthan|\bover|\bcompared\s+(?:with|to|against)|\brelative\s+to|\bversus|\bvs\.?|\bagainst|"
    r"\boutperform\w*|\bsurpass\w*|\bbeats?|相比于?|相较于?|与|比)\s*(?:the\s+)?$",
    re.I,
)


# -- the systems a paper compares against -------------------------------------------------------------------
# Where a paper names what it is compared with: a comparison word, "we compare (X's savings) with Y", a
# baselines list ("baselines: A, B and C", "against three baselines, A, B and C").
_COMPARISON_ANCHOR = re.compile(
    r"(?=[TtOoCcRrVvAaSsBbIi相与优对])\b(?:than|over|compared\s+(?:with|to|against)|relative\s+to|versus|vs\.?|against|outperform\w*|"
    r"surpass\w*|beats?|baselines?\s*(?:[:(]|such\s+as|including|are|,)|such\s+as|including|"
    # "we compare (X's savings) with Y", "we mainly compare against Y"
    r"compare\s+(?:[^.;:\n]{0,60}?\s)?(?:with|against))\s+"
    r"|相比于?|相较于?|与|优于|对比",
    re.I,
)
_LIST_AFTER = re.compile(r"[^.;!?。；\n]{0,160}")
#: At most this many compared names are kept for a document (a survey names hundreds).
MAX_COMPARED = 40
# A web address or a path: a name written in lower case inside one ("github.com/org/foosched") is its
# repository's spelling, not the same word used as an ordinary one.
_ADDRESS = re.compile(r"\S*(?:://|www\.|/)\S*")


def _without_addresses(text: str) -> str:
    """The text scanned for ordinary words: its head, web addresses and paths blanked."""
    return _ADDRESS.sub(" ", text[:PROPOSAL_SCAN_CHARS])


def _written_in_lower_case(words: str, low: str) -> bool:
    """Whether ``words`` (a text, or :func:`_without_addresses`) use ``low`` as an ordinary lower-case word."""
    return re.search(rf"(?<![A-Za-z]){re.escape(low)}(?![A-Za-z])", words) is not None


def compared_systems(text: str, lang: str, own: list[str], known: list[Mention]) -> list[str]:
    """Names the paper compares its own system with, from the phrases after comparison words anywhere in
    the text ("than FooSched", "compared to A, B and C", "与X相比"): distinctive names (a capital or digit
    after the first letter, "vPipe", "GPipe") or names the text repeats, not its own, not generic words,
    not names already known (the gazetteer types those)."""
    own_lower = {n.lower() for n in own}
    known_lower = {m.text.lower() for m in known}
    cjk = lang in ("zh", "ja", "ko")
    found: dict[str, None] = {}
    words = ""
    for anchor in _COMPARISON_ANCHOR.finditer(text):
        tail = _LIST_AFTER.match(text, anchor.end())
        if tail is None:
            continue
        for name, _ in islice(names_in(text, anchor.end(), tail.end(), cjk, split=known_lower), 6):
            low = name.lower()
            if low in own_lower or low in known_lower or low in found or not acceptable(name):
                continue
            if not (cjk or _DISTINCTIVE.search(name, 1)) and text.count(name) < 3:
                continue
            if not cjk and _written_in_lower_case(words or (words := _without_addresses(text)), low):
                continue  # an ordinary word written in lower case elsewhere ("Training" / "training")
            found[name] = None
            if len(found) >= MAX_COMPARED:
                return list(found)
    return list(found)
