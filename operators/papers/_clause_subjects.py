"""The grammatical subject of a claim's clause, read as words, for a text that presents no system of its own and
names none in the clause: a measurement study's "Spot instances are on average 70% cheaper than ...", "On
average, preemptible nodes run 2.5x longer ...". The noun phrase before the clause's verb is what the number is
about; a pronoun ("we", "it") or a measure ("the overall utilization") is no subject, and none is given."""

from __future__ import annotations

import re

from assay.operators.papers._gazetteer import generic_names
from assay.operators.papers._mentions import Mention, MentionIndex
from assay.operators.papers._subjects import clause_topic
from assay.operators.papers._title_names import _NAME, acceptable

# A sentence's opening adverbial, set off by a comma ("On average,", "Across regions,", "However,").
_OPENER = re.compile(r"^\s*(?:(?:[A-Z][a-z]*|[a-z]+)(?:\s+[\w-]+){0,7}?,\s+)?")
# A list item's mark before the clause ("• ", "- ", "* ", "1. ").
_LIST_MARK = re.compile(r"^\s*(?:[•·▪◦‣*+-]|\d{1,2}[.)])\s+")
# The determiner a subject may start with.
_DETERMINER = re.compile(r"^(?:the|a|an|these|those|such)\s+", re.I)
# The clause's verb after its subject: an auxiliary, a copula, or a verb of a result.
_VERB = re.compile(
    r"\s+(?:is|are|was|were|has|have|had|can|could|will|would|may|might|do|does|did|remain|remains|stay|stays|"
    r"results?\s+in|leads?\s+to|achieves?|reach(?:es)?|reduces?|improves?|cuts?|costs?|runs?|takes?|uses?|needs?|delivers?|outperforms?|"
    r"lowers?|raises?|increases?|decreases?|drops?|falls?|grows?|rises?|saves?|spends?|consumes?|incurs?|"
    r"exceeds?|sustains?|keeps?|yields?|gives?|provides?|attains?|obtains?|trains?|serves?|scales?)\b"
)
# Any other verb of the clause, by its shape: a third person's present or a past ("completes", "finishes",
# "beats", "handled"), the first such word after the phrase (a result's verb is not a closed list).
_VERB_SHAPE = re.compile(r"\s+(?:[a-z]{2,}(?:es|[^s\W]s)|[a-z]{3,}ed)\b")
# Words that make the phrase no subject: a pronoun, a self-reference, a measure or a number.
_NOT_SUBJECT = re.compile(
    r"^(?:we|it|its|they|their|this|that|there|our|us|i|he|she)\b|\d|"
    # a subordinate clause's opening word: "where each node has 8 GPUs", "if we double ...", not the main clause
    r"^(?:where|when|whenever|if|while|whereas|although|though|because|since|once|unless|which|who)\b|"
    # an object pronoun or an infinitive's "to" inside: a verb phrase ran on ("FooSys enables us to cut ...")
    r"\b(?:us|them|you|me|him)\b|\bto$|"
    r"\b(?:utili[sz]ation|throughput|latency|speedup|time|cost|overhead|memory|performance|efficiency|accuracy|"
    r"improvement|reduction|result|results|figure|table)s?$",
    re.I,
)


def clause_subject(text: str, lo: int, claim_start: int) -> str | None:
    """The noun phrase opening the clause that ends at ``claim_start`` (from ``lo``, the sentence's start, or
    the last ';' before the number), when a verb follows it within five words; None otherwise."""
    span = text[lo:claim_start]
    cut = span.rfind(";")
    span = span[cut + 1 :] if cut >= 0 else span
    span = _LIST_MARK.sub("", span)  # a list item's bullet ("• The cost ...") is no word of the clause
    start = _OPENER.match(span)
    rest = span[start.end() if start else 0 :]
    verb = _VERB.search(rest) or _VERB_SHAPE.search(rest)
    if not verb:
        return None
    phrase = _DETERMINER.sub("", " ".join(rest[: verb.start()].split()))
    words = phrase.split()
    if not 1 <= len(words) <= 5 or _NOT_SUBJECT.search(phrase) or "," in phrase:
        return None
    if len(words) == 1 and phrase.lower() in generic_names():
        return None  # "TTFT drops by 24%": a measure written as an acronym, not what is measured
    return phrase


