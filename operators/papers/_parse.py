"""The subject of a claim from the trained pipeline's dependency parse of its sentence.

The rules name the proposed system nearest before a claim; that is wrong when the sentence says something
else did it ("Block-sparse X is 2.8x faster than X", "the baseline sustains 39 TFLOPs, 30% of peak", "DeepSpeed
reaches 1.5x over A, while ours reaches 2x"). Only such sentences are parsed -- those holding a claim where
another name, a baseline word or a relative clause stands before the number -- so a corpus of abstracts,
whose claims mostly follow their system's name, pays for few parses.

From the number, the parse is climbed to the verb governing it; its nominal subject (or, for a relative
clause, the noun the clause describes; for a coordinated verb, the first verb's subject) is the subject.
Pronouns and "our system"/"this work" resolve to the system the paper proposes. A subject that names no
system (a metric such as "throughput", "the model") leaves the decision to the rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

Parser = Callable[[str], "Doc"]
# What makes the rules' answer doubtful, besides another system's name before the number: a baseline word,
# or a relative clause right before it ("..., which is 30% of peak").
_DOUBT = re.compile(r"\bbaselines?\b|\b(?:which|that)\b[^,;:]{0,30}$", re.I)
_SELF = re.compile(
    r"^(?:we|us|it|its|this|our|ours|itself|本文|我们|该系统|该方法|this\s+(?:paper|work|system|approach))$",
    re.I,
)
_OWN = re.compile(r"\b(?:our|ours|its|this\s+(?:paper|work))\b", re.I)
_SUBJECTS = ("nsubj", "nsubjpass", "csubj", "expl")
_NOUN_POS = ("NOUN", "PROPN", "PRON", "NUM", "X")


def doubtful(before_claim: str, other_systems: Sequence[str]) -> bool:
    """Whether the words of a claim's sentence before it could make something else its subject: another
    system named there (``other_systems``), a baseline word, a relative clause leading to the number."""
    return bool(other_systems) or _DOUBT.search(before_claim) is not None


#: Pronouns that stand for the subject of an earlier clause of the sentence, whichever system it is.
_THIRD_PERSON = {"it", "its", "itself", "they", "their"}


def _earlier_subject(doc: Doc, pronoun, names: Sequence[tuple[int, int, str, bool]]) -> str | None:
    """The system named as the subject of a clause before ``pronoun`` in the sentence, the nearest such one."""
    for token in reversed(doc[: pronoun.i]):
        if token.dep_ not in _SUBJECTS:
            continue
        lo, hi = token.left_edge.idx, token.idx + len(token.text)
        named = [n for n in names if n[3] and lo <= n[0] and n[1] <= hi]
        if named:
            return named[-1][2]
    return None


#: Heads of a subject that name people, not a system: the names that modify them ("PyTorch users") say whose.
_PEOPLE = frozenset(
    "users user developers developer practitioners practitioner researchers researcher customers customer "
    "engineers engineer teams team operators administrators admins people".split()
)


def subject_from_parse(
    doc: Doc, claim_offset: int, names: Sequence[tuple[int, int, str, bool]], primary: str | None
) -> str | None:
    """The subject of the claim at ``claim_offset`` (a character offset into ``doc.text``): a name from
    ``names`` ((start, end, name, is_system) spans in ``doc.text``) inside the governing subject,
    ``primary`` for a pronoun or "our ...", a phrase naming a baseline, else None.

    A system's name anywhere in the subject counts ("the DeepSpeed baseline"); a model's or a device's
    only as the subject's head ("A100 reaches ...", not "the 8.3B GPT-2 style model reaches ...", which is
    the paper's own model)."""
    token = _token_at(doc, claim_offset)
    if token is None:
        return None
    subject = _governing_subject(token)
    if subject is None or _changed_measure(subject) or subject.lower_ in _PEOPLE:
        return None  # (nor "PyTorch users can enable X ...": people who use a system are none of its results)
    # The subject's noun phrase without the clauses hanging on it ("a baseline that sustains 39 TFLOPs").
    right = subject.i
    for child in subject.rights:
        if child.dep_ in ("relcl", "acl", "prep", "punct", "appos", "cc", "conj"):
            break
        right = child.right_edge.i
    phrase = doc[subject.left_edge.i : right + 1]
    lo, hi = phrase.start_char, phrase.end_char
    if hi > claim_offset:  # a subject after its number is a misparse of a coordination, not an inversion
        return None
    head = (subject.idx, subject.idx + len(subject.text))
    inside = [
        n for n in names if lo <= n[0] and n[1] <= hi and (n[3] or (n[0] <= head[0] and head[1] <= n[1]))
    ]
    if subject.lower_ in _THIRD_PERSON and (earlier := _earlier_subject(doc, subject, names)):
        return earlier  # "FooAttn is prone to stragglers, so it is 13% slower": "it" is FooAttn
    if _SELF.match(subject.text) or _OWN.search(phrase.text.split(",")[0]):
        return primary or (inside[0][2] if inside else None)
    owner = next((c for c in subject.children if c.dep_ == "poss"), None)
    if owner is not None:
        # "TetriServe's SAR is 32% higher": the head is a measure, its possessor the system
        owned = [n for n in inside if owner.left_edge.idx <= n[0] and n[1] <= owner.idx + len(owner.text)]
        inside = owned or inside
    if inside:
        # The name nearest the subject's head: "the DeepSpeed baseline" -> DeepSpeed.
        return min(inside, key=lambda n: abs(n[0] - subject.idx))[2]
    if subject.lower_ in ("baseline", "baselines"):
        return " ".join(t.text for t in phrase if t.pos_ not in ("DET", "PUNCT"))
    return None


