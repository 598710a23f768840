"""The system a baseline phrase names: a knowledge graph's entity is the system's name, not the words around it.

A comparison phrase often describes the system it is measured against rather than naming it bare. When the
phrase holds exactly one known name (the gazetteer's, or a system the paper compares with) and the words
around it only describe it, the baseline is that name:

* a possessive: "compared to Marlin's greedy approach" → ``Marlin``;
* a name followed by descriptor nouns (``DESCRIPTORS``): "over the Marlin baseline implementation" →
  ``Marlin`` ("the Marlin trainer" is kept: "trainer" is not a descriptor of the list);
* a descriptor that says which system it runs: "compared to a baseline that uses Marlin's packing" →
  ``Marlin``;
* Chinese, a description glossed in English and then named (an appositive): "相较于先前方法 (prior method)
  Marlin [7]" → ``Marlin``; a modifier ending in 的 describes the name after it: "相较于使用默认配置的
  PyTorch" → ``PyTorch``;
* Chinese, a description followed by examples in brackets ("非打包方法 (non-packing method)（例如 A 和
  B）") is the description (its examples are not the baseline itself), and an English gloss after Chinese
  words ("基线 (baseline)") repeats them: both are dropped;
* a phrase listing two names or more ("A 和 B 基线", "the A and B baselines", "a description (e.g., A and
  B)") is the one of them the paper states the same result against elsewhere ("相较于 B，... 1.66 倍"),
  when exactly one.

A phrase holding two or more names is otherwise left as written (the list rules of
``_baselines.distribute`` pair them with lists of numbers before this step), and one whose name is the
paper's own system is left as written (a variant of its own, "FooSys's default mode", is no baseline named
by that name). It runs last over the claims, after the paper's default baseline has counted the phrases as
written (so a baseline named in several wordings does not tie with the default), and a claim given a phrase
by a document-level rule (a default, a restated result) follows that phrase's name. A module of its own
because it is one step over every claim's phrase that reads the mentions, not the clause.
"""

from __future__ import annotations

import re

from assay.operators.papers._claims import Claim
from assay.operators.papers._mentions import Mention, MentionIndex

#: Nouns that describe a system rather than name it, after its name ("the FooSched baseline
#: implementation") or standing for it ("a baseline that uses FooSched").
DESCRIPTORS = (
    "baseline|baselines|implementation|implementations|system|systems|approach|approaches|method|methods|"
    "framework|version|scheme|design|policy|policies|scheduler|library|runtime|setup|configuration|solution|"
    "strategy|technique|algorithm|mechanism|default"
)
_ONLY_DESCRIPTORS = re.compile(rf"^(?:\s+(?:{DESCRIPTORS}))+\s*$", re.I)
_POSSESSIVE = re.compile(r"^['’]s\b")
# Before the name: articles and lower-case modifiers only ("the original", "an unmodified").
_MODIFIERS = re.compile(r"^(?:(?:the|a|an)\s+)?(?:[a-z][\w-]*\s+){0,3}$")
# "a baseline that uses X", "the default version running X": the descriptor, then the system it runs.
_STANDS_FOR = re.compile(rf"^(?:(?:[Tt]he|[Aa]n?)\s+)?(?:[a-z][\w-]*\s+){{0,2}}(?:{DESCRIPTORS})$")
_RUNS = re.compile(
    r"\s+(?:(?:that|which)\s+(?:uses?|used|runs?|implements?|adopts?)|using|running|based\s+on|built\s+on)"
    r"\s+(?:the\s+)?",
    re.I,
)
_CJK = re.compile(r"[\u3400-\u9fff]")
# A name by its shape: one word with a capital or a digit ("Osprey", "vLLM", "Megatron-LM").
_NAME_SHAPE = re.compile(r"(?:[A-Z][\w+.-]*|[a-z]{1,3}[A-Z][\w+.-]*)")
_COORDINATION = re.compile(r"\b(?:and|or)\b|[和与及、]|,")
_CITATION_ONLY = re.compile(r"^\s*(?:\[[\w\s,.-]{1,20}\])?\s*$")
# "（例如 A 和 B）", "(e.g., A and B)": examples of a description, not the baseline.
_EXAMPLES = re.compile(r"\s*[（(]\s*(?:例如|比如|如|e\.\s?g\.|such\s+as)[^）)]*[）)]", re.I)
# An English gloss after Chinese words: "重叠方法 (overlapping method)".
_GLOSS = re.compile(r"(?<=[\u3400-\u9fff])\s*[（(][A-Za-z][^（()）]*[）)]")
# An English gloss closing a Chinese phrase: "基线 (baseline)".
_GLOSS_END = re.compile(r"(?<=[\u3400-\u9fff])\s*[（(][A-Za-z][^（()）]*[）)]\s*$")
# After a Chinese phrase cut at 的: the name the modifier describes, up to the clause's end.
_DE_NAME = re.compile(r"\s*的\s*")


def name_baselines(text: str, claims: list[Claim], mentions: MentionIndex, own: set[str]) -> None:
    """Each claim's baseline phrase to the system name it holds (the rules above); a baseline that was
    carried from a phrase (a default, a restated result) follows its phrase's name. Run last, after the
    document-level rules have counted the phrases as written."""
    stated = _stated(claims, mentions, own)
    renamed: dict[str, set[str]] = {}
    for claim in claims:
        if not claim.versus or not claim.versus_span:
            continue
        before = claim.versus
        span = _one_of_several(text, claim, stated) or _name_in(text, claim, mentions, own)
        if span and span != claim.versus_span:
            claim.versus = " ".join(text[span[0] : span[1]].split())
            claim.versus_span = span
        renamed.setdefault(before, set()).add(claim.versus)
    for claim in claims:
        names = renamed.get(claim.versus or "") if not claim.versus_span else None
        if names and len(names) == 1:
            claim.versus = next(iter(names))


