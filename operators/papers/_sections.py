"""Document structure of a paper's text as the readers leave it: sections, captions and figure/table residue.

Every reader puts headings on lines of their own (LaTeX ``\\section``, Markdown ``#``, PDF text lines), so
one pass over the lines finds them: a line naming a known section ("Abstract", "3 Evaluation", "II.
RESULTS", "参考文献", "Abstract—...") starts it; other numbered short lines ("2 Setup") start a ``body``
section. Lines that carry no prose are residue: captions ("Table 1: ...", "图3"), axis ticks ("100% 80%
60%") and flattened table rows ("355M 19.31 45.18%"). Claims are only taken from prose outside the
references and the acknowledgements; each keeps the section it was found in.

Only lines that hold a candidate claim are classified (``Structure.residue``), so an abstract costs one
search for a line break.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from assay.operators.papers._clause import RESULT_HEADER as _RESULT_HEADER
from assay.operators.papers._clause import SETTING_HEADER as _SETTING_HEADER

ABSTRACT, BODY, REFERENCES = "abstract", "body", "references"
#: Thanks to funders, centres and colleagues: no claims, and no name there is the paper's own system.
ACKNOWLEDGEMENTS = "acknowledgements"
_KINDS = [
    ("abstract", r"abstract|摘\s*要"),
    ("introduction", r"introduction|引\s*言|介绍|绪论|前言|概述"),
    (
        "evaluation",
        r"(?:experimental\s+)?(?:evaluation|experiments?|results?)(?:\s+and\s+\w+)?|performance\s+(?:evaluation|results)|"
        r"实验(?:结果|评估|与分析|分析)?|评估|评测|性能评估|实验结果",
    ),
    ("conclusion", r"conclusions?|concluding\s+remarks|discussion|summary|future\s+work|结论|总结|结语|小结"),
    ("references", r"references|bibliography|参考文献|引用"),
    (ACKNOWLEDGEMENTS, r"acknowledge?ments?|致谢|鸣谢"),
    ("appendix", r"appendix|appendices|附录"),
    ("related work", r"related\s+work|background|prior\s+work|相关工作|背景"),
]
_NUMBER = (
    r"(?:(?:\d+(?:\.\d+)*|[IVX]+|[A-H])\.?|[一二三四五六七八九十]+[、.]|第[一二三四五六七八九十\d]+[章节])"
)
_KNOWN = "|".join(f"(?P<k{i}>{p})" for i, (_, p) in enumerate(_KINDS))
# A heading line: an optional number, a known section name, optional ":" -- or an inline "Abstract—text".
_HEADING = re.compile(
    rf"^[ \t]*(?:{_NUMBER}[ \t]*)?(?:{_KNOWN})[ \t]*[:：.]?[ \t]*$"
    rf"|^[ \t]*(?P<inline>abstract)[ \t]*(?:[—–:.]|-{{1,2}})[ \t]*(?=\S)"
    rf"|^[ \t]*(?P<numbered>\d+(?:\.\d+)*\.?|[IVX]+\.)[ \t]+(?P<title>[A-Z][A-Za-z-]*(?:[ \t]+[A-Za-z-]+){{0,5}})[ \t]*$",
    re.M | re.I,
)
# A sentence's subject pronoun: a numbered line starting so is a list item, not a heading.
_SENTENCE_START = re.compile(r"(?:we|our|it|its|they|their|this|these|i|you)\b", re.I)
# A heading's section number: the top-level number, and the rest of a sub-section's ("6" and ".2").
_CHAPTER = re.compile(r"[ \t]*(\d+)((?:\.\d+)+)?(?![\d.]*\d)")
#: How far from the top a text before its first heading is still its abstract (a title block and an abstract).
_ABSTRACT_REACH = 4000
# A caption at the start of a line: "Figure 3: ...", "Fig. 2.", "Table 1 -", "表2 ...", "图 3：".
_CAPTION_LEAD = r"[ \t]*(?:(?:Figure|Fig\.|Table|Tab\.)[ \t]*\d+[a-z]?[ \t]*[:.|–—-]|[图表][ \t]*\d+[ \t:：.]?)"
_CAPTION = re.compile(rf"(?:^|(?<=[.!?]\s)){_CAPTION_LEAD}", re.I)
#: A paragraph that opens with a caption ("Figure 4. ...", "Table 2: ...", "图3"), matched where it starts.
_CAPTION_OPENS = re.compile(_CAPTION_LEAD, re.I)
_TOKEN = re.compile(r"\S+")
_PROSE_WORD = re.compile(
    r"^(?:the|of|and|is|are|was|were|than|by|to|with|we|our|on|in|that|this|it|its|as|for|from|at|an?|"
    r"over|which|while|be|has|have|can)$",
    re.I,
)


_ROW_CHARS = 160
#: How far back a caption's paragraph may start (characters).
_CAPTION_REACH = 1200
_LINE_WINDOW = 400
_CELL_CHARS = 12


class Structure:
    """Sections (start offsets and names) and the line-level residue test of one document's text."""

    def __init__(self, text: str):
        self.text = text
        self.starts: list[int] = []
        self.names: list[str] = []
        self.heading_ends: list[int] = []
        if "\n" in text:
            self._find_headings()
        # A text without headings is an abstract when short (an abstract, a blog post's summary).
        self.default = ABSTRACT if not self.starts and len(text) < _ABSTRACT_REACH else BODY

    def _find_headings(self) -> None:
        chapters: dict[str, str] = {}  # a top-level section's number: its name ("6" -> evaluation)
        for m in _HEADING.finditer(self.text):
            number = _CHAPTER.match(m.group())
            if m.group("inline"):
                name = ABSTRACT
            elif m.group("numbered"):
                title = m.group("title")
                name = section_kind(title) or BODY
                if name == BODY and (
                    len(title) > 40 or title.endswith((",", ";")) or _SENTENCE_START.match(title)
                ):
                    continue  # a list item wrapped in prose ("II. We design a scheduler that"), no heading
                if name == BODY and number and number.group(2):  # "6.2 End-to-End Performance"
                    name = chapters.get(number.group(1), BODY)  # is in section 6's kind
            else:
                name = next(_KINDS[int(k[1:])][0] for k, v in m.groupdict().items() if k[0] == "k" and v)
            if name == "related work":
                name = BODY
            if number and not number.group(2):
                chapters[number.group(1)] = name
            self.starts.append(m.start())
            self.names.append(name)
            self.heading_ends.append(m.end())

    def section(self, pos: int) -> str:
        i = bisect.bisect_right(self.starts, pos) - 1
        if i < 0:
            # Before the first heading: the title block, or an abstract written without its heading -- an
            # abstract's length from the top; a blog's long run of prose before its first known heading
            # ("## Performance results" far down) is its body.
            if not self.starts:
                return self.default
            if self.names[0] == ABSTRACT:
                return "front"
            return ABSTRACT if pos < _ABSTRACT_REACH else BODY
        return self.names[i]

    def captioned(self, pos: int) -> bool:
        """Whether ``pos`` is in a paragraph that opens with a caption (``Figure 4. ...``): a float's caption a
        PDF's page set in after the acknowledgements still says what the evaluation found."""
        blank = self.text.rfind("\n\n", max(0, pos - _CAPTION_REACH), pos)
        if blank < 0 and pos > _CAPTION_REACH:
            return False  # a paragraph longer than a caption's
        return _CAPTION_OPENS.match(self.text, blank + 2 if blank >= 0 else 0) is not None

    def residue(self, pos: int) -> bool:
        """Whether the line at ``pos`` is a heading, caption, axis or table row rather than prose."""
        # Only a window around ``pos`` is read: a line longer than a table row is prose, and a 50 MB line
        # with thousands of claims must not be scanned once per claim.
        floor = max(0, pos - _LINE_WINDOW)
        lo = self.text.rfind("\n", floor, pos) + 1 or floor
        hi = self.text.find("\n", pos, pos + _LINE_WINDOW)
        hi = min(len(self.text), pos + _LINE_WINDOW) if hi < 0 else hi
        i = bisect.bisect_right(self.starts, pos) - 1
        if i >= 0 and pos < self.heading_ends[i]:
            return True
        for m in _CAPTION.finditer(self.text, lo, pos + 1):
            if m.start() <= pos:
                return True
        return _table_like(self.text[lo:hi]) or self._cell_per_line(lo, hi)

    def _cell_per_line(self, lo: int, hi: int) -> bool:
        """Whether the line ``lo:hi`` is one cell of a table a PDF reader flattened one cell a line: a short
        line without function words among short lines ("XL", "75% top1 acc.", "2%", "SGD" under each
        other, five or more in a run). Prose wraps at a column's width, so at most a paragraph's last line is
        that short; a blank line is no cell, so a list written one item a paragraph is not a table."""
        line = self.text[lo:hi]
        # A row of a results table ("ResNet-18 0.94% 0.17%") holds its label and several numbers.
        if not _is_cell(line) or len(_NUMBER_CELL.findall(line)) > 1:
            return False
        if self._run(lo - 1, -1, _is_cell) + self._run(hi, 1, _is_cell) < _CELL_NEIGHBOURS:
            return False
        # Only a table whose header names settings ("LR Scaler", "Validation" over "75% top1 acc.") loses its
        # cells; a results table ("Overhead with lease renewals" over "0.17%") and one whose header says
        # neither keep them as claims.
        head = self._cells_above(lo)
        return bool(_SETTING_HEADER.search(head)) and not _RESULT_HEADER.search(head)

    def _run(self, at: int, step: int, test: Callable[[str], bool]) -> int:
        """How many lines next to each other pass ``test`` from the line break at ``at`` on, upwards
        (``step`` -1) or downwards (1), at most ``_CELL_NEIGHBOURS``."""
        n = 0
        while n < _CELL_NEIGHBOURS and 0 < at < len(self.text):
            if step < 0:
                start = self.text.rfind("\n", max(0, at - _LINE_WINDOW), at) + 1
                line, at = self.text[start:at], start - 1
            else:
                end = self.text.find("\n", at + 1, at + 1 + _LINE_WINDOW)
                end = len(self.text) if end < 0 else end
                line, at = self.text[at + 1 : end], end
            if not test(line):
                break
            n += 1
        return n

    def _cells_above(self, lo: int) -> str:
        """The cell lines above the line starting at ``lo``, up to the first line that is no cell."""
        out: list[str] = []
        end = lo - 1
        for _ in range(_CELL_RUN):
            if end <= 0:
                break
            start = self.text.rfind("\n", max(0, end - _LINE_WINDOW), end) + 1
            line = self.text[start:end]
            if not _short(line):  # a header cell may hold a function word ("Overhead with")
                break
            out.append(line)
            end = start - 1
        return "\n".join(reversed(out))

    def clip(self, span: tuple[int, int], pos: int) -> tuple[int, int]:
        """A sentence span cut at the heading lines around ``pos`` (a heading has no full stop, so the
        sentence splitter runs it into the first sentence of its section)."""
        lo, hi = span
        i = bisect.bisect_right(self.starts, pos) - 1
        if i >= 0 and lo < self.heading_ends[i] <= pos:
            lo = self.heading_ends[i]
            while lo < hi and self.text[lo].isspace():
                lo += 1
        if i + 1 < len(self.starts) and self.starts[i + 1] < hi:
            hi = self.starts[i + 1]
            while hi > lo and self.text[hi - 1].isspace():
                hi -= 1
        return lo, hi