# A verb that makes its subject the cause of the change the number measures: "X results in a 3% increase ...",
# "X leads to 2x lower ...".
_CAUSE = re.compile(r"\b(?:results?|resulted|resulting)\s+in\b|\b(?:leads?|led)\s+to\b", re.I)
# Where the cause's clause opens: "show that", a relative word, a comma, a semicolon, the sentence's start.
_CLAUSE_OPEN = re.compile(r"(?:^|[,;:]|\b(?:that|which|whereas|while|but))\s+", re.I)
# A phrase that names a measure, a number or a pronoun, never a component: "the overhead results in ...".
_NO_COMPONENT = re.compile(
    r"^(?:we|it|its|they|their|this|that|these|those|there|our|us|which|what)\b|\d|[()]|"
    r"\b(?:utili[sz]ation|throughput|latency|speedup|time|cost|overhead|memory|performance|efficiency|accuracy|"
    r"improvement|reduction|increase|decrease|result|results|change|difference|figure|table|measurements?)s?$",
    re.I,
)


# A bracketed aside after the cause ("(Opt. in Figure 1)") and a modal before its verb ("can lead to").
_ASIDE = re.compile(r"\s*\([^()]{0,60}\)")
_MODAL = re.compile(
    r"\s+(?:can|could|may|might|will|would|should|does|did|do)(?:\s+(?:also|further|even|still))?\s*$"
)


def cause_phrase(text: str, lo: int, claim_start: int) -> str | None:
    """The noun phrase that a causal verb ("results in", "leads to") makes the cause of the change the number
    measures, when it opens its clause (after "that", a comma, the sentence's start) and no clause break
    stands between the verb and the number: "... show that eager flushing results in a 0.4% increase in
    time" -> "eager flushing". One to four words, no pronoun, measure or number."""
    span = text[lo:claim_start]
    cause = max(_CAUSE.finditer(span), key=lambda m: m.start(), default=None)
    if cause is None or re.search(r"[;:]|,\s|\b(?:while|whereas|but)\b", span[cause.end() :]):
        return None
    # "X (Opt. in Figure 1) can lead to": a bracketed aside and a modal are no part of the phrase
    head = _MODAL.sub("", _ASIDE.sub("", span[: cause.start()]))
    opens = list(_CLAUSE_OPEN.finditer(head))
    phrase = head[opens[-1].end() :] if opens else head
    phrase = _DETERMINER.sub("", " ".join(phrase.split()))
    words = phrase.split()
    if not 1 <= len(words) <= 4 or _NO_COMPONENT.search(phrase):
        return None
    return phrase


# A verb by which a technique acts on what the number measures: "X cuts the bubble time by 31%", "X provides
# memory savings of 18%". Transitive only: "the waste ratio decreases by 10%" is a measure changing, no cause.
_ACTING_VERB = re.compile(
    r"\b(?:reduc|cut|lower|improv|boost|shorten|accelerat|speed|sav|eliminat|remov|hid|halv|doubl|provid|"
    r"bring|yield|deliver|trim|shrink|increas|rais|decreas)(?:es|s|ed|e)?(?:\s+up)?\b",
    re.I,
)
# Adverbs and a modal between the technique and its verb ("X thus cuts", "X can further reduce").
_BETWEEN = re.compile(
    r"(?:\s+(?:thus|therefore|indeed|further|also|still|alone|significantly|effectively|substantially|greatly|"
    r"consistently|only|even|can|could|may|might|will|would|does|did))+\s*$",
    re.I,
)
# What the verb acts on, up to the number: a few words of object and the preposition or noun before the number,
# with no clause break and no comparison (a compared system is the baseline rules' business).
_ACTED_ON = re.compile(
    r"\s+(?!by\b|to\b|from\b)[\w-]+(?:\s+[\w'’-]+){0,5}?\s+(?:by|of)(?:\s+(?:up\s+to|about|nearly|almost|"
    r"around|roughly|over|more\s+than|at\s+least|as\s+much\s+as))?\s*$|"
    r"\s+[\w-]+(?:\s+[\w-]+){0,2}\s+by\s+(?:up\s+to\s+)?$",
    re.I,
)
# A bound the number is stated with ("by more than 18%"), no comparison.
_BOUND = re.compile(
    r"\s+(?:up\s+to|about|nearly|almost|around|roughly|over|more\s+than|less\s+than|at\s+least|as\s+much\s+as)\s*$",
    re.I,
)
# A verb stating a level, right before the number: "X achieves 4x higher throughput than Y".
_LEVEL_VERB = re.compile(r"\b(?:achiev|deliver|reach|attain|giv|show|yield|provid|offer)(?:es|s|ed|e)?\b", re.I)
# A comparative right after the number ("4x higher", "30% lower", "2x faster"), so the level compares.
_COMPARATIVE_AFTER = re.compile(
    r"\s*(?:higher|lower|faster|slower|more|less|better|fewer|smaller|larger|greater|shorter|longer)\b", re.I
)
# A head that is the paper's system itself or a workload, never a component of it.
_SELF_HEADS = frozenset(
    "system systems framework frameworks approach approaches method methods design designs implementation "
    "solution solutions scheme schemes prototype tool tools library libraries runtime engine platform baseline "
    "baselines model models job jobs workload workloads request requests user users task tasks gpu gpus node "
    "nodes application applications".split()
)
_QUANTIFIER = re.compile(r"^(?:each|every|all|most|some|many|both|few|several|any|no|one|two)\b", re.I)


