"""Whose a number is where the words around it say so, over the paper's own system: a level given to a name by
"for" right after it ("38.5% for DenseTune"), a number alone in brackets after a name ("the FooSpec baseline
(1.01x)"), and a clause whose subject is the class of systems the paper is set against ("existing systems reach
only 5% of the peak", "现有的开源系统的训练效率不到...的5%"). A module of its own: each reads the words right around
one number, where ``_clause_subjects`` reads a clause's grammatical subject."""

from __future__ import annotations

import re

from assay.operators.papers._clause_subjects import other_kind
from assay.operators.papers._mentions import MentionIndex
from assay.operators.papers._title_names import _NAME, acceptable

# "accuracy is 38.5% for DenseTune, 39.1% for SlimTune-r4": the name right after a level's number, joined by
# "for"; up to three capitalised words ("Full FT"), then the clause goes on or ends.
_FOR_NAME = re.compile(
    rf"(?:\s*(?:\$|\*\*|\)))?\s+for\s+(?:the\s+)?(?P<n>{_NAME}(?:\s+{_NAME}){{0,2}})"
    r"(?=\s*(?:[,.;:)]|$)|\s+(?:and|at|on|in|with|versus|vs\.?|while|but|under|after|before)\b)"
)
# The number is a change ("by 30% for X": the clause's actor changed it, X is where) or a bound's comparison.
_BY_BEFORE = re.compile(r"\bby\s+(?:up\s+to\s+|about\s+|nearly\s+|almost\s+|over\s+|more\s+than\s+)?\$?\s*$", re.I)


def level_owner(text: str, claim_start: int, claim_end: int, mentions: MentionIndex) -> tuple[str, int] | None:
    """The name a level's number is given to by "for" right after it ("exact match is 38.5% for DenseTune and
    40.2% for SlimTune-r8" -> DenseTune, SlimTune-r8), with its offset: the number belongs to that system, not
    to the paper's. Not after "by" (a change the clause's actor made, "by 30% for DenseTune" says where), not
    a name a list types as something else (a model, a device), and read for shares and levels only (the
    caller's): a multiple "for" a name ("1.7x for Kimi-K2") names the workload it was measured on."""
    if _BY_BEFORE.search(text, max(0, claim_start - 30), claim_start):
        return None
    owner = _named_owner(_FOR_NAME.match(text, claim_end), mentions)
    if owner and _names_a_workload(text, owner[0]):
        return None  # "0.08% for HPC and 4% for DL": a class of workloads the text writes as "HPC workloads"
    return owner


#: Nouns after a name that make it a class of workloads, not a system ("HPC workloads", "DL benchmarks").
_WORKLOAD_NOUN = r"(?:workloads?|benchmarks?|applications?|apps|tasks?|datasets?|domains?|programs?)"


def _names_a_workload(text: str, name: str) -> bool:
    """Whether the text writes ``name`` as a kind of workload somewhere ("... for HPC workloads")."""
    return re.search(rf"(?<![\w-]){re.escape(name)}[ \t]+{_WORKLOAD_NOUN}\b", text) is not None


def _named_owner(m: re.Match[str] | None, mentions: MentionIndex) -> tuple[str, int] | None:
    """The name a match found (group ``n``) with its offset, where it could be a system's (no model or device)."""
    if not m:
        return None
    name = m.group("n")
    if not all(acceptable(w) or w.isupper() for w in name.split()) or other_kind(mentions, m.start("n"), m.end("n")):
        return None
    return name, m.start("n")


# "outperforming the FooSpec baseline (1.01x)", "DeepSpeed (1.3x) and Megatron (1.1x)": a name, a noun saying
# what it is at most, then a bracket that holds the number alone.
_NAME_BEFORE_BRACKET = re.compile(
    rf"(?<![\w-])(?P<n>{_NAME}(?:\s+{_NAME}){{0,2}})(?:\s+(?:baseline|system|scheduler|approach|method|variant|"
    r"version|oracle|kernel|library|compiler))?\s*\(\s*(?:~|≈|about\s+)?$"
)


