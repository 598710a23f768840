"""LaTeX to plain text: commands go, their text stays, symbols become characters.

Built from regex passes, never a brace parser, so unbalanced braces (common in abstracts pasted from
papers) cannot make it fail: a stray ``{`` or ``}`` is simply dropped. ``$\\times$`` becomes ``×`` and
``\\%`` becomes ``%`` so claims read naturally in the stored text.
"""

from __future__ import annotations

import re

from assay.operators.papers._unwrap import unwrap_tex

_DOLLAR = "\x01"  # a literal \$ while math delimiters are removed
_COMMENT = re.compile(r"(?<!\\)%.*$", re.M)
# Text the paper typesets nowhere: a block switched off (``\iffalse ... \fi``, the usual way to keep an old
# paragraph in the source) or in a ``comment`` environment. (A nested ``\if...\fi`` inside the block is rare and
# would end it early; what remains after it is then read as the paper's.)
_SWITCHED_OFF = re.compile(r"\\iffalse\b.*?\\fi\b|\\begin\s*\{comment\}.*?\\end\s*\{comment\}", re.S)
_BODY = re.compile(r"\\begin\s*\{document\}(?P<body>.*?)(?:\\end\s*\{document\}|\Z)", re.S)
_TITLE = re.compile(r"\\title\s*(?:\[[^\]]*\])?\s*\{")
# Floats (figures, tables with their captions), math, code and the bibliography are not the paper's prose.
_DROP_ENVIRONMENTS = re.compile(
    r"\\begin\s*\{(equation|align|eqnarray|gather|multline|tikzpicture|lstlisting|verbatim|minted|algorithmic|"
    r"algorithm|thebibliography|figure|table|wrapfigure|wraptable|tabular|tabularx|subfigure)\*?\}.*?"
    r"\\end\s*\{\1\*?\}",
    re.S,
)
# A float keeps its captions (often a result: "X cuts latency by 40% over Y") and its tables' rows; the
# rest of it (graphics, placement) goes.
_FLOAT = re.compile(
    r"\\begin\s*\{(figure|table|wrapfigure|wraptable|subfigure)\*?\}.*?\\end\s*\{\1\*?\}", re.S
)
_CAPTION = re.compile(r"\\(?:sub)?caption\*?\s*(?:\[[^\]]*\])?\s*\{")
_TABULAR = re.compile(
    r"\\begin\s*\{(tabular|tabularx|tabular\*|longtable)\}(?:\s*\{[^{}]*\})?\s*"
    r"(?:\{(?:[^{}]|\{[^{}]*\})*\})?(?P<body>.*?)\\end\s*\{\1\}",
    re.S,
)
_RULES = re.compile(
    r"\\(?:toprule|midrule|bottomrule|hline|cline\s*\{[^{}]*\}|cmidrule\s*(?:\([^)]*\))?\s*\{[^{}]*\})"
)
_ABSTRACT = re.compile(r"\\begin\s*\{abstract\}|\\abstract\s*\{")
# Argument-less macros ("\newcommand{\sys}{Ravel}", "\def\sys{Ravel\xspace}"): papers name their system
# through one, so it is expanded rather than dropped with the other commands.
# One that takes an argument and ends with it ("\newcommand{\sys}[1]{Ravel{#1}}", used as "\sys{}" or
# "\sys{-based}") reads as its text: the argument written after it stays where it is.
_MACRO = re.compile(
    r"\\(?:(?:re)?newcommand\*?\s*\{?\s*\\(?P<a>[A-Za-z]+)\s*\}?(?:\s*\[\s*1\s*\])?|def\s*\\(?P<b>[A-Za-z]+))"
    r"\s*\{(?P<body>[^{}\n]*(?:\{[^{}\n]*\}[^{}\n]*)*)\}"
)
_NAME_WITH_ARGUMENT = re.compile(r"^(?P<name>[A-Za-z][\w.+-]*(?: [A-Za-z][\w.+-]*)?)\s*\{?#1\}?$")
# "\citeauthor{huang2019gpipe}" names the authors: keep a name (from the key) so the sentence keeps its
# subject ("The \citeauthor{x} and Y models achieve 73% and 84%").
_CITEAUTHOR = re.compile(r"\\[Cc]iteauthor\*?(?:\s*\[[^\]\n]*\])*\s*\{(?P<keys>[^{}\n]*)\}")
# A citation goes with the space before it ("FSDP~\\cite{x}," -> "FSDP,").
_CITE = re.compile(
    r"[ \t]*~?\\(?:cite[pt]?|citeauthor|citeyear|nocite)\*?(?:\s*\[[^\]\n]*\])*\s*\{[^{}\n]*\}"
)
_DROP_WITH_ARGS = re.compile(
    r"\\(?:documentclass|usepackage|bibliography|bibliographystyle|includegraphics|vspace|hspace|input|include|"
    r"label|ref|eqref|autoref|cref|Cref|pagestyle|thispagestyle|setlength|"
    r"newcommand|renewcommand|def|author|affiliation|email|date|maketitle|keywords)\*?"
    r"(?:\s*\[[^\]\n]*\])*(?:\s*\{[^{}\n]*\})*"
)
_HEADINGS = re.compile(r"\\(?:sub)*(?:section|paragraph|chapter)\*?\s*(?:\[[^\]]*\])?\s*\{([^{}\n]*)\}")
_HREF = re.compile(r"\\href\s*\{[^{}]*\}\s*\{([^{}]*)\}")
# A letter accent ends its command name (\u{a}, \v c): \underline and \cdot are other commands.
_ACCENT = re.compile(r"\\(?:['`^\"~=.]|[uvHc](?![A-Za-z]))\s*\{?\s*([A-Za-z])\s*\}?")
_SYMBOLS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\\\$"), _DOLLAR),
    (re.compile(r"\$\s*\\times\s*\$"), "×"),
    (re.compile(r"\\(?:times|texttimes)(?![A-Za-z])"), "×"),
    (re.compile(r"\\%"), "%"),
    (re.compile(r"\\&"), "&"),
    (re.compile(r"\\_"), "_"),
    (re.compile(r"\\#"), "#"),
    (re.compile(r"\\(?:sim|textasciitilde)(?![A-Za-z])"), "~"),
    (re.compile(r"\\approx(?![A-Za-z])"), "≈"),
    (re.compile(r"\\(?:geq|ge)(?![A-Za-z])"), "≥"),
    (re.compile(r"\\(?:leq|le)(?![A-Za-z])"), "≤"),
    (re.compile(r"\\pm(?![A-Za-z])"), "±"),
    (re.compile(r"\\cdot(?![A-Za-z])"), "·"),
    (re.compile(r"\\mu(?![A-Za-z])"), "μ"),
    (re.compile(r"\\(?:rightarrow|to)(?![A-Za-z])"), "→"),
    (re.compile(r"\\(?:ldots|dots|cdots)(?![A-Za-z])"), "…"),
    (re.compile(r"\\item(?![A-Za-z])\s*(?:\[[^\]]*\])?"), "\n"),
    (re.compile(r"\\\\(?:\[[^\]]*\])?"), "\n"),
    (re.compile(r"\\[,;:! ]"), " "),
    (re.compile(r"(?<!\\)~"), " "),  # a non-breaking space
    (re.compile(r"---"), "—"),
    (re.compile(r"--"), "–"),
    (re.compile(r"``"), "“"),
    (re.compile(r"''"), "”"),
]
# A macro the file uses but does not define: a section or chapter file whose paper keeps its macros in another
# file ("\tool reduces latency by 2x", "\sys{}'s planner"). Used in the middle of sentences, between words, it
# is a name; it reads as its own name in capitals ("TOOL"), the only name the file gives. LaTeX's own commands
# that sit between words are no names; the Latin abbreviations papers define as macros read as written.
_MID_SENTENCE_MACRO = re.compile(r"(?<=[A-Za-z,;:] )\\(?P<n>[A-Za-z]+)(?=\s*\{\}|'s\b|\s+[a-z]|[,.;:])")
_NAME_MACRO_MIN = 3
_TEXT_COMMANDS = frozenset(
    "em it bf sc tt rm sf sl small footnotesize scriptsize tiny normalsize large Large LARGE huge Huge noindent "
    "quad qquad xspace relax par newline linebreak nolinebreak hfill vfill protect and textemdash textendash "
    "textbullet today LaTeX TeX S P item centering raggedright raggedleft bfseries itshape ttfamily mdseries "
    "upshape scshape selectfont smallskip medskip bigskip null unskip ignorespaces hline footnote".split()
)
_ABBREVIATIONS = {"eg": "e.g.", "ie": "i.e.", "etal": "et al.", "etc": "etc.", "wrt": "w.r.t.", "cf": "cf.",
                  "vs": "vs."}