def section_kind(title: str) -> str | None:
    """The kind of section a heading's title names (``abstract``, ``evaluation``, ...), or None."""
    m = re.fullmatch(_KNOWN, title.strip(), re.I)
    if not m:
        return None
    return next(_KINDS[int(k[1:])][0] for k, v in m.groupdict().items() if v)


#: Cell lines next to a line (above and below together) that make it one cell of a table flattened one
#: cell a line.
_CELL_NEIGHBOURS = 5
_CELL_LINE = 30
#: Lines above a cell read for its table's header.
_CELL_RUN = 80
_NUMBER_CELL = re.compile(r"(?<!\S)[<>~≈±]?\d[\d.,]*\s?(?:%|x|×)?(?!\S)")


def _short(line: str) -> bool:
    return 0 < len(_TOKEN.findall(line)) <= 4 and len(line) <= _CELL_LINE


def _is_cell(line: str) -> bool:
    return _short(line) and not any(_PROSE_WORD.match(t.strip("(),.;:")) for t in _TOKEN.findall(line))


#: The punctuation that parts Chinese (and Japanese) clauses: no table row holds it.
_CJK_CLAUSE = re.compile(r"[，。；、]")
#: The words of a Chinese comparison: against what (相较于, 相比, 与...相比) and how it changed.
_CJK_COMPARISON = re.compile(r"相较于|相比|比起|对比")
#: A Chinese sentence's closing mark at the end of a line.
_CJK_SENTENCE_END = re.compile(r"[。！？]\s*$")