def _stated(claims: list[Claim], mentions: MentionIndex, own: set[str]) -> dict[tuple, list[tuple[str, str]]]:
    """Each result (unit, value) with the subjects and baselines it is stated with where its phrase is one
    name only (a known system's, or a name by its shape: "than Osprey")."""
    out: dict[tuple, list[tuple[str, str]]] = {}
    for claim in claims:
        if not claim.versus or not claim.versus_span:
            continue
        found = _systems(mentions, *claim.versus_span)
        phrase = claim.versus.strip()
        if len({m.name.lower() for m in found}) == 1 and phrase.lower() in (
            found[0].text.lower(),
            found[0].name.lower(),
        ):
            name = found[0].text
        elif not found and _NAME_SHAPE.fullmatch(phrase):
            name = phrase
        else:
            continue
        out.setdefault(_result(claim), []).append(((claim.subject or "").lower(), name))
    return out


def _result(claim: Claim) -> tuple:
    return (claim.unit, claim.value, claim.value_low, claim.value_high)


def _one_of_several(
    text: str, claim: Claim, stated: dict[tuple, list[tuple[str, str]]]
) -> tuple[int, int] | None:
    """A phrase listing names ("A and B", "a description (e.g., A and B)"), where the paper states the same
    result against exactly one of them elsewhere: that one."""
    assert claim.versus_span is not None
    start, end = claim.versus_span
    if not _COORDINATION.search(text, start, end):
        return None
    subject = (claim.subject or "").lower()
    # the same result of the same subject (a subject the other statement left unresolved counts)
    elsewhere = {name for who, name in stated.get(_result(claim), []) if who in ("", subject)}
    if len(elsewhere) != 1:
        return None
    name = next(iter(elsewhere))
    m = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])").search(text, start, end)
    if m is None or text[start:end].strip() == name:
        return None
    return m.start(), m.end()


def _name_in(text: str, claim: Claim, mentions: MentionIndex, own: set[str]) -> tuple[int, int] | None:
    """The span of the name a one-system phrase stands for, by the rules of each language."""
    assert claim.versus_span is not None
    start, end = claim.versus_span
    if " ".join(text[start:end].split()) != claim.versus:
        return None  # a phrase rewritten by an earlier rule (a run "without X"): not a span of the text
    if _CJK.search(text, start, end):
        return _chinese(text, start, end, mentions, own)
    return _english(text, start, end, mentions, own)


def _systems(mentions: MentionIndex, start: int, end: int) -> list[Mention]:
    return [m for m in mentions.inside(start, end) if m.type in ("system", "method") and m.source != "count"]


def _names(
    mentions: MentionIndex, start: int, end: int, own: set[str], skip: list[tuple[int, int]] = ()
) -> list[Mention] | None:
    """The one known system named in the span (all its mentions), or None when it names none, several, or
    the paper's own; mentions inside the ``skip`` spans are not counted."""
    found = [m for m in _systems(mentions, start, end) if not any(a <= m.start < b for a, b in skip)]
    keys = {m.name.lower() for m in found}
    if len(keys) != 1 or next(iter(keys)) in own or any(m.text.lower() in own for m in found):
        return None
    return found


def _english(text: str, start: int, end: int, mentions: MentionIndex, own: set[str]) -> tuple[int, int]:
    phrase = text[start:end]
    if _STANDS_FOR.match(phrase):
        runs = _RUNS.match(text, end)
        if runs:
            after = [m for m in mentions.overlapping(runs.end(), runs.end() + 1) if m.start == runs.end()]
            named = _names(
                mentions, runs.end(), runs.end() + max((m.end - m.start for m in after), default=0), own
            )
            if named:
                return named[0].start, named[0].end
        return start, end
    named = _names(mentions, start, end, own)
    if not named or len(named) != 1:
        return start, end
    m = named[0]
    before, after = text[start : m.start], text[m.end : end]
    if not _MODIFIERS.match(before):
        return start, end
    if _POSSESSIVE.match(after) or _ONLY_DESCRIPTORS.match(after):
        return m.start, m.end
    return start, end


def _chinese(text: str, start: int, end: int, mentions: MentionIndex, own: set[str]) -> tuple[int, int]:
    examples = _EXAMPLES.search(text, start, end)
    if examples and _CJK.search(text, start, examples.start()):
        end = examples.start()
    gloss = _GLOSS_END.search(text[start:end])
    if gloss:
        end = start + gloss.start()
    de = _DE_NAME.match(text, end)
    if de:
        after = [m for m in mentions.inside(de.end(), de.end() + 60) if m.start == de.end()]
        if (
            after
            and _names(mentions, after[0].start, after[0].end, own)
            and re.match(r"\s*(?:\[[\w\s,.-]{1,20}\])?\s*[，。；,;]", text[after[0].end :])
        ):
            return after[0].start, after[0].end
    # the words of an English gloss ("(previous overlapping method)") translate the description: no names
    glosses = [g.span() for g in _GLOSS.finditer(text, start, end)]
    named = _names(mentions, start, end, own, glosses) or []
    if len(named) == 1:
        m = named[0]
        before, after = text[start : m.start], text[m.end : end]
        if _CJK.search(before) and _CITATION_ONLY.match(after):
            return m.start, m.end
    return start, end
