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


#: Layers that wrap a log's own text, outermost first: a markdown quote of a pasted log, a log viewer's line
#: number, a markdown list's number, a host name (pdsh, some launchers), a date stamp put in front by a logger or ``ts``. A file's
#: prefix is the layers (and the one rank style) that at least a third of its lines carry, in any order.
_LAYERS = {
    "quote": r">[ \t]?",
    "lineno": r"\[\d{1,9}\][ \t]",
    # a markdown list's numbers (``1.  ``, ``2.  ``) a pasted excerpt was given, an emphasis mark glued to one
    "listno": r"_?\d{1,4}\.[ \t]+",
    "host": r"[A-Za-z][\w-]*\d[\w.-]*: ",  # pdsh, clush, some launchers: the node's name
    "date": (
        # 2024-05-06 or, as PaddlePaddle's tools print it, [2024/05/06 07:08:09]
        r"[ \t]*\[?\d{4}(?:-\d{2}-\d{2}|/\d{2}/\d{2})[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?:?"
        r"(?:[ \t]+|$)"
    ),
}
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
    for line in lines:
        seen = _peel(line, {**_LAYER_RE, **styles})
        for name in seen:
            counts[name] += 1
    common = [n for n, c in counts.items() if c * 3 >= len(lines) and c >= 2]
    if "lineno" in common and not _numbers_every_line(lines):
        common.remove("lineno")  # ``[10]\ttraining's logloss``: a round counted in brackets, no viewer's numbering
    if "listno" in common and not _numbers_every_line(lines, _LISTNO):
        common.remove("listno")  # ``1. 5 2.0``: a number that opens a line of numbers, no list's numbering
    if "srun" in common and _counts_up(lines, styles["srun"]):
        common.remove("srun")  # `` 1000: 2.31, 2.40 avg loss``: an iteration counter opens each line, no rank
    rank_styles = [n for n in common if n in styles]
    rank = max(rank_styles, key=lambda n: counts[n]) if rank_styles else None
    layers = [n for n in common if n in _LAYERS]
    if not layers:
        return next((s for s in PREFIX_STYLES if s.name == rank), None)
    parts = [_LAYERS[n] for n in layers]
    if rank:
        parts.append(styles[rank].pattern.lstrip("^"))
    name = "+".join([*layers, *([rank] if rank else [])])
    return PrefixStyle(name, re.compile(f"^(?:{'|'.join(parts)}){{0,{_MAX_LAYERS}}}"))


def _counts_up(lines: list[str], pattern: re.Pattern[str]) -> bool:
    """Whether the numbers a rank-like prefix carries rise on every line over six or more lines: srun's ranks
    repeat as the processes' lines interleave; a loop's iteration counter never does."""
    values = [int(m.group("rank")) for line in lines if (m := pattern.match(line))]
    return len(values) >= 6 and all(a < b for a, b in zip(values, values[1:], strict=False))


_LINENO = re.compile(r"^(?:>[ \t]?)?\[(\d{1,9})\][ \t]")
_LISTNO = re.compile(r"^(?:>[ \t]?)?_?(\d{1,4})\.[ \t]+")


def _numbers_every_line(lines: list[str], numbering: re.Pattern[str] = _LINENO) -> bool:
    """A viewer's line numbers (or a list's) go up by one from a numbered line to the next (most of the time): a
    counter printed in brackets by the log itself (a boosting round every 10) does not, and no viewer numbers a
    line 0, where a counter of rounds from its first (``[0]\ttrain-rmse:0.61``) starts."""
    numbers = [int(m[1]) for line in lines if (m := numbering.match(line))]
    if 0 in numbers:
        return False
    steps = [b - a for a, b in zip(numbers, numbers[1:], strict=False)]
    return not steps or sum(d == 1 for d in steps) * 2 > len(steps)


def _peel(line: str, layers: dict[str, re.Pattern[str]]) -> list[str]:
    """The names of the layers found at the start of ``line``, outermost first."""
    seen: list[str] = []
    pos = 0
    for _ in range(_MAX_LAYERS):
        for name, pattern in layers.items():
            if name in seen:
                continue
            m = pattern.match(line[pos:])
            if m and m.end() > 0:
                seen.append(name)
                pos += m.end()
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
    if not m:
        if style is not None and style.name != "torchrun":
            m = ANY_RANK_PREFIX.match(text)
            if not m:
                return None, text
        else:
            return None, text
    rank = m.groupdict().get("rank")
    return (int(rank) if rank is not None else None), text[m.end() :]


_ANCHOR = re.compile(r"(?<![\[\\])\^")


def strip_prefixes(lines: list[str], style: PrefixStyle | None) -> list[str]:
    """``lines`` without their prefixes (for detection, which reads a file's own text)."""
    if style is None:
        return lines
    return [split_prefix(line, style)[1] for line in lines]


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


class LineBlock:
    """Whole lines ``first_line_no, first_line_no + 1, ...`` of a file, starting at byte ``byte_offset``."""

    def __init__(self, data: bytes, first_line_no: int, byte_offset: int = 0):
        self.data = strip_ansi(data)
        self.first_line_no = first_line_no
        self.byte_offset = byte_offset
        newlines = np.flatnonzero(np.frombuffer(self.data, dtype=np.uint8) == 10)
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
        mask = pc.match_substring_regex(self.arrow, pattern)
        return np.asarray(pc.indices_nonzero(mask), dtype=np.int64)

    def matching_among(self, indices: np.ndarray, pattern: str) -> set[int]:
        """The indices among ``indices`` whose lines an RE2 ``pattern`` matches (one pass over those lines only)."""
        if not len(indices):
            return set()
        lines = self.arrow.take(pa.array(indices, type=pa.int64()))
        mask = np.asarray(pc.match_substring_regex(lines, pattern).fill_null(False), dtype=bool)
        return set(indices[mask].tolist())

    def containing(self, literal: str) -> np.ndarray:
        if not self.n:
            return np.empty(0, dtype=np.int64)
        mask = pc.match_substring(self.arrow, literal)
        return np.asarray(pc.indices_nonzero(mask), dtype=np.int64)

    def gather(self, indices: np.ndarray) -> tuple[bytes, np.ndarray]:
        """The lines at ``indices`` concatenated, and where each starts in that buffer (plus the end)."""
        taken = self.arrow.take(pa.array(indices, type=pa.int64()))
        offsets = np.frombuffer(taken.buffers()[1], dtype=np.int32 if taken.type == pa.binary() else np.int64)
        offsets = offsets[taken.offset : taken.offset + len(taken) + 1]
        start, end = int(offsets[0]), int(offsets[-1])
        data = taken.buffers()[2].to_pybytes()[start:end] if len(taken) else b""
        return data, (offsets - start).astype(np.int64)
