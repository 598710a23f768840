"""Reading log files in constant memory: the head for format detection, one streaming pass that hashes
the file and picks chunk boundaries at line ends, and blocks of whole lines within a byte range."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from assay.operators.logs._lines import strip_ansi

#: Bytes read at a time. Blocks always end at a line break (or the end of the file).
BLOCK_BYTES = 8 << 20
HEAD_BYTES = 256 << 10
_NEWLINE = ord("\n")
#: A line longer than this is cut into pieces of this size (a corrupt file with no line breaks).
MAX_LINE_BYTES = 16 << 20


@dataclass(frozen=True)
class Span:
    """A byte range of whole lines; ``first_line`` is the 1-based number of its first line."""

    index: int
    start: int
    end: int
    first_line: int


@dataclass
class FileScan:
    doc_id: str
    n_bytes: int
    n_lines: int
    spans: list[Span] = field(default_factory=list)
    truncated: bool = False  # the last line has no line break


def read_head(path: str, n: int = HEAD_BYTES) -> bytes:
    with open(path, "rb") as f:
        return f.read(n)


def is_binary(head: bytes) -> bool:
    """Text logs may hold stray bytes (a progress bar, a truncated UTF-8 sequence), a terminal's colours (an
    escape byte each, which short coloured lines hold many of), backspaces (a bar erased before it is drawn
    again, hundreds a line) and a few NULs (a node that crashed mid-write); binary files hold NULs among
    more than one byte in a hundred (and more than 16), or other control bytes among one in twenty."""
    sample = strip_ansi(head[:8192])
    if not sample:
        return False
    return sample.count(b"\x00") > max(len(sample) // 100, 16) or sum(b < 8 or 13 < b < 32 for b in sample) > len(sample) // 20


def is_utf16(head: bytes) -> bool:
    """A text in UTF-16 (a Windows shell's redirect writes it): its byte-order mark, or NULs at every other byte
    of a text of ASCII."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    sample = head[:4096]
    half, other = (sample[1::2], sample[0::2]) if sample[:1] != b"\x00" else (sample[0::2], sample[1::2])
    return len(sample) >= 64 and half.count(b"\x00") > 0.9 * len(half) and other.count(b"\x00") < 0.1 * len(other)


def scan(path: str, chunk_bytes: int, *, block_bytes: int = BLOCK_BYTES) -> FileScan:
    """Hash the file (its doc_id: the same as ``assay.ids.content_id`` of its bytes), count its lines and
    cut it into spans of about ``chunk_bytes`` that start at line beginnings.

    The hash of each block runs in a second thread while this one counts the block's lines: hashlib lets go
    of the GIL on large buffers, so the two take about the time of the hash alone on two cores."""
    h = hashlib.blake2b(digest_size=16)
    spans: list[Span] = []
    pos = 0
    lines_before = 0  # line breaks seen before ``pos``
    span_start, span_first = 0, 1
    target = chunk_bytes
    last_byte = b""
    with open(path, "rb") as f, ThreadPoolExecutor(1, thread_name_prefix="assay-hash") as hasher:
        size = os.fstat(f.fileno()).st_size
        hashing = None
        while True:
            block = f.read(block_bytes)
            if not block:
                break
            if hashing is not None:
                hashing.result()  # blocks are hashed in order
            hashing = hasher.submit(h.update, block)
            # Chunk boundaries: the first line break at or after each target offset in this block.
            while target < pos + len(block):
                cut = block.find(b"\n", max(0, target - pos))
                if cut < 0:
                    break
                boundary = pos + cut + 1
                lines_at_boundary = lines_before + block.count(b"\n", 0, cut + 1)
                if boundary < size:
                    spans.append(Span(len(spans), span_start, boundary, span_first))
                    span_start, span_first = boundary, lines_at_boundary + 1
                target = boundary + chunk_bytes
            lines_before += _count_newlines(block)
            pos += len(block)
            last_byte = block[-1:]
        if hashing is not None:
            hashing.result()
    spans.append(Span(len(spans), span_start, pos, span_first))
    truncated = bool(pos) and last_byte != b"\n"
    n_lines = lines_before + (1 if truncated else 0)
    return FileScan(h.hexdigest(), pos, n_lines, spans, truncated)


def _count_newlines(block: bytes) -> int:
    """Line breaks in ``block``: numpy compares all bytes at once, twice as fast as ``bytes.count``."""
    return int(np.count_nonzero(np.frombuffer(block, dtype=np.uint8) == _NEWLINE))


def iter_blocks(
    path: str, start: int, end: int, *, block_bytes: int = BLOCK_BYTES
) -> Iterator[tuple[bytes, int]]:
    """Blocks of whole lines from ``start`` (a line beginning) to ``end``, each with its file offset. A block
    is cut after its last line break; the remainder starts the next one."""
    with open(path, "rb") as f:
        f.seek(start)
        pos = start
        carry = b""
        while pos < end:
            data = f.read(min(block_bytes, end - pos))
            if not data:
                break
            pos += len(data)
            data = carry + data if carry else data
            cut = data.rfind(b"\n") + 1
            if cut == 0 and len(data) < MAX_LINE_BYTES and pos < end:
                carry = data
                continue
            if cut == 0:
                cut = len(data)
            yield data[:cut], pos - len(data)
            carry = data[cut:]
        if carry:
            yield carry, pos - len(carry)


def read_tail(path: str, end: int, n: int) -> tuple[bytes, int]:
    """Up to ``n`` bytes before ``end``, starting at a line beginning, and their file offset."""
    start = max(0, end - n)
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(end - start)
    if start > 0:
        cut = data.find(b"\n") + 1
        data, start = data[cut:], start + cut
    return data, start