def acting_phrase(text: str, lo: int, claim_start: int, claim_end: int | None = None) -> str | None:
    """The technique written in plain words that acts on what the number measures, opening the number's
    clause: "Stage folding thus cuts the bubble time by 31%" -> "stage folding", "Optimizer sharding
    provides memory savings of 18%" -> "optimizer sharding". One to five words, lower case past the first,
    none a pronoun, measure, number, the system itself or a workload; the verb takes an object before the
    number ("the waste ratio decreases by 10%" is a measure changing, not a technique acting)."""
    span = text[lo:claim_start]
    verbs = [m for m in _ACTING_VERB.finditer(span) if _ACTED_ON.fullmatch(span, m.end())]
    if claim_end is not None and _COMPARATIVE_AFTER.match(text, claim_end):
        # "the text stage achieves 4x higher throughput than the audio stage": a level verb, the number and
        # a comparative after it
        verbs += [m for m in _LEVEL_VERB.finditer(span) if _BOUND.sub("", span[m.end() :]).strip() == ""]
        verbs.sort(key=lambda m: m.start())
    if not verbs:
        return None
    verb = verbs[-1]
    acted_on = _BOUND.sub("", span[verb.end() :])
    if re.search(r"[;:]|,\s|\b(?:than|compared|relative|over|versus|vs)\b", acted_on, re.I):
        return None
    # "the energy-optimal schedule (Figure 3b) reduces ...": a bracketed aside is no part of the phrase
    head = _BETWEEN.sub("", _ASIDE.sub("", span[: verb.start()]))
    opens = list(_CLAUSE_OPEN.finditer(head))
    phrase = head[opens[-1].end() :] if opens else head
    at_start = not opens or opens[-1].start() == 0 and not head[: opens[-1].end()].strip()
    # ", and it cuts ...": the coordinator opens the clause; what follows is its subject
    phrase = re.sub(r"^(?:and|or|but|then|so|yet)(?:\s+|$)", "", " ".join(phrase.split()), flags=re.I)
    phrase = _DETERMINER.sub("", phrase)
    words = phrase.split()  # none left: a verb coordinated with the clause before ("..., and reduces ..."), its subject
    if not 1 <= len(words) <= 5 or _NO_COMPONENT.search(phrase) or _QUANTIFIER.match(phrase):
        return None
    if words[-1].lower() in _SELF_HEADS or any(re.search(r"[A-Z]", w) for w in words[1:]):
        return None
    if re.search(r"[A-Z]", words[0]) and not (at_start and re.fullmatch(r"[A-Z][a-z-]+", words[0])):
        return None  # a capital past a clause's first word is a name, which the name rules read
    return phrase[0].lower() + phrase[1:] if re.fullmatch(r"[A-Z][a-z-]+", words[0]) else phrase


# A sentence that opens by naming what it is set against ("Compared to full copies, ...").
_AGAINST_OPENER = re.compile(
    r"\s*(?:compared\s+(?:to|with)|relative\s+to|in\s+comparison\s+(?:to|with))\s+[^,;:()]{1,60},\s+", re.I
)
# A verb of change after the clause's subject: "... delta copying reduces stall time by 2x".
_CHANGE_VERB = re.compile(
    r"\s+(?:(?:can|could|may|will|would)\s+)?(?:increases?|reduces?|improves?|cuts?|lowers?|raises?|"
    r"decreases?|boosts?|shortens?|accelerates?|speeds?\s+up)\b",
    re.I,
)


def compared_subject(text: str, lo: int, claim_start: int) -> tuple[str, int, int] | None:
    """The noun phrase that a verb of change follows in a sentence opening with what it is compared to:
    "Compared to full copies, delta copying reduces stall time by 2x" -> "delta copying", with its offsets.
    One to five words, no pronoun, measure, number or comma."""
    span = text[lo:claim_start]
    opener = _AGAINST_OPENER.match(span)
    if not opener:
        return None
    verb = _CHANGE_VERB.search(span, opener.end())
    if not verb:
        return None
    raw = span[opener.end() : verb.start()]
    phrase = _DETERMINER.sub("", " ".join(raw.split()))
    if not 1 <= len(phrase.split()) <= 5 or "," in phrase or _NO_COMPONENT.search(phrase):
        return None
    start = lo + opener.end() + raw.find(phrase.split()[0])
    return phrase, start, lo + opener.end() + len(raw.rstrip())