# Verbs of a change in amount, as a passive participle: their passive subject is the quantity changed ("X is
# increased by 12%"); read from the word, since the parse gives no lemmas.
_CHANGED = re.compile(
    r"(?:increas|decreas|reduc|rais|lower|improv|degrad|slow|shorten|lengthen|inflat|extend|boost|"
    r"dropp|halv|doubl)ed|cut|grown|shrunk",
    re.I,
)


def _changed_measure(subject: Token) -> bool:
    """Whether ``subject`` is the passive subject of a verb of change ("for some jobs, the JCT is increased
    by 12%"): the quantity that changed, a measure, never the system whose result the number is."""
    return subject.dep_ == "nsubjpass" and _CHANGED.fullmatch(subject.head.text) is not None


def _token_at(doc: Doc, offset: int) -> Token | None:
    for token in doc:
        if token.idx <= offset < token.idx + len(token.text) or token.idx >= offset:
            return token
    return None


def _antecedent(noun: Token) -> Token | None:
    """The noun a relative clause describes, passing over quantities ("a baseline that sustains 39
    TFLOPs, which is 30% of peak": the baseline)."""
    for _ in range(6):
        if noun.pos_ in ("VERB", "AUX"):  # "X sustains 39 TFLOPs, which is ...": the verb's subject
            return next((c for c in noun.children if c.dep_ in _SUBJECTS), None)
        if not (noun.like_num or any(c.dep_ == "nummod" for c in noun.children)):
            return noun
        if noun.dep_ == "relcl" or noun.head is noun:
            return None
        noun = noun.head
        if noun.dep_ == "relcl" and noun.head.pos_ in _NOUN_POS:
            noun = noun.head
    return None


def _governing_subject(token: Token) -> Token | None:
    seen = 0
    node = token
    while seen < 12:
        seen += 1
        found = [c for c in node.children if c.dep_ in _SUBJECTS and c.pos_ in _NOUN_POS]
        if node.pos_ in ("VERB", "AUX") or node.dep_ == "ROOT":
            if found:
                subject = found[0]
                if subject.lower_ in ("which", "that", "who") and node.dep_ == "relcl":
                    return _antecedent(node.head)  # "a baseline that sustains 39 TFLOPs"
                return subject
            if node.dep_ in ("relcl", "acl") and node.head.pos_ in _NOUN_POS:
                return _antecedent(node.head)
            if node.dep_ == "conj":  # "X reaches 2x and cuts memory by 30%": the first verb's subject
                node = node.head
                continue
            if node.dep_ == "ROOT":
                return None
        if node.head is node:
            return None
        node = node.head
    return None
