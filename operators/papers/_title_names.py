"""A document's name for itself, read from its head: a title "X: ..." (with a release, "Foo v2.1: ..."), a
title that is a name alone ("# FooLib", a README's first line), a "Name: tagline" line in the head block (a
README's logo, tagline and links), not a phrase before a colon ("Democratizing AI: ..."); and the shape of a
name that the proposal rules (``_proposals``) share."""

from __future__ import annotations

import re
from itertools import islice

from assay.operators.papers._gazetteer import generic_names, load, normalise
from assay.operators.papers._ownership import phrase_like

# A name may end in "+" or "++" (ZeRO++, Optimus+).
_NAME = (
    r"(?:[A-Z][A-Za-z0-9]*|[a-z]{1,3}[A-Z][A-Za-z0-9]*|\d[A-Za-z][A-Za-z0-9]*)"
    # parts joined by a hyphen or, as code names a variant, an underscore ("FA_Serial", "TC-FPx_W6A16")
    r"(?:[-‐][A-Za-z0-9]+|_[A-Z0-9][A-Za-z0-9]*|(?<=\d)\.\d[A-Za-z0-9]*)*"
    r"\+{0,2}"
)
# A name that cannot be an ordinary capitalised word: a capital or digit after its first letter ("GPipe").
_DISTINCTIVE = re.compile(r"[A-Z0-9]")
# A model size ("4B", "13B", "1.3T") or a count with a unit letter: never a system's name.
_SIZE = re.compile(r"^\d+(?:\.\d+)?[KMBTkmbt]$")
# A formula's variable with its subscripts flattened into the word ("X_{mj}" read as "Xmj", "Wij"): a capital
# and up to three consonants, no vowel.
_VARIABLE = re.compile(r"^[A-Z][b-df-hj-np-tv-xz]{1,3}$")
# A configuration written as one word: a device count glued to the device ("4xH100", "8×A100") or a parallel
# degree ("TP8", "EP1", "DP4"). It says what a run ran on, never what is measured.
_CONFIGURATION = re.compile(r"^(?:\d+[x×][A-Z0-9][\w-]*|(?:TP|PP|DP|EP|SP|CP|MP|ETP|FSDP)\d+)$")


def acceptable(name: str) -> bool:
    """Whether a capitalised word could be a system's name (not "GPU", "We", "3D", "GPUs")."""
    if len(name) < 2 or name.lower() in generic_names() or name.isdigit() or _SIZE.match(name):
        return False
    if _CONFIGURATION.match(name) or _VARIABLE.match(name):
        return False
    # Trailing plural of a generic acronym ("GPUs") or a word that is only a number with a letter ("3D").
    return not (name.endswith("s") and name[:-1].lower() in generic_names())


def occurrences(text: str, name: str, case_sensitive: bool, limit: int) -> list[tuple[int, int]]:
    # a name of several words may wrap over a line ("frozen-aware\nstage partitioning")
    words = r"\s+".join(re.escape(w) for w in name.split(" "))
    pattern = re.compile(rf"(?<![A-Za-z0-9-]){words}(?![A-Za-z0-9])", 0 if case_sensitive else re.I)
    return [m.span() for m in islice(pattern.finditer(text), limit)]


# An acronym a name of several words defines right after it: "Sparsity-aware Memory Optimization (SAMO)".
_DEFINED_ACRONYM = re.compile(r"\s*\((?P<a>[A-Z][A-Za-z0-9+-]{1,11})\)")


def short_form(text: str, name: str) -> str:
    """The acronym a name of several words defines at its first use ("Long Name (LN)"), when the text writes
    the acronym more often than the name: papers name their system by it after that."""
    if " " not in name:
        return name
    uses = occurrences(text, name, False, 2000)
    m = _DEFINED_ACRONYM.match(text, uses[0][1]) if uses else None
    if m and len(occurrences(text, m.group("a"), True, len(uses) + 1)) > len(uses):
        return m.group("a")
    return name