# A name written with a capital inside it ("LatencyBudget", "FooNet", "vLLM"): a coined name, not a word.
_COINED = re.compile(rf"(?<![\w-])(?=[\w-]*[a-z][\w-]*[A-Z]|[A-Z][a-z]+[A-Z])(?P<n>{_NAME})(?![\w-])")

# A name and a comma just before: the pair ends a longer list ("over A, B, C and D").
_LISTED_BEFORE = re.compile(rf"(?<![\w-]){_NAME},\s*$")
# Two names joined by "and"/"or" ("Greedy and LatencyBudget"), one of them coined.
_PAIR = re.compile(rf"(?<![\w-])(?:both\s+|either\s+)?(?P<pair>(?P<a>{_NAME})\s+(?:and|or)\s+(?P<b>{_NAME}))(?![\w-])")


def unknown_topic(text: str, lo: int, claim_start: int, mentions: MentionIndex) -> str | None:
    """A coined name that no list knows, which opens the clause holding the number as its subject ("both
    Greedy and LatencyBudget reduce latency by 11%" -> LatencyBudget; "FooCache cuts stalls by 30%"): the
    clause is about that system, not the paper's own. Not a name any list types as something else (a model, a
    device)."""
    for m in _PAIR.finditer(text, lo, claim_start):
        # "both Greedy and LatencyBudget reduce ...": the two together are the clause's subject (not the tail
        # of a longer list: "over A, B, C and D is ...")
        if _LISTED_BEFORE.search(text, max(lo, m.start() - 40), m.start()):
            continue
        pair = m.group("pair")
        coined = any(_COINED.fullmatch(m.group(k)) for k in ("a", "b"))
        if coined and not other_kind(mentions, m.start("pair"), m.end("pair")) and clause_topic(
            text, Mention(m.start(), m.end(), pair, "system", pair, 0.5, "rule"), lo, claim_start
        ):
            return pair
    for m in _COINED.finditer(text, lo, claim_start):
        name = m.group("n")
        if not acceptable(name) or other_kind(mentions, m.start(), m.end()):
            continue
        if clause_topic(text, Mention(m.start(), m.end(), name, "system", name, 0.5, "rule"), lo, claim_start):
            return name
    return None


def other_kind(mentions: MentionIndex, start: int, end: int) -> bool:
    return any(m.type not in ("system", "method") for m in mentions.overlapping(start, end))


# A gerund that takes a component away ("Removing frequency scaling results in ...") or puts it in ("Enabling
# the cache cuts ...").
_TAKEN_AWAY = re.compile(r"^(?:removing|dropping|disabling|omitting|excluding|turning\s+off|switching\s+off)\s+", re.I)
_PUT_IN = re.compile(r"^(?:using|enabling|adding|applying|turning\s+on|switching\s+on)\s+", re.I)


def configuration(system: str, phrase: str) -> str:
    """The run a component phrase makes of ``system`` (D2): "<system> with <component>", or "<system> without
    <component>" when the phrase takes it away ("removing frequency scaling" -> "FooSys without frequency
    scaling")."""
    away = _TAKEN_AWAY.match(phrase)
    if away:
        return f"{system} without {_DETERMINER.sub('', phrase[away.end():])}"
    put = _PUT_IN.match(phrase)
    return f"{system} with {_DETERMINER.sub('', phrase[put.end():]) if put else phrase}"



# A clause whose subject is a measure of a named system: "the iteration time with Blocking is 10.1% higher than
# ...", "Ring's probability is 25% lower than that of FooSys" (the name, not the paper's own system, is measured).
_MEASURE_WITH = re.compile(
    r"(?:^|[,;]\s+)(?:the\s+)?(?:[a-z][\w-]*\s+){1,3}(?:with|under|using)\s+(?P<n>[A-Z][A-Za-z+-]*(?:\s+[A-Z][A-Za-z+-]*)?)"
    r"\s+(?:is|are|was|were|becomes|became)\b[^,;]*$"
)
_POSSESSED_MEASURE = re.compile(
    r"(?:^|[,;]\s+)(?P<n>[A-Z][A-Za-z+-]*(?:\s+[A-Z][A-Za-z+-]*)?)['’]s\s+(?:[a-z][\w-]*\s+){1,3}(?:is|are|was|were)\b[^,;]*$"
)


def measured_owner(text: str, lo: int, claim_start: int) -> str | None:
    """The system a clause measures when its subject is a measure of it ("the iteration time with Blocking is
    ...", "Ring's probability is ..."), before the number at ``claim_start``; None otherwise."""
    span = text[lo:claim_start]
    m = _MEASURE_WITH.search(span) or _POSSESSED_MEASURE.search(span)
    return m.group("n") if m else None
