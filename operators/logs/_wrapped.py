"""Records a console wrapped over several lines, joined back before the general reader sees them.

A terminal or a pasted issue wraps long records: at a space (``LOG (...) Average `` / ``objective function
... is -35.0 over `` / ``19538 frames.``) or at a fixed width, mid-word (a 150-character line ending
``current batch averag`` and the next line opening ``e objf: 1.54 ...``). Read from the block's structure,
not from any tool's words: records open the same way (most lines start with the same kind of character: a
digit of a time stamp, a capital of a level), a continuation opens differently (a small letter or a digit
where records open otherwise), and the line before it was cut: it ends in one space, or it ends inside a word
or a number at the length where two or more lines of the block are cut so, and the record's last piece is
shorter than that (a table padded to the console's width has every line as wide). A join needs two or more
such records in the block, so a lone line that happens to end in a space changes nothing, unless the line
ends in a field separator and its space (``... - yolo_loss: 28.9 - `` then ``head_loss: 104.6 - val_loss:
...``): a record does not end on its separator. A line's kind is read after the indentation every line of
the block shares, so a block pasted with every line indented (a markdown code block) is read as its lines are.

The block keeps its size and its line count: the pieces of a record are put on its first line and the
lines they came from are left empty, so every other line keeps its number and its byte offset."""

from __future__ import annotations

import numpy as np

from assay.operators.logs._column_wraps import join_message_column

#: Shortest line a fixed-width wrap is believed at (a console is at least this wide).
_MIN_WIDTH = 60
#: Most continuation lines joined to one record.
_MAX_PIECES = 4
#: The field separators a record cut right after one ends in (before its one space): ``-``, ``|``, ``,``, ``;``.
_SEPARATORS = np.frombuffer(b"-|,;", dtype=np.uint8)
#: Share of a block's non-empty lines that must open like a record's first line.
_RECORD_SHARE = 1 / 3


def _kinds(first: np.ndarray) -> np.ndarray:
    """The kind of each line's first byte: 1 a digit, 2 a small letter, 3 a capital, 0 anything else."""
    kinds = np.zeros(len(first), dtype=np.int8)
    kinds[(first >= 48) & (first <= 57)] = 1
    kinds[(first >= 97) & (first <= 122)] = 2
    kinds[(first >= 65) & (first <= 90)] = 3
    return kinds


def join_wrapped(data: bytes) -> bytes:
    """``data`` (whole lines) with wrapped records joined, or ``data`` itself where nothing was wrapped; a
    handler's columns first (``_column_wraps``), then a console's width."""
    data = join_message_column(data)
    buf = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    if len(ends) < 4:
        return data
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts
    nonempty = lengths > 0
    # a console wraps at a number of characters, not bytes: a bar's blocks (``█``, three bytes in UTF-8) or a
    # CJK word count once each
    follow = np.concatenate(([0], np.cumsum((buf & 0xC0) == 0x80, dtype=np.int64)))
    width_of = lengths - (follow[ends] - follow[starts])
    # a line's kind is its first character after the indentation a pasted block gives every line alike
    shown = np.flatnonzero((buf != 32) & (buf != 9))
    first = shown[np.minimum(np.searchsorted(shown, starts), len(shown) - 1)] if len(shown) else starts
    nonempty &= first < ends
    indent = int((first - starts)[nonempty].min()) if nonempty.any() else 0
    kinds = np.where(nonempty, _kinds(buf[np.minimum(starts + indent, len(buf) - 1)]), -1)
    # a continuation: opens with a small letter or a digit, unlike the line before it
    goes_on = np.zeros(len(ends), dtype=bool)
    goes_on[1:] = ((kinds[1:] == 1) | (kinds[1:] == 2)) & (kinds[1:] != kinds[:-1])
    if not goes_on.any():
        return data
    before = np.flatnonzero(goes_on) - 1  # the lines a continuation follows
    last_byte = buf[np.maximum(ends[before] - 1, 0)]
    # one space at the end (a line padded to a console's width ends in many)
    at_space = before[(lengths[before] > 1) & (last_byte == 32) & (buf[np.maximum(ends[before] - 2, 0)] != 32)]
    # cut inside a word or a number (a bar's ``]``, a sentence's ``.`` end a record where they stand)
    wide = before[(width_of[before] >= _MIN_WIDTH) & (_kinds(last_byte) > 0)]
    width = None
    if len(wide) >= 2:
        values, counts = np.unique(width_of[wide], return_counts=True)
        # a console's width cuts most such lines at one length; lines of one format whose lengths merely
        # coincide now and then (a record's values printed in full, each line a little longer or shorter) are
        # records of their own, each followed by the next
        if counts.max() >= 2 and counts.max() * 2 >= len(wide):
            width = int(values[counts.argmax()])
    spaced = set(at_space.tolist())
    # a field separator and one space at the end (``... - ``, ``... | ``, ``..., ``): a record cut for sure
    sep = buf[np.maximum(ends[at_space] - 2, 0)]
    sure = set(at_space[np.isin(sep, _SEPARATORS)].tolist())
    cut = set(spaced)
    if width is not None:
        cut.update(wide[width_of[wide] == width].tolist())
    if not cut or (len(cut) < 2 and not sure):
        return data
    counted = np.bincount(kinds[nonempty].astype(np.int64), minlength=4)
    opening = {k for k in range(4) if counted[k] >= _RECORD_SHARE * nonempty.sum()}
    # the kinds that open a line after a line that was not cut: a line opening so is a record of its own also
    # after a line that merely reached the width (Keras' ``405/405 [===]`` after a callback's message as long
    # as another), unless that line ended on a field separator
    after_whole = np.ones(len(ends), dtype=bool)
    after_whole[0] = False
    after_cut = np.fromiter(cut, dtype=np.int64) + 1
    after_whole[after_cut[after_cut < len(ends)]] = False
    after_whole[1:] &= nonempty[:-1]
    free_kinds = set(np.unique(kinds[after_whole & nonempty]).tolist())
    joins: list[tuple[int, int]] = []  # (first line, last line) of each record put back together
    n, free = len(ends), 0  # lines before ``free`` are taken by a record already
    for i in sorted(cut):
        if i < free or kinds[i] not in opening:
            continue
        head_kind, last = kinds[i], i
        while last + 1 < n and last in cut and goes_on[last + 1] and kinds[last + 1] != head_kind and (
            kinds[last + 1] not in free_kinds or last in sure
        ):
            last += 1
            if last - i >= _MAX_PIECES:
                break
        if last > i and width is not None and width_of[last] >= width and i not in spaced:
            last = i  # every piece as wide as the console: lines padded to its width (a table), not wrapped
        if last > i:
            joins.append((i, last))
        free = last + 1
    if len(joins) < 2:
        joins = [(first, last) for first, last in joins if first in sure]
    if not joins:
        return data
    out = bytearray(data)
    for first, last in joins:
        pieces = b"".join(bytes(data[starts[j] : ends[j]]).rstrip(b"\r") for j in range(first, last + 1))
        out[starts[first] : ends[last] + 1] = pieces + b"\n" * (int(ends[last]) + 1 - int(starts[first]) - len(pieces))
    return bytes(out)