def _used_as_name(text: str, name: str) -> int:
    """How often the text writes ``name`` other than as a title's lead (the title, a running head: "X: ...")."""
    return sum(
        1
        for _, end in occurrences(text, name, True, 50)
        if not text[end : end + 3].lstrip(" \t").startswith(":")
    )


# A title "Ravel: ...", also with the release it announces ("Foo v2.1: 3x faster ..."; the name without it), and
# a post's "Introducing Foo: ..." / "Announcing Foo 2.0: ..." (the verb announces the name that follows it).
_ANNOUNCING = r"(?:(?:Introducing|Announcing|Presenting|Meet|Releasing)[ \t]+)?"
_RELEASE = r"(?:[ \t]+v?\d+(?:\.\d+)+|[ \t]+v\d+)?"
_TITLE_NAME = re.compile(
    rf"^\s*{_ANNOUNCING}(?P<n>{_NAME}(?:[ \t]+{_NAME})?|[a-z][a-z0-9]{{2,15}}){_RELEASE}\s*[:：]"
)
# "Foo-MoE for NLG: ...": a name, then what it is for, before the colon; the name alone is the system when it
# has a name's shape ("Garnet-MoE", not "Memory for Free: ...").
_TITLE_NAME_FOR = re.compile(
    rf"^\s*{_ANNOUNCING}(?P<n>{_NAME}){_RELEASE}[ \t]+(?:for|on|in|with|at)[ \t]+[^:：\n]{{1,40}}[:：]"
)
# "FooLib with Quick Sync: ...": a platform, then the feature it gained, before the colon. The post is about the
# feature when the body keeps naming it ("Quick Sync cuts ..."); else the lead names the system, as above.
_TITLE_WITH = re.compile(rf"^\s*{_ANNOUNCING}{_NAME}{_RELEASE}[ \t]+with[ \t]+(?P<n>[^:：\n]{{2,40}}?)\s*[:：]")
# A title that is a name and nothing else ("# FooLib", a README's first line), and a name heading a tagline in
# the document's head block ("FooLib: fast training for everyone" a few lines under a bare title or a logo).
_BARE_NAME = re.compile(rf"^[#\s]*(?P<n>{_NAME}(?:[ \t]+{_NAME})?)\s*$")
_TAGLINE = re.compile(rf"^[#>*\s]*(?P<n>{_NAME}(?:[ \t]+{_NAME})?)[ \t]*[:：][ \t]*\S")
# "FooServe × BarOps: ...": two projects joined by "×" ("x", "+", "meets"), a post on what one brings to the
# other. Group ``n`` is the first name in ``_JOINT_FIRST``, the second in ``_JOINT_SECOND``.
_JOINED = r"[ \t]+(?:[×x+]|meets)[ \t]+"
_JOINT_FIRST = re.compile(rf"^\s*(?P<n>{_NAME}){_JOINED}{_NAME}{_RELEASE}\s*[:：]")
_JOINT_SECOND = re.compile(rf"^\s*{_NAME}{_JOINED}(?P<n>{_NAME}){_RELEASE}\s*[:：]")
# A lead of three or four capitalised words before the colon ("FooLib Data Efficiency: ..."): a name when the
# body writes it again, not a headline's phrase.
_LONG_LEAD = re.compile(rf"^\s*{_ANNOUNCING}(?P<n>{_NAME}(?:[ \t]+{_NAME}){{2,3}}){_RELEASE}\s*[:：]")
# A title that is a platform with what it gained and nothing else ("# FooLib with Bar kernels"): the whole title
# names the system its results are about.
# A title that ends in what its work is done with: "Zero-Reload Model Switching with FooServe Sleep Mode" (a name
# and up to two capitalised words after it, to the title's end).
_ENDS_WITH_NAME = re.compile(rf"^.{{8,}}?[ \t]+(?:with|using|via)[ \t]+(?P<n>{_NAME}(?:[ \t]+[A-Z][\w.+-]*){{0,2}})\s*$")
_BARE_WITH = re.compile(rf"^[#\s]*(?P<n>{_NAME}[ \t]+with[ \t]+{_NAME}(?:[ \t]+[a-z]+){{0,2}})\s*$")
# A headline whose subject is what the post is about: "How Speculative Decoding Boosts FooServe ...",
# "Fused Kernels Cut Latency by 2x". Its subject is the post's technique.
_HEADLINE = re.compile(
    r"^\s*(?:How[ \t]+)?(?P<n>[A-Z][\w-]*(?:[ \t]+[A-Z][\w-]*){0,3})[ \t]+"
    r"(?P<v>(?i:Boosts|Accelerates|Speeds[ \t]+Up|Improves|Cuts|Reduces|Enables|Doubles|Halves|Delivers|Achieves))\b"
)
# A Chinese title led by a name and then only Chinese words ("# FooServe 推理框架", "FooLib v2 发布"): the name.
_ZH_TITLE = re.compile(rf"^[#\s]*(?P<n>{_NAME}){_RELEASE}[ \t]*[\u4e00-\u9fff][^A-Za-z\n]*$")
#: How many non-empty lines a document's head block (title, logo, tagline, links) holds.
_HEAD_LINES = 8