def bracketed_owner(text: str, claim_start: int, claim_end: int, mentions: MentionIndex) -> tuple[str, int] | None:
    """The name a number alone in brackets follows ("the FooSpec baseline (1.01x)" -> FooSpec), with its offset:
    the figure is that system's, whoever the clause is about. Not a name a list types as something else."""
    if not re.match(r"\s*\)", text[claim_end : claim_end + 4]):
        return None
    return _named_owner(_NAME_BEFORE_BRACKET.search(text, max(0, claim_start - 80), claim_start), mentions)


#: The words that name other systems as a class ("existing ... frameworks"), before and after the number.
_OTHERS_WORDS = r"existing|current|prior|previous|conventional|traditional|state-of-the-art|mainstream|popular"
_OTHERS_NOUNS = r"systems|frameworks|approaches|methods|schedulers|solutions|libraries|engines|implementations"
# A clause whose subject is the systems the paper is set against, named as a class, not by name: "existing
# systems achieve less than 5% of the peak", "the baseline runs at 12%", "现有的开源系统的训练效率不到...的5%".
_OTHERS_EN = re.compile(
    rf"(?:^|[,;:]\s+|\b(?:and|but|while|whereas)\s+)(?P<n>(?:the\s+)?(?:(?:{_OTHERS_WORDS}|other)\s+"
    rf"(?:[\w-]+\s+){{0,2}}?(?:{_OTHERS_NOUNS}|baselines)|baselines?))"
    r"\s+(?:\w+ly\s+)?(?:achieve|reach|run|use|waste|spend|attain|deliver|get|obtain|incur|suffer|show|exhibit|"
    r"utili[sz]e|only|remain|stay|are|is)\w*\b",
    re.I,
)
_OTHERS_ZH = re.compile(
    r"(?:^|[，,；;：:]\s*)(?P<n>(?:现有|已有|传统|当前|目前|主流)的?[\u4e00-\u9fffA-Za-z-]{0,8}?(?:系统|框架|方法|方案|调度器))"
    r"(?:的|通常|往往|只能|仅|也)"
)


def others_as_subject(text: str, s_start: int, claim_start: int, lang: str) -> str | None:
    """The class of other systems that opens the number's clause as its subject (``_OTHERS_EN``, ``_OTHERS_ZH``),
    as the text words it: the number is theirs, not the paper's system's."""
    pattern = _OTHERS_ZH if lang == "zh" else _OTHERS_EN
    # the clause's opening within reach of the number (a sentence of megabytes is not read once per claim); a
    # window that starts inside the sentence starts with no sentence start ("\n" is none for ``^``)
    lo = max(s_start, claim_start - _CLAUSE_REACH)
    window = text[lo:claim_start] if lo == s_start else "\u2060" + text[lo:claim_start]
    found = None
    for m in pattern.finditer(window):
        found = m
    if found is None or re.search(r"[,;:，；：]", window[found.end() :]):
        return None
    return re.sub(r"^the\s+", "", found.group("n"), flags=re.I)


# The same class named right after the number's measure: "over 40% GPU memory waste in existing pipeline training
# frameworks", "a 2x slowdown of current schedulers".
_OTHERS_AFTER_EN = re.compile(
    r"\s*(?:[\w-]+\s+){0,4}?(?:in|of|by|for|with|across)\s+(?:the\s+|many\s+|most\s+)?"
    rf"(?P<n>(?:{_OTHERS_WORDS})\s+(?:[\w-]+\s+){{0,3}}?(?:{_OTHERS_NOUNS}))\b",
    re.I,
)


def others_after(text: str, claim_end: int, s_end: int) -> str | None:
    """The class of other systems named right after the number's measure (``_OTHERS_AFTER_EN``): theirs."""
    m = _OTHERS_AFTER_EN.match(text, claim_end, s_end)
    return m.group("n") if m else None


#: Characters before a number looked at for the clause that opens it.
_CLAUSE_REACH = 240
