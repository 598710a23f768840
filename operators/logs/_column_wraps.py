"""Records a logging handler wrapped at its message column, joined back before the general reader sees them.

A handler that prints in columns (Rich's ``RichHandler``: a time, the level padded to its width, the message,
the source on the right) wraps a long message onto the lines after it, each indented to the column where the
message began::

                        INFO     trainer - INFO: [Epoch 4 / Train]:
                                 Loss = 163.55 | LR = 0.00015

The time is printed only when it changes, so a record's line may open with spaces too; what tells a
continuation apart is its indentation, exactly the message column of the record line above it, and no level
of its own. The block keeps its size and its line count: a record's pieces go on its first line, the lines
they came from are left empty, so every later line keeps its number and its byte offset."""

from __future__ import annotations

import re

#: A record line of a column handler: an optional time (``[12/07/24 10:11:12]``, ``10:11:12``), the level, the
#: padding up to the message. The message column is where the match ends.
_HEAD = rb"[ \t]*(?:\[?[\d/:.,\- ]{5,}\]?[ \t]+)?(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)[ \t]+"
_RECORD = re.compile(rb"^" + _HEAD + rb"(?=\S)")
#: A line indented at least as far as a message column is, and a record line of a column handler, anywhere.
_INDENTED = re.compile(rb"\n {10,}\S")
_LEVEL_RECORD = re.compile(rb"(?m)^" + _HEAD + rb"\S")
#: A message column this far right at least: a level alone at a line's start (``INFO loss 2.1``) wraps nothing.
_MIN_COLUMN = 10
#: Most continuation lines joined to one record.
_MAX_PIECES = 8


def join_message_column(data: bytes) -> bytes:
    """``data`` (whole lines) with messages wrapped at their handler's message column joined, or ``data``
    itself where no line continues one."""
    # (a block with no line indented that far, most logs, is passed over in one scan)
    if _INDENTED.search(data) is None or _LEVEL_RECORD.search(data) is None:
        return data
    lines = data.split(b"\n")
    out = bytearray(data)
    changed = False
    at = i = 0  # ``at``: the byte offset of line ``i``
    while i < len(lines):
        record = _RECORD.match(lines[i])
        column = record.end() if record else 0
        last = i
        while column >= _MIN_COLUMN and last + 1 < len(lines) and last - i < _MAX_PIECES and _continues(
            lines[last + 1], column
        ):
            last += 1
        size = sum(len(lines[j]) + 1 for j in range(i, last + 1))
        if last > i:
            # the pieces on the first line, one space between them (a word wrapped with the padding the
            # handler put around it, ``found`` / ``inf during ...``, is read as printed), the room left padded
            # with spaces; the newlines after them keep every later line where it was
            joined = b" ".join([lines[i].rstrip()] + [lines[j].strip() for j in range(i + 1, last + 1)])
            out[at : at + size] = joined.ljust(size - (last - i + 1)) + b"\n" * (last - i + 1)
            changed = True
        at += size
        i = last + 1
    return bytes(out[: len(data)]) if changed else data


def _continues(line: bytes, column: int) -> bool:
    """Whether ``line`` goes on with the message above it: indented exactly to the message column, no level."""
    text = line.rstrip(b"\r")
    return (
        len(text) > column
        and text[:column].strip() == b""
        and text[column : column + 1] not in (b" ", b"\t")
        and _RECORD.match(text) is None
    )