# A title that is a name of a few words with its acronym in brackets: "MiniMax Sparse Attention (MSA)".
_TITLE_ACRONYM = re.compile(r"^[#\s]*(?:[A-Z][\w-]*[ \t]+){1,5}[(（][ \t]*(?P<n>[A-Z][A-Z0-9-]{1,9})[ \t]*[)）]\s*$")


def _title_acronym(title: str, text: str) -> re.Match[str] | None:
    """ "MiniMax Sparse Attention (MSA)": the acronym, by which the body calls the work (twice or more)."""
    m = _TITLE_ACRONYM.match(title)
    return m if m and acceptable(m.group("n")) and _used_as_name(text, m.group("n")) >= 2 else None


def _title_only_name(title: str, text: str) -> re.Match[str] | None:
    """A title that is only a distinctive name ("Colossal-Foo", "FooServe") the body uses again."""
    m = _BARE_NAME.match(title)
    if m and _DISTINCTIVE.search(m.group("n"), 1) and not phrase_like(m.group("n")):
        return m if _used_as_name(text, m.group("n")) >= 2 else None
    return None


def _head_tagline(text: str) -> re.Match[str] | None:
    """A distinctive name heading a tagline among the head block's lines ("FooLib: make training cheap"), which
    the body uses again; not a label ("Note:", "Keywords:")."""
    lines = [line for line in text.lstrip()[:3000].split("\n") if line.strip()][:_HEAD_LINES]
    for line in lines:
        m = _TAGLINE.match(line)
        if m and _DISTINCTIVE.search(m.group("n"), 1) and acceptable(m.group("n")):
            if not phrase_like(m.group("n")) and _used_as_name(text, m.group("n")) >= 1:
                return m
    return None


def _zh_title(title: str, text: str) -> re.Match[str] | None:
    """ "FooServe 推理框架": a name leading a Chinese title, which the body uses again (among Chinese words a
    Latin word is a name, capitals inside it or not)."""
    m = _ZH_TITLE.match(title)
    if m and acceptable(m.group("n")):
        return m if _used_as_name(text, m.group("n")) >= 2 else None
    return None


def _title_name_for(title: str) -> re.Match[str] | None:
    """ "Garnet-MoE for Speech: ...": the lead's name when it has a name's shape (a capital or digit inside)."""
    m = _TITLE_NAME_FOR.match(title)
    return m if m and _DISTINCTIVE.search(m.group("n"), 1) and acceptable(m.group("n")) else None


def _title_feature(title: str, text: str) -> re.Match[str] | None:
    """ "FooLib with Quick Sync: ...": the feature after "with", when the body uses it as a name at least twice
    (a platform's post about what it gained is about the feature, not the platform)."""
    m = _TITLE_WITH.match(title)
    return m if m and acceptable(m.group("n")) and _used_as_name(text, m.group("n")) >= 2 else None