def _prose_cell(cell: str) -> bool:
    """A table cell that is a sentence: eight words or more, two of them function words or verbs of prose."""
    tokens = _TOKEN.findall(cell)
    return len(tokens) >= 8 and sum(bool(_PROSE_WORD.match(t.strip("(),.;:"))) for t in tokens) >= 2


def _table_like(line: str) -> bool:
    """Mostly numbers and no function words: a flattened table row or a figure's axis."""
    if " | " in line and len(line) <= _ROW_CHARS:  # cells of a table (Markdown, text converted from HTML)
        # ... unless a cell is a sentence of its own (a README's table of integrations: "Train it ~20% faster
        # with over 40% memory reduction on ... using 4 A100s"): that cell is prose
        return not any(_prose_cell(cell) for cell in line.split(" | "))
    if len(line) > _ROW_CHARS:  # a paragraph, not a row (Chinese prose has few spaces to split on)
        return False
    if _CJK_CLAUSE.search(line) and _CJK_COMPARISON.search(line):
        return False  # a Chinese sentence comparing ("RPS 相较于 fp16 提升近 30%"), Latin names and numbers in it
    if _CJK_SENTENCE_END.search(line):
        return False  # a Chinese sentence, closed by its full stop ("在 8 卡 A100 上，显存减少了 41%。"): no cell ends so
    tokens = _TOKEN.findall(line)
    if len(tokens) < 3:
        return False
    # A cell is short: a long token with a digit is a run of prose without spaces (Chinese).
    numeric = sum(len(t) <= _CELL_CHARS and any(c.isdigit() for c in t) for t in tokens)
    if numeric < 3:
        return False
    share = numeric / len(tokens)
    if share >= 0.75:
        return True
    return share >= 0.4 and not any(_PROSE_WORD.match(t.strip("(),.;:")) for t in tokens)