_MATH_DELIMITERS = re.compile(r"\\[()\[\]]|\$\$?")
_COMMAND = re.compile(r"\\(?:begin|end)\s*\{[^{}]*\}|\\[A-Za-z@]+\*?(?:\s*\[[^\]\n]*\])?")
_BRACES = re.compile(r"[{}]")


# siunitx's quantities ("\SI{35}{\percent}", "\qty{2.1}{\times}", "\SIrange{15}{40}{\percent}", "\num{1.7}"):
# the number written with its unit's symbol, as the text would print it.
_QUANTITY = re.compile(
    r"\\(?:SI|qty)\s*(?:\[[^\]]*\])?\s*\{(?P<n>[^{}]*)\}\s*(?:\[[^\]]*\])?\s*\{(?P<u>(?:[^{}]|\{[^{}]*\})*)\}"
    r"|\\(?:SIrange|qtyrange)\s*(?:\[[^\]]*\])?\s*\{(?P<lo>[^{}]*)\}\s*\{(?P<hi>[^{}]*)\}\s*\{(?P<ru>(?:[^{}]|\{[^{}]*\})*)\}"
    r"|\\num\s*(?:\[[^\]]*\])?\s*\{(?P<num>[^{}]*)\}"
)
_UNIT_SYMBOLS = (
    ("\\percent", "%"), ("\\times", "×"), ("\\milli\\second", " ms"), ("\\micro\\second", " μs"),
    ("\\second", " s"), ("\\minute", " min"), ("\\hour", " h"), ("\\giga\\byte", " GB"), ("\\mega\\byte", " MB"),
    ("\\tera\\byte", " TB"), ("\\watt", " W"), ("\\joule", " J"),
)


