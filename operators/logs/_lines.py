"""A block of whole log lines, viewed both as bytes and as an Arrow array, so that picking out the few lines
that matter (a regular expression over every line) runs in C++ (RE2) rather than in a Python loop."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

#: A terminal's escape sequence (colours, cursor moves), also as a pager shows it in a pasted excerpt (``less``
#: prints the escape byte as ``ESC``, ``cat -v`` as ``^[``).
_ANSI = re.compile(rb"(?:\x1b|ESC|\^\[)\[[0-9;?]*[A-Za-z]")


@dataclass(frozen=True)
class PrefixStyle:
    """How each line of a multi-process log is prefixed with its rank (torchrun, srun -l, mpirun)."""

    name: str
    pattern: re.Pattern[str]  # group "rank" when the prefix carries one


PREFIX_STYLES = (
    PrefixStyle("torchrun", re.compile(r"^\[(?:rank|default|worker|trainer)(?P<rank>\d+)\]:")),
    PrefixStyle("mpirun", re.compile(r"^\[\d+,(?P<rank>\d+)\]<std(?:out|err)>:")),
    PrefixStyle("srun", re.compile(r"^\s{0,6}(?P<rank>\d{1,5}): ")),
    PrefixStyle("pdsh", re.compile(r"^(?P<host>[A-Za-z][\w-]*\d[\w.-]*): ")),
)
#: Any rank prefix, for lines of logs whose style was not detected (a stray ``[rank0]:`` line).
ANY_RANK_PREFIX = re.compile(r"^\[(?:rank|default)(?P<rank>\d+)\]:")


#: A logger's level word.
_LEVEL = r"(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL|TRACE|SUCCESS|NOTICE)"
#: Layers that wrap a log's own text, outermost first: a markdown quote of a pasted log, a log viewer's line
#: number, a markdown list's number, a host name (pdsh, some launchers), a date stamp put in front by a logger or
#: ``ts``, the tags that collectors put on every line they pass on (Ray's worker tag, docker compose's service
#: name, ``kubectl logs --prefix``'s pod and container) and the headers loggers write (a level tag, Python's
#: logging in its usual set-ups, glog's). A file's prefix is the layers (and the one rank style) that at least a
#: third of its lines carry, in any order. Each entry: the pattern, and an example line it peels
#: (``tests/unit/test_logs_line_wrappers.py`` reads every one through ``parse_log``).
_LAYER_TABLE = {
    "quote": (r">[ \t]?", "> step 10 loss 2.5"),
    "lineno": (r"\[\d{1,9}\][ \t]", "[12] step 10 loss 2.5"),
    # a markdown list's numbers (``1.  ``, ``2.  ``) a pasted excerpt was given, an emphasis mark glued to one
    "listno": (r"_?\d{1,4}\.[ \t]+", "3.  step 10 loss 2.5"),
    "host": (r"[A-Za-z][\w-]*\d[\w.-]*: ", "gpu-node07: step 10 loss 2.5"),  # pdsh, clush: the node's name
    "date": (
        # 2024-05-06 or, as PaddlePaddle's tools print it, [2024/05/06 07:08:09]; month first as Python's logging
        # is often told to print it (``datefmt="%m/%d/%Y %H:%M:%S"``, the Hugging Face examples' and nanotron's)
        r"[ \t]*\[?(?:\d{4}(?:-\d{2}-\d{2}|/\d{2}/\d{2})|\d{2}/\d{2}/\d{4})[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?"
        r"(?:Z|[+-]\d{2}:?\d{2})?\]?:?(?:[ \t]+|$)",
        "2024-05-06 07:08:09,123 step 10 loss 2.5",
    ),
    # Ray forwards each worker's output tagged with its actor (or task) and process: ``(RayTrainWorker
    # pid=4242, ip=10.0.0.1)``, ``(pid=4242)``
    "ray": (r"\((?:[\w.-]+ )?pid=\d+(?:, ip=[\d.]+)?\)[ \t]", "(RayTrainWorker pid=4242, ip=10.0.0.1) step 10 loss 2.5"),
    # docker compose: the service's container name, padded, and a bar
    "compose": (r"[A-Za-z][\w.-]*[-_]\d+[ \t]+\|[ \t]?", "trainer-1  | step 10 loss 2.5"),
    "pod": (r"\[pod/[\w.-]+/[\w.-]+\][ \t]", "[pod/trainer-0/main] step 10 loss 2.5"),
    # a logger's level with the process's coordinates (nanotron: ``[INFO|DP=0|PP=0|TP=0]:``): the ranks of a
    # parallel layout, no values of the run
    "level": (r"\[(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)\|[\w=|.,-]{1,80}\]:?[ \t]",
              "[INFO|DP=0|PP=1|TP=0]: step 10 loss 2.5"),
    # Python's logging, as its formats are usually set: ``- INFO - __main__ - `` after the date (the Hugging
    # Face examples', MMEngine's ``- mmdet - INFO - ``), ``INFO:__main__:`` (``basicConfig``'s default), loguru's
    # ``| INFO     | train:main:42 - ``, rich's handler ``[12/06/26 10:00:00] INFO     ``
    "logger": (rf"-[ \t]+(?:{_LEVEL}[ \t]+-[ \t]+[\w.<>-]+|[\w.<>-]+[ \t]+-[ \t]+{_LEVEL})[ \t]+-[ \t]",
               "2024-05-06 07:08:09,123 - INFO - __main__ - step 10 loss 2.5"),
    "pylevel": (rf"{_LEVEL}:[\w.<>-]*:[ \t]?", "INFO:__main__:step 10 loss 2.5"),
    "loguru": (rf"\|[ \t]*{_LEVEL}[ \t]*\|[ \t]*[\w.<>-]+:[\w.<>-]+:\d+[ \t]+-[ \t]",
               "2024-05-06 07:08:09.123 | INFO     | train:main:42 - step 10 loss 2.5"),
    "rich": (rf"\[(?:\d{{2}}/\d{{2}}/\d{{2,4}} )?\d{{2}}:\d{{2}}:\d{{2}}\][ \t]+{_LEVEL}[ \t]+",
             "[05/06/24 07:08:09] INFO     step 10 loss 2.5"),
    # glog's (absl's) header, but not a FATAL line's: the event rules read that one as it is
    "glog": (r"[IWE]\d{4} \d{2}:\d{2}:\d{2}\.\d{6}[ \t]+\d+ [\w.-]+:\d+\][ \t]",
             "I1203 12:00:00.123456  1234 train.py:42] step 10 loss 2.5"),
}
_LAYERS = {name: pattern for name, (pattern, _example) in _LAYER_TABLE.items()}
#: Each layer's example line, for the test that reads them through ``parse_log``.
LAYER_EXAMPLES = {name: example for name, (_pattern, example) in _LAYER_TABLE.items()}
_LAYER_RE = {name: re.compile(pattern) for name, pattern in _LAYERS.items()}
_MAX_LAYERS = 4


def detect_prefix(head_lines: list[str]) -> PrefixStyle | None:
    """The prefix at least a third of the head's non-empty lines carry, if any: one of ``PREFIX_STYLES``, or
    a ``learnt`` style when wrapping layers (quote, line number, date stamp) come with or instead of it."""
    lines = [ln for ln in head_lines if ln.strip()]
    if not lines:
        return None
    counts = dict.fromkeys((*_LAYERS, *(s.name for s in PREFIX_STYLES)), 0)
    styles = {s.name: s.pattern for s in PREFIX_STYLES if "rank" in s.pattern.groupindex}
    peeled: dict[str, list[str]] = {"lineno": [], "listno": []}  # what those layers read, line by line
    for line in lines:
        for name, text in _peel(line, {**_LAYER_RE, **styles}):
            counts[name] += 1
            if name in peeled:
                peeled[name].append(text)
    common = [n for n, c in counts.items() if c * 3 >= len(lines) and c >= 2]
    if "lineno" in common and not _numbers_every_line(peeled["lineno"]):
        common.remove("lineno")  # ``[10]\ttraining's logloss``: a round counted in brackets, no viewer's numbering
    if "listno" in common and not _numbers_every_line(peeled["listno"]):
        common.remove("listno")  # ``1. 5 2.0``: a number that opens a line of numbers, no list's numbering
    if "srun" in common and _counts_up(lines, styles["srun"]):
        common.remove("srun")  # `` 1000: 2.31, 2.40 avg loss``: an iteration counter opens each line, no rank
    rank_styles = [n for n in common if n in styles]
    rank = max(rank_styles, key=lambda n: counts[n]) if rank_styles else None
    return _layered([n for n in common if n in _LAYERS], rank)


def _layered(layers: list[str], rank: str | None) -> PrefixStyle | None:
    """The style of ``layers`` (names of ``_LAYERS``) and the rank style ``rank``, in any order."""
    rank_style = next((s for s in PREFIX_STYLES if s.name == rank), None)
    if not layers:
        return rank_style
    parts = [_LAYERS[n] for n in layers]
    if rank_style is not None:
        parts.append(rank_style.pattern.pattern.lstrip("^"))
    name = "+".join([*layers, *([rank] if rank_style else [])])
    # blanks may part one layer from the next (``[rank0]: > ...``); those after the last stay the line's own
    return PrefixStyle(name, re.compile(f"^(?:[ \\t]*(?:{'|'.join(parts)})){{0,{_MAX_LAYERS}}}"))


#: Layers that say which tool printed a line: glog's header names its source file and line (``solver.cpp:219]``,
#: ``logging_writer.py:35]``), a level tag its logger's format (``[INFO|DP=0|PP=0|TP=0]:``, nanotron's), a
#: Python logger its name (``- mmdet - INFO -``, ``INFO:tensorflow:``, loguru's module).
_TOOL_EVIDENCE = ("glog", "level", "logger", "pylevel", "loguru")


def for_detection(style: PrefixStyle | None) -> list[PrefixStyle | None]:
    """The parts of ``style`` to take off the text that tools are recognised by, the first kept most: all of it
    but the layers that say which tool wrote the line (``_TOOL_EVIDENCE``); then also one of those (glog's
    header over a logger's ``INFO:tensorflow:``); then all of it. A style without such a layer is one part."""
    names = style.name.split("+") if style is not None else []
    evidence = [n for n in names if n in _TOOL_EVIDENCE]
    if not evidence:
        return [style]
    ranks = [n for n in names if n not in _LAYERS]
    rank = ranks[0] if ranks else None
    plain = [n for n in names if n in _LAYERS and n not in _TOOL_EVIDENCE]
    parts = [_layered(plain, rank)]
    if len(evidence) > 1:
        parts += [_layered([*plain, n], rank) for n in evidence]
    return [*parts, style]


def _counts_up(lines: list[str], pattern: re.Pattern[str]) -> bool:
    """Whether the numbers a rank-like prefix carries rise on every line over six or more lines: srun's ranks
    repeat as the processes' lines interleave; a loop's iteration counter never does."""
    values = [int(m.group("rank")) for line in lines if (m := pattern.match(line))]
    return len(values) >= 6 and all(a < b for a, b in zip(values, values[1:], strict=False))


_NUMBER = re.compile(r"\d+")


def _numbers_every_line(numberings: list[str]) -> bool:
    """A viewer's line numbers (or a list's: ``numberings``, as the layer read them, line by line) go up by one
    from a numbered line to the next (most of the time): a counter printed in brackets by the log itself (a
    boosting round every 10, a writer's step after glog's header) does not, and no viewer numbers a line 0,
    where a counter of rounds from its first (``[0]\ttrain-rmse:0.61``) starts."""
    numbers = [int(m[0]) for text in numberings if (m := _NUMBER.search(text))]
    if 0 in numbers:
        return False
    steps = [b - a for a, b in zip(numbers, numbers[1:], strict=False)]
    return not steps or sum(d == 1 for d in steps) * 2 > len(steps)


_BLANKS = re.compile(r"[ \t]*")


def _peel(line: str, layers: dict[str, re.Pattern[str]]) -> list[tuple[str, str]]:
    """The layers found at the start of ``line``, outermost first: each one's name and the text it covers."""
    seen: list[tuple[str, str]] = []
    pos = 0
    for _ in range(_MAX_LAYERS):
        for name, pattern in layers.items():
            if any(name == done for done, _text in seen):
                continue
            m = pattern.match(line[pos:])  # (sliced: the rank styles anchor at ``^``)
            if m and m.end() > 0:
                seen.append((name, m[0]))
                pos = _BLANKS.match(line, pos + m.end()).end()  # ``[rank0]: > ...``: a layer's space before the next
                break
        else:
            break
    return seen


def prefix_style(name: str | None, pattern: str | None = None) -> PrefixStyle | None:
    """The style a record names (a learnt one travels with its pattern)."""
    if not name:
        return None
    known = next((s for s in PREFIX_STYLES if s.name == name), None)
    if known is not None or not pattern:
        return known
    return PrefixStyle(name, re.compile(pattern))


def split_prefix(text: str, style: PrefixStyle | None) -> tuple[int | None, str]:
    """``(rank, rest of the line)``; the rank is ``None`` when the line carries none."""
    pattern = style.pattern if style is not None else ANY_RANK_PREFIX
    m = pattern.match(text)
    if not m and style is not None and style.name != "torchrun":
        m = ANY_RANK_PREFIX.match(text)
    rank = m.groupdict().get("rank") if m else None
    rest = text[m.end() :] if m else text
    if tags_ranks(style) and rest[:1] == " " and rest[1:2] not in (" ", "\t"):
        rest = rest[1:]  # the space a rank's tag is printed with (``[rank1]: Traceback``); indentation stays
    return (int(rank) if rank is not None else None), rest


def tags_ranks(style: PrefixStyle | None) -> bool:
    """Whether ``style`` tags lines with their rank (torchrun, mpirun, srun): a tag printed with a space after
    it on some lines (``[rank1]: Traceback``) and none on others (``[rank0]:[W reducer.cpp]``), so that a
    line's one leading space is the tag's, not the line's."""
    return style is not None and "rank" in style.pattern.groupindex


_ANCHOR = re.compile(r"(?<![\[\\])\^")


def strip_prefixes(lines: list[str], style: PrefixStyle | None) -> list[str]:
    """``lines`` without their prefixes (for detection, which reads a file's own text)."""
    if style is None:
        return lines
    # the one space that parts a prefix from the text (``[rank0]: iter 10``) goes too: markers anchor at the text
    return [split_prefix(line, style)[1].removeprefix(" ") for line in lines]


def _re2(style: PrefixStyle) -> str:
    """``style``'s pattern as RE2 takes it (no named groups), anchored at the line's start."""
    return "^(?:" + re.sub(r"\(\?P<\w+>", "(?:", style.pattern.pattern.lstrip("^")) + ")"


def _without_prefix(lines: pa.Array, style: PrefixStyle) -> pa.Array:
    """``lines`` as ``split_prefix`` gives their text."""
    bodies = pc.replace_substring_regex(lines, _re2(style), b"", max_replacements=1)
    if tags_ranks(style):
        bodies = pc.replace_substring_regex(bodies, r"^ ([^ \t]|$)", r"\1", max_replacements=1)
    return bodies


def after_prefix(pattern: str, style: PrefixStyle | None) -> str:
    """An RE2 pattern whose ``^`` anchors also match right after a rank prefix of ``style`` (the
    vectorised line selection sees lines with their prefixes)."""
    if style is None or "^" not in pattern:
        return pattern
    prefix = re.sub(r"\(\?P<\w+>", "(?:", style.pattern.pattern.lstrip("^"))
    return _ANCHOR.sub(lambda _m: f"^(?:{prefix})?", pattern)


def strip_ansi(data: bytes) -> bytes:
    shown = data.find(b"ESC[") >= 0 or data.find(b"^[[") >= 0
    return _ANSI.sub(b"", data) if shown or data.find(b"\x1b") >= 0 else data  # a one-byte find is a memchr


#: The source file and line rich's logging handler right-aligns after a message (``   train.py:42``).
_RICH_SOURCE = re.compile(rb"[ \t]{2,}[\w.-]+\.py:\d+[ \t]*$", re.M)


def normalize(data: bytes) -> bytes:
    """A log's bytes as every reader sees them: without terminal escapes, and with ``\\n`` line ends where the
    file has Windows' ``\\r\\n``. Neither says anything, but each hides a line's last value or its first word
    from a pattern anchored there. A lone ``\\r`` (a progress bar redrawn on one line) stays. Lines keep their
    numbers; each search is a ``memchr`` or ``memmem``, and a clean file is not copied. (Blanks at the ends of
    lines go in ``LineBlock``, after a console's wrapped records are joined: ``_wrapped`` reads a record cut at
    a space by them.)"""
    data = strip_ansi(data)
    return data.replace(b"\r\n", b"\n") if data.find(b"\r") >= 0 else data  # (a one-byte find is a memchr)


def _without_end_blanks(data: bytes, newlines: np.ndarray) -> bytes:
    """``data`` without the blanks at the ends of its lines (``newlines``: where its ``\\n`` are), or ``data``
    itself where no line ends in one; only the lines that do are cut (a regular expression over the whole
    block would try every run of spaces in it)."""
    buf = np.frombuffer(data, dtype=np.uint8)
    ends = newlines if not len(buf) or buf[-1] == 10 else np.append(newlines, len(buf))
    ends = ends[ends > 0]
    before = buf[ends - 1]
    blank = ends[(before == 32) | (before == 9)]
    if not len(blank):
        return data
    pieces, start = [], 0
    for end in blank.tolist():
        cut = end
        while cut > start and data[cut - 1] in (32, 9):
            cut -= 1
        pieces.append(data[start:cut])
        start = end
    pieces.append(data[start:])
    return b"".join(pieces)


class LineBlock:
    """Whole lines ``first_line_no, first_line_no + 1, ...`` of a file, starting at byte ``byte_offset``.

    Lines are searched (``matching``, ``containing``) in their own text, after the ``prefix`` that wraps each
    (a rank's tag, a collector's, a date stamp): a word in a prefix (``[rank0]:``, ``(RayTrainWorker ...)``)
    is not the line's, and a pattern anchored at a line's start anchors at its own text. ``raw``, ``line``
    and ``gather`` give lines as the file holds them, prefix and all (its rank, its time)."""

    def __init__(
        self,
        data: bytes,
        first_line_no: int,
        byte_offset: int = 0,
        prefix: PrefixStyle | None = None,
        *,
        normalized: bool = False,  # the caller ran ``normalize`` already (it reads the lines' ends before)
    ):
        data = data if normalized else normalize(data)
        if prefix is not None and "rich" in prefix.name.split("+"):
            data = _RICH_SOURCE.sub(b"", data)  # rich's handler prints the source at a line's right end
        newlines = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
        self.data = _without_end_blanks(data, newlines)
        if self.data is not data:
            newlines = np.flatnonzero(np.frombuffer(self.data, dtype=np.uint8) == 10)
        self.first_line_no = first_line_no
        self.byte_offset = byte_offset
        ends = newlines + 1
        if not len(ends) or ends[-1] != len(self.data):
            ends = np.append(ends, len(self.data)) if self.data else ends
        self.starts = np.concatenate(([0], ends)).astype(np.int64)
        self.n = len(self.starts) - 1
        offsets = pa.py_buffer(self.starts.astype(np.int32)) if len(self.data) < 2**31 else None
        if offsets is not None:
            self.arrow = pa.BinaryArray.from_buffers(
                pa.binary(), self.n, [None, offsets, pa.py_buffer(self.data)]
            )
        else:  # a block over 2 GiB; never produced by the readers, kept correct anyway
            self.arrow = pa.LargeBinaryArray.from_buffers(
                pa.large_binary(), self.n, [None, pa.py_buffer(self.starts), pa.py_buffer(self.data)]
            )
        #: each line's own text: without its prefix, where the file has one
        self.body = self.arrow if prefix is None or not self.n else _without_prefix(self.arrow, prefix)

    def __len__(self) -> int:
        return self.n

    def raw(self, i: int) -> bytes:
        return self.data[self.starts[i] : self.starts[i + 1]]

    def line(self, i: int) -> str:
        """Line ``i`` as text, without its line break; a tqdm bar's carriage returns are kept."""
        return self.raw(i).decode("utf-8", "replace").rstrip("\r\n")

    def line_no(self, i: int) -> int:
        return self.first_line_no + i

    def offset(self, i: int) -> int:
        """Byte offset of line ``i`` in the file."""
        return self.byte_offset + int(self.starts[i])

    def matching(self, pattern: str) -> np.ndarray:
        """Indices of the lines an RE2 ``pattern`` matches somewhere."""
        if not self.n:
            return np.empty(0, dtype=np.int64)
        mask = pc.match_substring_regex(self.body, pattern)
        return np.asarray(pc.indices_nonzero(mask), dtype=np.int64)

    def matching_among(self, indices: np.ndarray, pattern: str) -> set[int]:
        """The indices among ``indices`` whose lines an RE2 ``pattern`` matches (one pass over those lines only)."""
        if not len(indices):
            return set()
        lines = self.body.take(pa.array(indices, type=pa.int64()))
        mask = np.asarray(pc.match_substring_regex(lines, pattern).fill_null(False), dtype=bool)
        return set(indices[mask].tolist())

    def containing(self, literal: str) -> np.ndarray:
        if not self.n:
            return np.empty(0, dtype=np.int64)
        mask = pc.match_substring(self.body, literal)
        return np.asarray(pc.indices_nonzero(mask), dtype=np.int64)

    def gather(self, indices: np.ndarray) -> tuple[bytes, np.ndarray]:
        """The lines at ``indices`` concatenated, and where each starts in that buffer (plus the end)."""
        taken = self.arrow.take(pa.array(indices, type=pa.int64()))
        offsets = np.frombuffer(taken.buffers()[1], dtype=np.int32 if taken.type == pa.binary() else np.int64)
        offsets = offsets[taken.offset : taken.offset + len(taken) + 1]
        start, end = int(offsets[0]), int(offsets[-1])
        data = taken.buffers()[2].to_pybytes()[start:end] if len(taken) else b""
        return data, (offsets - start).astype(np.int64)
