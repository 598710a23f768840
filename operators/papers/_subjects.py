"""A claim's subject: the system its number is about.

The rules (``subject_by_rules``) take, in order, the paper's own system named nearest before the number,
another system that is the topic or the grammatical subject of the claim's clause, the paper's main system,
the nearest name; a system is never its own baseline (``not_its_own_baseline``) and a pronoun opening a
later clause continues the subject before it (``continue_subjects``). Where the sentence leaves the subject
in doubt, the dependency parse decides (``doubts`` collects those sentences, ``decide_by_parse`` applies
the parse). A module of its own because these rules decide one field, apart from the baseline's.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from assay.operators.papers._baselines import inside, name_key
from assay.operators.papers._claims import Claim
from assay.operators.papers._mentions import COUNT_SOURCE, Mention, MentionIndex
from assay.operators.papers._parse import Parser, doubtful, subject_from_parse
from assay.operators.papers._sections import section_kind
from assay.operators.papers._title_names import _NAME, acceptable

#: Sentences parsed per document at most: a text of thousands of doubtful claims is a dump, not prose.
MAX_PARSES = 200


def subject_by_rules(
    claim: Claim,
    sentence: tuple[int, int],
    mentions: MentionIndex,
    proposed: set[str],
    primary: str | None,
    text: str = "",
) -> tuple[str | None, str | None, bool]:
    """The subject by the rules, how it was found, and whether another system is named before the number
    (a rival the rules may have passed over).

    In order: the paper's own system named nearest before the number (``proposed``); another system that
    is the topic or the grammatical subject of the claim's clause ("In FooPipe, the waste exceeds 40%",
    "FooPipe reaches 1.4x", ``topic``) when no own system or self-reference ("we", "our system") stands
    between it and the number; else the paper's main system (``primary``: a result of the paper is about
    its own system unless the clause names another); else the nearest name (``nearest``)."""
    before = [
        m
        for m in mentions.inside(sentence[0], claim.start)
        # A name the built-in list calls a method (ZeRO, FlashAttention) is a subject as much as a system.
        if m.type in ("system", "method") and not inside(m, claim.versus_span)
    ]
    label = _line_label(text, sentence[0], claim.start) if text else None
    if label:
        # a labelled line ("SwiftInfer: ... 46%") starts its own statement: names on the lines before are not
        # its subject
        before = [m for m in before if m.start >= label[1]]
    rival = any(m.name.lower() not in proposed for m in before)
    for m in reversed(before):
        if m.name.lower() in proposed:
            if m.name != primary and _HOST_BEFORE.search(text, sentence[0], m.start):
                continue  # "we implement our approach in X": X hosts the paper's system, it is not measured
            return m.name, "proposed", rival
        if text and clause_topic(text, m, sentence[0], claim.start):
            return m.name, "topic", rival
    earlier = _earlier_version(claim, mentions, text)
    if earlier:
        return earlier, "version", rival
    if label:
        return label[0], "topic", rival
    heading = _heading_name(text, claim.start, mentions) if text else None
    if heading:
        return heading, "topic", rival
    owner = _measure_owner(text, sentence[0], claim) if text else None
    if owner:
        return owner, "topic", rival
    if primary:
        return primary, "primary", rival
    return (before[-1].name, "nearest", rival) if before else (None, None, rival)


# A line that a name labels, after a list marker: "- [FooLib](https://...): ... 46%", "* **FooLib**: ...", "FooLib：...".
# A README's or a blog's list of systems states each one's result on its own line.
_LINE_LABEL = re.compile(
    r"(?:^|\n)[ \t]*(?:[-*•+][ \t]+)?(?:\*\*|\[)?(?P<n>(?:[A-Z]|[a-z]+[A-Z])[\w.+-]*)(?:\*\*|\]\([^)\s]*\))?[ \t]*[:：]"
    # a list item's label of a few words, the first a name, a link's text or not ("- [FooFold with Intel](https://
    # ...): 3x faster", read "• FooFold with Intel: 3x faster")
    r"|(?:^|\n)[ \t]*[-*•+][ \t]+\[?(?P<l>(?:[A-Z]|[a-z]+[A-Z])[\w.+-]*(?:[ \t]+[\w.+-]+){1,3})\]?(?:\([^)\s]*\))?[ \t]*[:：]"
)
# A label distinctive enough to be a name: a capital or a digit after its first letter ("SwiftInfer", "Grok-1").
_DISTINCT = re.compile(r".[\w.+-]*[A-Z0-9]")


def _line_label(text: str, lo: int, claim_start: int) -> tuple[str, int] | None:
    """The name labelling the line of the claim ("SwiftInfer: ... 46%"), when it is distinctive and no
    clause break stands between the label and the number on that line; with the end of the label."""
    line = text.rfind("\n", 0, claim_start) + 1
    found = _LINE_LABEL.match(text, line - 1 if line else 0)
    start = found.start("n" if found.group("n") else "l") if found else 0
    if not found or start < lo - 200 or text.find("\n", found.end(), claim_start) >= 0:
        return None
    name = found.group("n") or found.group("l")
    first = name.split()[0]
    if not (_DISTINCT.match(first) and acceptable(first)) or _TOPIC_BREAK.search(text, found.end(), claim_start):
        return None
    return name, found.end()


#: A heading as the readers leave it: a short line of its own between blank lines (Markdown's ``### FooChat``,
#: a LaTeX sub-heading), no list item, no sentence and no label in it.
_HEADING = re.compile(r"(?:\A|\n[ \t]*\n)[ \t]*(?P<h>[^\s•*\-+#>|\d][^\n:：。，,.;!?|]{0,58}?)[ \t]*\n[ \t]*\n")
_HEADING_REACH = 4000
#: A document's parts that ``section_kind`` does not name, written in capitals as a heading (``OVERVIEW``): no name.
_OTHER_PARTS = {"motivation", "design", "implementation", "overview", "faq", "news"}


def _heading_name(text: str, claim_start: int, mentions: MentionIndex) -> str | None:
    """The name the heading over a claim is, when that heading is only a distinctive name (``FooChat``,
    ``Foo-Inference``): the component a README's or a report's section presents, whose results its lines
    state. The nearest heading decides: one that is no name ("Performance") gives none, nor does a model, a
    chip or a dataset the section trains or runs on ("GPT-2", "ViT": the system's results on it)."""
    found = list(_HEADING.finditer(text, max(0, claim_start - _HEADING_REACH), claim_start))
    if not found:
        return None
    last = found[-1]
    name = last.group("h").strip("*` ")
    if " " in name or section_kind(name) or name.lower() in _OTHER_PARTS or not (
        _DISTINCT.match(name) and acceptable(name)
    ):
        return None
    lo, hi = last.span("h")
    if any(m.type not in ("system", "method") for m in mentions.overlapping(lo, hi)):
        return None
    return name


# "the training throughput of FooSys is 2x that of X": the measure's owner heads the clause's subject.
_MEASURE_OF = re.compile(
    r"\b(?:performance|throughput|latency|speed|time|memory|cost|accuracy|utili[sz]ation|overhead|efficiency|"
    r"bandwidth|footprint|usage|consumption)\s+of\s+(?:the\s+)?(?P<n>[A-Z][\w+.-]*[\w+])\s+(?:is|are|was|were)\b"
)


def _measure_owner(text: str, lo: int, claim: Claim) -> str | None:
    """The name whose measure is the subject of the claim's clause ("the throughput of FooSys is 2x ..."), when
    nothing but the clause's own words stands between it and the number."""
    found = max(_MEASURE_OF.finditer(text, lo, claim.start), key=lambda m: m.start(), default=None)
    if found is None or _TOPIC_BREAK.search(text, found.end(), claim.start) or "," in text[found.end() : claim.start]:
        return None
    name = found.group("n")
    if not acceptable(name) or (claim.versus and name_key(name) == name_key(claim.versus)):
        return None
    return name


# A baseline that is an earlier version of a system ("than the previous FooLib release", "比之前的X版本"): the
# result is that system's, in its new version ("our new version is 12x longer than the previous X version").
_EARLIER = re.compile(
    rf"(?i:(?:(?:the|its|our)\s+)?(?:previous|prior|earlier|older|old|original|last)\s+(?:version\s+of\s+)?)"
    rf"(?P<n>{_NAME})?|(?:之前|以前|此前|原来|原有|旧|上一代?|老)的?\s*(?P<zh>{_NAME})?"
)


def _earlier_version(claim: Claim, mentions: MentionIndex, text: str) -> str | None:
    """The system whose earlier version is the claim's baseline (the one system named in it, or the name right
    after "previous"), or None."""
    found = claim.versus_span and text and _EARLIER.match(text, *claim.versus_span)
    if not found:
        return None
    named = [m for m in mentions.inside(*claim.versus_span) if m.type in ("system", "method")]
    if named:
        return named[0].name if len(named) == 1 else None
    name = found.group("n") or found.group("zh")
    return name if name and acceptable(name) else None


# Before a name: a word that makes it a setting, a baseline or a part of the paper's system, not what the
# clause is about ("on Megatron-LM", "than X", "与X", "its AllReduce").
_NOT_TOPIC_BEFORE = re.compile(
    r"(?:\b(?:on|atop|upon|using|with|via|into|from|of|over|than|to|against|versus|vs\.?|by|like|as|and|or|"
    r"outperforms?|outperformed|beats?|surpass(?:es|ed)?|exceeds?|unlike|including|such\s+as|"
    r"its|our|their)|"
    r"[与比和及、]|相比于?|相较于?|对比|基于|在)\s*(?:the\s+)?$",
    re.I,
)
# Before a name: what makes it the platform the paper's system is built in ("We implement our approach in
# DeepSpeed and achieve ...", "built on top of X", "integrated into X"), not the system a result is about.
_HOST_BEFORE = re.compile(
    r"\b(?:implement(?:s|ed)?|buil[dt]s?|integrat(?:e|es|ed)|prototyp(?:e|ed))\b[^.;:,]{0,40}?"
    r"\b(?:in|into|on|atop|on\s+top\s+of|inside|within)\s+(?:the\s+)?$",
    re.I,
)
# Between a rival's name and the number: a self-reference hands the clause back to the paper's system.
_SELF_WORDS = re.compile(r"\b(?:we|our|ours|us|this\s+(?:paper|work))\b|本文|我们", re.I)
# A clause boundary between the name and the number ("In X, ... ; ours ...").
_TOPIC_BREAK = re.compile(r"[;；。]|\b(?:while|whereas|but)\b|[，,]\s*(?:而|但)", re.I)


# A second verb of the same subject after "but" or "while" ("X improves A, but degrades B by 40%"): no new clause.
_SAME_SUBJECT_GOES_ON = re.compile(
    r"\b(?:but|yet|while)\s+(?:also\s+|still\s+)?(?:increases?|decreases?|reduces?|improves?|degrades?|drops?|"
    r"falls?|rises?|grows?|slows?|achieves?|reaches|delivers?|incurs?|suffers?|loses?|gains?|lags?|trails?)\b",
    re.I,
)
# What may stand just before a clause's subject: the sentence start, a comma, a clause word.
_CLAUSE_OPENS = re.compile(
    r"(?:^|[,，:：;；]|\b(?:that|which|when|whereas|while|and|but|yet|so)|而|但|但是|同时|并且)$", re.I
)
# What follows a subject: its verb (perhaps after a possessive, a parenthesis or an adverb), or in
# Chinese a place or adverb before the verb ("X 在 A100 上为", "X 分别仅实现").
_VERB_AFTER = re.compile(
    # a possessive's measure before the verb: "X's throughput drops", "X's peak memory is"
    r"(?:[’'`]s\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?=\w+\s*(?:by|to|from|is|are|was)\b))?"
    r"[’'`]?s?\s*(?:\([^)]{0,40}\)\s*)?(?:\w+ly\s+)?(?:is|are|was|were|has|have|had|can|could|does|did|only|"
    r"still|also|achieves?|achieved|reaches|reached|attains?|delivers?|provides?|offers?|gets?|shows?|runs?|"
    r"takes?|spends?|uses?|incurs?|increases?|reduces?|improves?|drops?|falls?|needs?|requires?|sees?|"
    r"suffers?|yields?|in\b|on\b|的|在|仅|分别|只|可|能|实现|达到|为|[a-z]{3,}(?:s|ed)\b)"
)


# A determiner and up to two modifiers before a name ("The baseline", "the existing", "这个新"), and the kind of
# system after it ("planner", "框架"): the name heads the noun phrase, which may be the clause's subject.
_DETERMINED = re.compile(
    r"(?:\b(?:the|this|that|these|those)(?:\s+[a-z][\w-]*){0,2}|(?:这个|这一|该|此)?(?:新的?|原有的?|现有的?|默认的?))\s*$",
    re.I,
)
# One or two words opening a sentence before a name: an adjective or adverb, or "we" with a verb that takes a
# clause ("We find X uses 40% more": X is the clause's subject; "We run X on ..." takes X as its object).
_OPENING_WORDS = re.compile(
    r"^\s*(?:(?:we|i|they)\s+(?:find|found|observe[d]?|see|saw|note[d]?|notice[d]?|show(?:ed)?)|"
    r"(?!(?:we|i|they|our|its|their)\b)[A-Za-z][\w-]*)\s+$",
    re.I,
)
_KIND_AFTER = re.compile(
    r"\s*(?:system|framework|library|runtime|engine|scheduler|planner|allocator|tracer|profiler|server|"
    r"compiler|kernel|implementation|baseline|version|release|框架|系统|库|引擎|版本)s?(?![\w-])",
    re.I,
)


def clause_topic(text: str, m: Mention, lo: int, claim_start: int) -> bool:
    """Whether ``m`` is what the clause holding the number is about: its subject or topic, not a setting or a
    baseline named on the way."""
    if _NOT_TOPIC_BEFORE.search(text, max(lo, m.start - 20), m.start):
        return False
    between = _SAME_SUBJECT_GOES_ON.sub(" ", text[m.end : claim_start])
    if _SELF_WORDS.search(between) or _TOPIC_BREAK.search(between):
        return False
    lead = text[max(lo, m.start - 30) : m.start]
    # "In X, ...": a topic set off by a comma; otherwise the name must open its clause (sentence start,
    # after a comma or a clause word) and be followed by its verb.
    if re.search(
        r"(?:^|[,，;；]\s*|\b(?:and|but|yet|so|thus|hence|while|whereas)\s+)in\s*$", lead, re.I
    ):
        return re.match(r"\s*[,，]", text[m.end : m.end + 3]) is not None
    # A noun phrase headed by the name opens the clause: "The baseline Stoat reaches ...", "the existing Plover
    # planner leaves ...", "这个新X框架也超过了 ...": its determiner and modifiers before it, its kind after it.
    lead = _DETERMINED.sub("", lead)
    if m.start - lo <= 30:
        # at the sentence's start: a bare modifier ("Vanilla X reaches", "Even X needs") or a clause-taking
        # verb's subject ("We find X uses ...") before the name
        lead = _OPENING_WORDS.sub("", lead)
    if lead.strip() and not _CLAUSE_OPENS.search(lead.rstrip()):
        return False
    kind = _KIND_AFTER.match(text, m.end, m.end + 30)
    return _VERB_AFTER.match(text, kind.end() if kind else m.end, m.end + 40) is not None


def not_its_own_baseline(claim: Claim, mentions: MentionIndex, primary: str | None) -> None:
    """A system is never its own baseline: when the subject names the baseline ("the batches GPipe reaches
    are 68% of those ZeRO reaches" with ZeRO taken for both), the subject is the paper's system, else the
    other system named before the number, else unknown."""
    if not (claim.subject and claim.versus) or name_key(claim.subject) != name_key(claim.versus):
        return
    if primary and name_key(primary) != name_key(claim.versus):
        claim.subject, claim.subject_source = primary, "primary"
        return
    lo = claim.sentence[0] if claim.sentence else claim.start
    for m in reversed(mentions.inside(lo, claim.start)):
        if m.type in ("system", "method") and name_key(m.name) != name_key(claim.versus):
            claim.subject, claim.subject_source = m.name, "nearest"
            return
    claim.subject, claim.subject_source = None, None


def continue_subjects(text: str, claims: list[Claim], own: set[str]) -> None:
    """A pronoun opening a later clause of the sentence continues the subject of the claim before it when
    that subject is another system ("FooSched is 1.4x faster on small jobs, but its speed drops to 20% on
    large ones": its = FooSched), which the paper-level prior (and the parse, which reads "its" as the
    paper's system) would give to the paper's system."""
    for previous, claim in zip(claims, claims[1:], strict=False):
        if (
            previous.sentence == claim.sentence
            and previous.subject
            and previous.subject_source in ("topic", "parse")
            and previous.subject.lower() not in own
            and claim.subject_source in ("primary", "parse")
            and claim.subject is not None
            and claim.subject.lower() in own
            and _PRONOUN_SUBJECT.search(text, previous.end, claim.start)
            and not _SELF_WORDS.search(text, previous.end, claim.start)
        ):
            claim.subject, claim.subject_source = previous.subject, previous.subject_source


# A pronoun opening a clause, after a comma or a conjunction: it continues the subject before it.
_PRONOUN_SUBJECT = re.compile(r"(?:[,;]\s*|\b(?:and|but|yet|while|so)\s+)(?:it|its|they|their)\b", re.I)


@dataclass
class Doubt:
    """A sentence to parse and the claims of it whose subject the parse decides."""

    sentence: str
    primary: str | None
    # (claim, its offset in the sentence, the names' (start, end, name, is_system) spans in the sentence)
    claims: list[tuple[Claim, int, list[tuple[int, int, str, bool]]]]


def doubts(text: str, claims: list[Claim], mentions: MentionIndex, names: list[str]) -> list[Doubt]:
    """The sentences of a document whose claims' subjects the rules leave in doubt (``MAX_PARSES`` at most).
    ``names``: the paper's own systems, most likely first."""
    primary = names[0] if names else None
    baselines = sorted(c.versus_span for c in claims if c.versus_span)
    baseline_starts = [b[0] for b in baselines]
    parsed: dict[tuple[int, int], Doubt] = {}
    kept: Claim | None = None
    for claim in claims:
        if claim.subject_source in ("comparand", "component", "passive"):
            # the figure of the system a comparison names ("3% vs 85%"), a passive's agent ("outperformed by B by
            # 1.05x"): no subject in doubt
            continue
        lo, hi = claim.sentence or (claim.start, claim.end)
        if claim.subject_source == "proposed" and (
            _own_opens_clause(text, claim, mentions, lo)
            or (
                kept is not None
                and kept.sentence == claim.sentence
                and kept.subject == claim.subject
                and _SECOND_OBJECT.fullmatch(text, kept.end, claim.start) is not None
            )
        ):
            # "..., FooSys uses 12% more time but 21% less energy": the paper's system is the clause's own
            # subject, and of the number coordinated after it
            kept = claim
            continue
        near = baselines[bisect.bisect_left(baseline_starts, lo) : bisect.bisect_left(baseline_starts, hi)]
        # Another system named before the number, not as a baseline ("than GPipe and 1.4x over X").
        others = [
            m.name
            for m in mentions.inside(lo, claim.start)
            if m.type in ("system", "method")
            and m.name not in names
            and not any(inside(m, span) for span in near)
        ]
        if not doubtful(text[lo : claim.start], others):
            continue
        if (lo, hi) not in parsed:
            if len(parsed) >= MAX_PARSES:
                break
            parsed[(lo, hi)] = Doubt(text[lo:hi], primary, [])
        spans = [
            (m.start - lo, m.end - lo, m.name, m.type in ("system", "method"))
            for m in mentions.inside(lo, hi)
            # A model or dataset is the workload of a result, not what achieved it ("ResNet-50 trains 1.9x
            # faster" with the paper's system).
            if m.source != COUNT_SOURCE and m.type not in ("model", "dataset")
        ]
        parsed[(lo, hi)].claims.append((claim, claim.start - lo, spans))
    return list(parsed.values())


# Between two numbers of one verb: the first one's words, a conjunction, no new verb ("12% more time but 21% less").
_SECOND_OBJECT = re.compile(r"[^\W\d]*(?:[ \t-]+[^\W\d]+){0,3}\s+(?:and|but|or|yet)\s+", re.I)


def _own_opens_clause(text: str, claim: Claim, mentions: MentionIndex, lo: int) -> bool:
    """Whether the paper's system the rules chose opens the clause holding the number as its grammatical
    subject ("Training X on Y, FooSys uses 12% more time"): its verb follows it and no comma or clause word
    stands between it and the number, so words before the clause (a participle's object) are no rival."""
    own = [m for m in mentions.inside(lo, claim.start) if m.name == claim.subject]
    if not own:
        return False
    m = own[-1]
    return not re.search(r"[,;:，；]", text[m.end : claim.start]) and clause_topic(text, m, lo, claim.start)


def decide_by_parse(doubts: list[Doubt], parse: Parser) -> None:
    texts = [d.sentence for d in doubts]
    pipe = getattr(parse, "pipe", None)
    docs = pipe(texts, batch_size=256) if pipe is not None else map(parse, texts)
    for doubt, doc in zip(doubts, docs, strict=True):
        for claim, offset, spans in doubt.claims:
            subject = subject_from_parse(doc, offset, spans, doubt.primary)
            if subject:
                claim.subject, claim.subject_source = subject, "parse"