def _quantity(m: re.Match[str]) -> str:
    if m.group("num") is not None:
        return m.group("num")
    unit = m.group("u") if m.group("u") is not None else m.group("ru")
    for command, symbol in _UNIT_SYMBOLS:
        unit = unit.replace(command, symbol)
    unit = unit if unit.startswith(" ") or unit in ("%", "×") else f" {unit}"
    if m.group("n") is not None:
        return f"{m.group('n')}{unit}"
    return f"{m.group('lo')}–{m.group('hi')}{unit}"


# A footnote's text is an aside, not part of its sentence ("... over PERSIA\footnote{We use v1.0.}."): dropped.
_FOOTNOTE = re.compile(r"\\footnote(?:text)?\s*(?:\[[^\]]*\])?\s*\{")


def _without_footnotes(text: str) -> str:
    while m := _FOOTNOTE.search(text):
        inner = _braced(text, m.end())
        text = text[: m.start()] + text[m.end() + len(inner) + 1 :]
    return text


def tex_to_text(source: str) -> tuple[str, str | None]:
    """``(text, title)`` of a LaTeX source: the document body (or the whole file when it has none)."""
    source = _SWITCHED_OFF.sub(" ", _COMMENT.sub("", source))
    macros = {m.group("a") or m.group("b"): m.group("body") for m in _MACRO.finditer(source)}
    title = _title(_expand(source, macros))
    body = _BODY.search(source)
    text = unwrap_tex(body.group("body") if body else source)
    text = _QUANTITY.sub(_quantity, _without_footnotes(text))
    text = _FLOAT.sub(lambda m: _float_text(m.group()), text)
    text = _TABULAR.sub(lambda m: _rows(m.group("body")), text)
    text = _DROP_ENVIRONMENTS.sub(" ", text)
    text = _ABSTRACT.sub("\n\nAbstract\n\n", text)
    text = re.sub(r"\\end\s*\{abstract\}", "\n\n", text)
    text = _expand(text, macros)
    text = _CITEAUTHOR.sub(lambda m: _authors(m.group("keys")), text)
    text = _HEADINGS.sub(lambda m: f"\n\n{m.group(1)}\n\n", text)
    text = _HREF.sub(r"\1", text)
    text = _CITE.sub("", text)
    text = _DROP_WITH_ARGS.sub("", text)
    text = _ACCENT.sub(r"\1", text)
    for pattern, replacement in _SYMBOLS:
        text = pattern.sub(replacement, text)
    text = _MATH_DELIMITERS.sub("", text)
    text = _undefined_names(text)
    text = _COMMAND.sub("", text)
    text = _BRACES.sub("", text).replace(_DOLLAR, "$")
    text = re.sub(r"[ \t]+", " ", text)
    # a row opening with an empty cell (a corner over the row labels) keeps it: " | 2K | 4K"
    text = re.sub(r" *\n(?: (?!\| ))?", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip(), title


def _float_text(float_source: str) -> str:
    """A figure or table as its captions, each a paragraph of its own (prose, read for claims), and its
    tables' rows as ``a | b | c`` lines (residue, as a Markdown table's are)."""
    parts = []
    for m in _CAPTION.finditer(float_source):
        caption = _braced(float_source, m.end())
        if caption.strip():
            parts.append(caption.strip())
    parts += [_rows(t.group("body")) for t in _TABULAR.finditer(float_source)]
    return "".join(f"\n\n{p}\n\n" for p in parts if p.strip()) or " "


# A cell spanning rows keeps its text in its first row ("\multirow{2}{*}{ResNet-50}" is "ResNet-50"); one
# spanning columns ("\multicolumn{2}{c}{Speedup}") stands in each column it spans, so the cells below a
# header keep their columns; a cell broken over lines ("\makecell{Time\\(s)}") is one cell of one row.
_MULTIROW = re.compile(r"\\multirow\*?\s*(?:\[[^\]]*\]\s*)?\{[^{}]*\}\s*(?:\[[^\]]*\]\s*)?\{[^{}]*\}\s*(?:\[[^\]]*\]\s*)?\{")
_MULTICOLUMN = re.compile(r"\\multicolumn\s*\{\s*(?P<n>\d+)\s*\}\s*\{[^{}]*\}\s*\{")
_LINES_IN_A_CELL = re.compile(r"\\(?:makecell|shortstack|thead|Centerstack|specialcell)\*?\s*(?:\[[^\]]*\]\s*)?\{")


def _spanning_cells(body: str) -> str:
    """``body`` with its cells that span rows, columns or lines written as plain cells (see above)."""
    for pattern, replace in (
        (_MULTIROW, lambda m, inner: inner),
        (_MULTICOLUMN, lambda m, inner: " & ".join([inner] * max(1, min(int(m.group("n")), 12)))),
        (_LINES_IN_A_CELL, lambda m, inner: re.sub(r"\\\\(?:\[[^\]]*\])?", " ", inner)),
    ):
        while m := pattern.search(body):
            inner = _braced(body, m.end())
            body = body[: m.start()] + replace(m, inner) + body[m.end() + len(inner) + 1 :]
    return body


def _rows(body: str) -> str:
    """A tabular's rows, one a line, cells joined by `` | ``; rules and empty rows left out."""
    rows = []
    for row in re.split(r"\\\\(?:\[[^\]]*\])?", _RULES.sub("", _spanning_cells(body))):
        cells = [" ".join(c.split()) for c in re.split(r"(?<!\\)&", row)]
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n\n" + "\n".join(rows) + "\n\n" if rows else " "


def _braced(source: str, start: int) -> str:
    """The text of a brace group whose opening brace is just before ``start``, nested groups included."""
    depth = 1
    for i in range(start, len(source)):
        ch = source[i]
        if ch == "{" and source[i - 1] != "\\":
            depth += 1
        elif ch == "}" and source[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                return source[start:i]
    return source[start:]


def _name_with_argument(body: str) -> str | None:
    """The name a one-argument macro writes before its argument ("Ravel{#1}" -> "Ravel"), or None: a macro
    that typesets its argument some other way (colours it, hides it) is no name."""
    m = _NAME_WITH_ARGUMENT.match(body.strip())
    return m.group("name") if m else None


def _expand(text: str, macros: dict[str, str]) -> str:
    macros = {k: _name_with_argument(v) or v.replace("\\xspace", "").strip() for k, v in macros.items()}
    macros = {k: v for k, v in macros.items() if "#" not in v}
    if not macros:
        return text
    names = "|".join(sorted(map(re.escape, macros), key=len, reverse=True))
    return re.sub(rf"\\({names})(?![A-Za-z])(?:\s*\{{\}})?", lambda m: macros[m.group(1)], text)


def _undefined_names(text: str) -> str:
    """Macros left after the file's own were expanded that read as words: a name used between words at least
    ``_NAME_MACRO_MIN`` times becomes its name in capitals, a Latin abbreviation its letters."""
    counts: dict[str, int] = {}
    for m in _MID_SENTENCE_MACRO.finditer(text):
        counts[m.group("n")] = counts.get(m.group("n"), 0) + 1
    words = {n: n.upper() for n, c in counts.items() if c >= _NAME_MACRO_MIN and n not in _TEXT_COMMANDS}
    words.update({n: v for n, v in _ABBREVIATIONS.items() if f"\\{n}" in text})
    if not words:
        return text
    names = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return re.sub(rf"\\({names})(?![A-Za-z])(?:\s*\{{\}})?", lambda m: words[m.group(1)], text)


def _authors(keys: str) -> str:
    names = []
    for key in keys.split(","):
        letters = re.match(r"\s*([A-Za-z]+)", key)
        if letters:
            names.append(letters.group(1).capitalize())
    return " and ".join(names)


def _title(source: str) -> str | None:
    found = _TITLE.search(source)
    if not found:
        return None
    depth, i = 1, found.end()
    while i < len(source) and depth:
        depth += {"{": 1, "}": -1}.get(source[i], 0)
        i += 1
    raw = source[found.end() : i - 1 if depth == 0 else min(len(source), found.end() + 300)]
    text, _ = tex_to_text(raw.replace("\n", " ")) if "\\title" not in raw else (raw, None)
    return " ".join(text.split()) or None