def _title_joint(title: str) -> re.Match[str] | None:
    """ "FooServe × BarOps: ...": the joined name the built-in list does not know (the host project is a known
    one), else the second."""
    first, second = _JOINT_FIRST.match(title), _JOINT_SECOND.match(title)
    if not first or not second:
        return None
    known = {normalise(t.name) for t in load() if t.type == "system"}
    if normalise(second.group("n")) in known and normalise(first.group("n")) not in known:
        return first if acceptable(first.group("n")) else None
    return second if acceptable(second.group("n")) else None


def _title_long_lead(title: str, text: str) -> re.Match[str] | None:
    """ "FooLib Data Efficiency: ...": a lead of three or four name-shaped words that the body uses again."""
    m = _LONG_LEAD.match(title)
    return m if m and _DISTINCTIVE.search(m.group("n"), 1) and _used_as_name(text, m.group("n")) >= 2 else None


def _bare_with(title: str) -> re.Match[str] | None:
    """ "# FooLib with Bar kernels": a title that is only a platform and what it gained."""
    m = _BARE_WITH.match(title)
    return m if m and acceptable(m.group("n").split()[0]) else None


def _title_ends_with_name(title: str, text: str) -> re.Match[str] | None:
    """ "Zero-Reload Model Switching with FooServe Sleep Mode": the name the title's work is done with, when it
    has a name's shape and the body uses it as a name at least twice."""
    m = _ENDS_WITH_NAME.match(title)
    if not m or not _DISTINCTIVE.search(m.group("n").split()[0], 1) or not acceptable(m.group("n").split()[0]):
        return None
    return m if _used_as_name(text, m.group("n")) >= 2 else None


def _headline_subject(title: str, text: str) -> re.Match[str] | None:
    """ "How Speculative Decoding Boosts FooServe ...": the headline's subject, when the body writes it (in any
    case) at least twice."""
    m = _HEADLINE.match(title)
    if not m or m.group("n").lower() in generic_names():
        return None
    if m.group("v").islower() and not any(_DISTINCTIVE.search(w, 1) for w in m.group("n").split()):
        return None  # a sentence-case headline ("Sparse attention reduces ..."): only a name's shape says name
    start = len(title) if text.startswith(title) else 0
    if text.lower().count(m.group("n").lower(), start) >= 2:
        return m
    # "Microsoft DeepSpeed achieves ...": the body writes the product without its maker
    words = m.group("n").split()
    last = words[-1]
    if len(words) > 1 and _DISTINCTIVE.search(last, 1) and acceptable(last) and text.count(last, start) >= 2:
        return re.compile(rf"(?P<n>{re.escape(last)})").search(title, m.start("n"))
    return None


def _first_line(text: str) -> str:
    """The text's first line, a paper's title when the reader kept none (a PDF without an information
    dictionary, a paper read by ``assay eval``)."""
    head = text.lstrip()[:300]
    return head.split("\n", 1)[0]


def title_name(text: str, title: str | None) -> re.Match[str] | None:
    """The name the document's title or head block gives it (group ``n``), or None."""
    head = title or _first_line(text)
    titled = (
        _TITLE_NAME.match(head)
        or _title_only_name(head, text)
        or _title_acronym(head, text)
        or _zh_title(head, text)
        or _title_feature(head, text)
        or _title_name_for(head)
        or _title_joint(head)
        or _title_long_lead(head, text)
        or _bare_with(head)
        or _title_ends_with_name(head, text)
        or _head_tagline(text)
    )
    if titled and titled.group("n").islower() and text.count(titled.group("n")) < 3:
        titled = None  # a lower-case word before a colon is a name only when the text keeps using it
    if titled and phrase_like(titled.group("n")) and _used_as_name(text, titled.group("n")) < 2:
        titled = None  # "Democratizing AI: ...": a phrase, unless the body keeps using it as a name
    # a headline's subject is a phrase by nature ("Speculative Decoding"), its own test is the body's use of it
    return titled or _headline_subject(head, text)
