"""A block of whole log lines, viewed both as bytes and as an Arrow array, so that picking out the few lines
that matter (a regular expression over every line) runs in C++ (RE2) rather than in a Python loop."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

#: A terminal's escape sequence (colours, cursor moves), also as a pager shows it in a pasted excerpt (``less``
#: prints the escape byte as ``ESC``, ``cat -v`` as ``^[``) and as syslog-style collectors store it (rsyslog and
#: cloud log services write a control byte as ``#`` and its octal code: ``#033``).
_ANSI = re.compile(rb"(?:\x1b|ESC|\^\[|#033)\[[0-9;?]*[A-Za-z]")
#: A carriage return stored the same way (``#015``): a progress bar redrawn on one line.
_ESCAPED_CR = b"#015"
#: How far into a text the escapes a collector writes are looked for: it escapes every control byte of the file
#: it stores, so they show from its start, and a large clean file is not scanned twice more for them.
_ESCAPED_REACH = 1 << 16


@dataclass(frozen=True)
class PrefixStyle:
    """How each line of a multi-process log is prefixed with its rank (torchrun, srun -l, mpirun)."""

    name: str
    pattern: re.Pattern[str]  # group "rank" when the prefix carries one


PREFIX_STYLES = (
    PrefixStyle("torchrun", re.compile(r"^\[(?:rank|default|worker|trainer)(?P<rank>\d+)\]:")),
    # Open MPI's --tag-output ``[job,rank]<stdout>:``; a launcher may name the rank and add the host
    # (``[1,mpirank:0,algo-1]<stdout>:``)
    PrefixStyle("mpirun", re.compile(r"^\[\d+,(?:mpirank:)?(?P<rank>\d+)(?:,[\w.-]+)?\]<std(?:out|err)>:")),
    PrefixStyle("srun", re.compile(r"^\s{0,6}(?P<rank>\d{1,5}): ")),
    PrefixStyle("pdsh", re.compile(r"^(?P<host>[A-Za-z][\w-]*\d[\w.-]*): ")),
)
#: Any rank prefix, for lines of logs whose style was not detected (a stray ``[rank0]:`` line).
ANY_RANK_PREFIX = re.compile(r"^\[(?:rank|default)(?P<rank>\d+)\]:")


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


def strip_prefixes(lines: list[str], style: PrefixStyle | None) -> list[str]:
    """``lines`` without their prefixes (for detection, which reads a file's own text)."""
    if style is None:
        return lines
    return [split_prefix(line, style)[1] for line in lines]


def _re2(style: PrefixStyle) -> str:
    """``style``'s pattern as RE2 takes it (no named groups), anchored at the line's start."""
    return "^(?:" + re.sub(r"\(\?P<\w+>", "(?:", style.pattern.pattern.lstrip("^")) + ")"


def _without_prefix(lines: pa.Array, style: PrefixStyle) -> pa.Array:
    """``lines`` as ``split_prefix`` gives their text."""
    bodies = pc.replace_substring_regex(lines, _re2(style), b"", max_replacements=1)
    if tags_ranks(style):
        bodies = pc.replace_substring_regex(bodies, r"^ ([^ \t]|$)", r"\1", max_replacements=1)
    return bodies


def strip_ansi(data: bytes) -> bytes:
    shown = data.find(b"ESC[") >= 0 or data.find(b"^[[") >= 0 or data.find(b"#033[", 0, _ESCAPED_REACH) >= 0
    return _ANSI.sub(b"", data) if shown or data.find(b"\x1b") >= 0 else data  # a one-byte find is a memchr


#: The source file and line rich's logging handler right-aligns after a message (``   train.py:42``).
_RICH_SOURCE = re.compile(rb"[ \t]{2,}[\w.-]+\.py:\d+[ \t]*$", re.M)


def normalize(data: bytes) -> bytes:
    """A log's bytes as every reader sees them: without terminal escapes, and with ``\\n`` line ends where the
    file has Windows' ``\\r\\n``. Neither says anything, but each hides a line's last value or its first word
    from a pattern anchored there. A lone ``\\r`` (a progress bar redrawn on one line) stays; a run of backspaces is one. Lines keep their
    numbers; each search is a ``memchr`` or ``memmem``, and a clean file is not copied. Ray's note that it folded
    a line repeated by other workers goes too, and so do the NULs a crashed node leaves. (Blanks at the ends of
    lines go in ``LineBlock``, after a console's wrapped records are joined: ``_wrapped`` reads a record cut at
    a space by them.)"""
    data = strip_ansi(data)
    if data.find(b"\x08") >= 0:
        # backspaces that erase a bar before it is drawn again (Keras' progress bar off a terminal writes
        # ``\b`` times its width, then ``\r``): a redraw on the same line, as a lone ``\r`` is
        data = _BACKSPACES.sub(b"\r", data)
    if data.find(b"x across cluster]") >= 0:
        data = _RAY_REPEATED.sub(b"", data)
    if data.count(_ESCAPED_CR, 0, _ESCAPED_REACH) >= 2:
        # carriage returns a log collector escaped (``#015Epoch 0: 50% 1/2 ...``): the bar's redraws, as ``\r``
        data = data.replace(_ESCAPED_CR, b"\r")
    if data.find(b"\x00") >= 0:  # a few NULs a crashed node left mid-write: no character of the line
        data = data.replace(b"\x00", b"")
    return data.replace(b"\r\n", b"\n") if data.find(b"\r") >= 0 else data  # (a one-byte find is a memchr)


_BACKSPACES = re.compile(rb"\x08+")
#: Ray's note that it folded a line the other workers printed too (``... [repeated 15x across cluster]``): the
#: log's, not the line's, its count no value of the record.
_RAY_REPEATED = re.compile(rb" ?\[repeated \d+x across cluster\]")


def _without_end_blanks(data: bytes, newlines: np.ndarray) -> bytes:
    """``data`` without the blanks at the ends of its lines (``newlines``: where its ``\\n`` are), or ``data``
    itself where no line ends in one; only the lines that do are cut (a regular expression over the whole
    block would try every run of spaces in it). The cuts move back one blank at a time for all those lines at
    once (a console pads a line with tens of blanks), and a line's start (a ``\\n``) stops them."""
    buf = np.frombuffer(data, dtype=np.uint8)
    ends = newlines if not len(buf) or buf[-1] == 10 else np.append(newlines, len(buf))
    ends = ends[ends > 0]
    before = buf[ends - 1]
    blank = ends[(before == 32) | (before == 9)]
    if not len(blank):
        return data
    cuts = blank.copy()
    moving = np.ones(len(cuts), dtype=bool)
    while moving.any():
        previous = buf[np.maximum(cuts - 1, 0)]
        moving = (cuts > 0) & ((previous == 32) | (previous == 9))
        cuts[moving] -= 1
    starts = [0, *blank[:-1].tolist()]
    pieces = [data[s:c] for s, c in zip(starts, cuts.tolist(), strict=True)]
    pieces.append(data[int(blank[-1]) :])
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
