"""A document's name for itself, read from its head: a title "X: ..." (with a release, "Foo v2.1: ..."), a
title that is a name alone ("# FooLib", a README's first line), a "Name: tagline" line in the head block (a
README's logo, tagline and links), not a phrase before a colon ("Democratizing AI: ..."); and the shape of a
name that the proposal rules (``_proposals``) share."""

from __future__ import annotations

import re
from itertools import islice

from assay.operators.papers._gazetteer import generic_names
from assay.operators.papers._ownership import phrase_like

# A name may end in "+" or "++" (ZeRO++, Optimus+).
_NAME = (
    r"(?:[A-Z][A-Za-z0-9]*|[a-z]{1,3}[A-Z][A-Za-z0-9]*|\d[A-Za-z][A-Za-z0-9]*)(?:[-‐][A-Za-z0-9]+)*\+{0,2}"
)
# A name that cannot be an ordinary capitalised word: a capital or digit after its first letter ("GPipe").
_DISTINCTIVE = re.compile(r"[A-Z0-9]")
# A model size ("4B", "13B", "1.3T") or a count with a unit letter: never a system's name.
_SIZE = re.compile(r"^\d+(?:\.\d+)?[KMBTkmbt]$")


def acceptable(name: str) -> bool:
    """Whether a capitalised word could be a system's name (not "GPU", "We", "3D", "GPUs")."""
    if len(name) < 2 or name.lower() in generic_names() or name.isdigit() or _SIZE.match(name):
        return False
    # Trailing plural of a generic acronym ("GPUs") or a word that is only a number with a letter ("3D").
    return not (name.endswith("s") and name[:-1].lower() in generic_names())


def occurrences(text: str, name: str, case_sensitive: bool, limit: int) -> list[tuple[int, int]]:
    # a name of several words may wrap over a line ("frozen-aware\nstage partitioning")
    words = r"\s+".join(re.escape(w) for w in name.split(" "))
    pattern = re.compile(rf"(?<![A-Za-z0-9-]){words}(?![A-Za-z0-9])", 0 if case_sensitive else re.I)
    return [m.span() for m in islice(pattern.finditer(text), limit)]


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
#: How many non-empty lines a document's head block (title, logo, tagline, links) holds.
_HEAD_LINES = 8


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


def _title_name_for(title: str) -> re.Match[str] | None:
    """ "Garnet-MoE for Speech: ...": the lead's name when it has a name's shape (a capital or digit inside)."""
    m = _TITLE_NAME_FOR.match(title)
    return m if m and _DISTINCTIVE.search(m.group("n"), 1) and acceptable(m.group("n")) else None


def _title_feature(title: str, text: str) -> re.Match[str] | None:
    """ "FooLib with Quick Sync: ...": the feature after "with", when the body uses it as a name at least twice
    (a platform's post about what it gained is about the feature, not the platform)."""
    m = _TITLE_WITH.match(title)
    return m if m and acceptable(m.group("n")) and _used_as_name(text, m.group("n")) >= 2 else None


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
        or _title_feature(head, text)
        or _title_name_for(head)
        or _head_tagline(text)
    )
    if titled and titled.group("n").islower() and text.count(titled.group("n")) < 3:
        titled = None  # a lower-case word before a colon is a name only when the text keeps using it
    if titled and phrase_like(titled.group("n")) and _used_as_name(text, titled.group("n")) < 2:
        titled = None  # "Democratizing AI: ...": a phrase, unless the body keeps using it as a name
    return titled
