"""Markdown to plain text: the markup goes, the words stay (link texts, image alt texts, code); pipe
tables keep their bars, for tables are residue, not claim text."""

from __future__ import annotations

import re

from assay.operators.papers._unwrap import unwrap_markdown

_FRONT_MATTER = re.compile(r"\A---\n(?P<body>.*?)\n(?:---|\.\.\.)\n", re.S)
_FRONT_TITLE = re.compile(r"^title:\s*[\"']?(?P<t>.*?)[\"']?\s*$", re.M)
#: The front matter's lede under its key (``summary:``, ``description:``): the post's own words. A quoted
#: value may go on over several lines (YAML folds them into one, with spaces).
_FRONT_LEDE = re.compile(
    r"^(?:summary|description|subtitle|excerpt):[ \t]*"
    r"(?:\"(?P<dq>(?:[^\"\\]|\\.)*)\"|'(?P<sq>(?:[^']|'')*)'|(?P<t>[^\n]*?))[ \t]*$",
    re.M,
)
#: A pipe table's delimiter row (``|---|:---:|``, ``---|---``): dashes, optional colons, cells parted by bars.
_DELIMITER = r"[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*"
#: A GitHub-flavoured pipe table: a header line with a bar, its delimiter row, then every following line with a
#: bar, leading and trailing bars optional (``Model\t| Speedup (x)`` / ``---|---`` / ``GPT-2\t| 1.83``).
_PIPE_TABLE = re.compile(
    rf"^(?P<head>[^\n]*\|[^\n]*)\n(?P<rule>{_DELIMITER})\n(?P<body>(?:[^\n]*\|[^\n]*(?:\n|$))*)", re.M
)


def _row(line: str) -> str:
    """A pipe table's line as the cells the structure reader knows, joined by `` | ``: outer bars and the spaces
    and tabs around each cell go."""
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
    return " | ".join(c.strip() for c in line.split("|"))


def _pipe_table(m: re.Match[str]) -> str:
    """A pipe table's rows normalised, the delimiter row gone and the header kept right above the body; a
    delimiter of another width than its header is no table's."""
    head = _row(m.group("head"))
    if head.count("|") != _row(m.group("rule")).count("|"):
        return m.group(0)
    body = m.group("body")
    rows = [_row(line) for line in body.split("\n") if line.strip()]
    return "\n".join([head, *rows]) + ("\n" if body.endswith("\n") else "")


_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"<!--.*?-->", re.S), ""),
    (_PIPE_TABLE, _pipe_table),  # type: ignore[list-item]
    (re.compile(r"^(?:```|~~~).*$", re.M), ""),  # code fences (the code itself is kept)
    (re.compile(r"^[ \t]*(?:[-*_][ \t]*){3,}$", re.M), ""),  # horizontal rules
    (re.compile(r"^[=-]{2,}[ \t]*$", re.M), ""),  # setext heading underlines
    (
        re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$", re.M),
        "",
    ),  # table rules
    (re.compile(r"^#{1,6}[ \t]+(.*?)[ \t]*#*[ \t]*$", re.M), r"\1"),
    (re.compile(r"^[ \t]*>[ \t]?", re.M), ""),
    # a list item is a statement of its own, also where it ends without a full stop ("- 1.8x higher than A"
    # then "- 40% lower than B"): it keeps a bullet, where the sentence splitter starts a sentence
    (re.compile(r"^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+", re.M), "• "),
    # a badge (a package's version, its downloads, a chat link) is no prose: an image inside a link (a badge, as
    # READMEs use them) or from a badge service goes with its alt text
    (re.compile(r"\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)|!\[[^\]]*\]\((?:https?://)?(?:img\.shields\.io|badge\.fury\.io|badgen\.net|"
                r"[^)\s]*/badge(?:\.svg|/)|[^)\s]*/actions/workflows/)[^)]*\)"), ""),
    # (a link's target may hold parentheses of its own: ``nb/Gemma4_(E2B)-Vision.ipynb``)
    (re.compile(r"!\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)"), r"\1"),
    (re.compile(r"\[([^\]]+)\]\((?:[^()]|\([^()]*\))*\)"), r"\1"),
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),
    (re.compile(r"^[ \t]*\[[^\]]+\]:[ \t]+\S+.*$", re.M), ""),  # reference definitions
    (re.compile(r"<(https?://[^>]+)>"), r"\1"),
    # an HTML image keeps its alt text, as a Markdown image does (a figure's one-line summary), a line of its own
    (re.compile(r"<img\b[^>]*?\balt=\"([^\"]+)\"[^>]*>", re.I), r"\n\1\n"),
    (re.compile(r"</?[A-Za-z][^>]*>"), ""),
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),
    (re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<![\w_])_(?=\S)([^_\n]+?)(?<=\S)_(?![\w_])"), r"\1"),
    (re.compile(r"~~(?=\S)(.+?)(?<=\S)~~"), r"\1"),
    (re.compile(r"`+([^`\n]+)`+"), r"\1"),
    # Table rows keep their cells and the bars between them, so the structure reader knows a row when it
    # sees one: a table restates results without the sentence that says what they compare.
    (
        re.compile(r"^[ \t]*\|(.*)\|[ \t]*$", re.M),
        lambda m: " | ".join(c.strip() for c in m.group(1).split("|")),
    ),  # type: ignore[list-item]
    # A backslash escape stands for its character ("1.14\\~1.68x" is the range 1.14~1.68x).
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!~<>])"), r"\1"),
]
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)


def _lede(front_matter: str) -> str:
    """The front matter's lede as one line: a quoted value's lines folded with spaces, YAML's ``''`` an
    apostrophe; '' where there is none."""
    lede = _FRONT_LEDE.search(front_matter)
    if lede is None:
        return ""
    said = lede.group("dq") or (lede.group("sq") or "").replace("''", "'") or lede.group("t") or ""
    return " ".join(said.split())


def markdown_to_text(source: str) -> tuple[str, str | None]:
    """``(text, title)``: the title from the front matter or the first heading, if any."""
    title = None
    front = _FRONT_MATTER.match(source)
    if front:
        found = _FRONT_TITLE.search(front.group("body"))
        title = found.group("t").strip() if found else None
        said = _lede(front.group("body"))
        source = source[front.end() :]
        if said:
            # a post's summary is its own sentence ("what v2 brings: 3x fewer stalls"), read as its lede
            source = f"{said}\n\n{source}"
    body = _strip(unwrap_markdown(source)).strip()
    if title:
        # the front matter's title is the post's heading, as a paper's title is its first line: its claims
        # ("v2: 2.7x higher throughput") are the text's
        body = f"{_strip(title).strip()}\n\n{body}"
    elif title is None:
        heading = _HEADING.search(source)
        title = _strip(heading.group(1)).strip() if heading else None
    return body, title or None


def _strip(text: str) -> str:
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return re.sub(r"\n{3,}", "\n\n", text)
