"""The fast path for the lines that make up most of a big log: one metrics line per step whose fields are
``key: value`` pairs in a fixed order (Megatron's ``iteration N/ M | lm loss: ... |``, nanotron's,
torchtitan's ``step: N  loss: ...``).

From the first such line a template is learnt: the line itself with each value replaced by a group. It runs
over all candidate lines of a block at once (``findall``: no match object per line), values go from the
groups straight into columns and are converted by Arrow, and columns become metric rows in bulk. Lines no
template fits fall back to the per-line parser, so an odd line costs speed, never correctness.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import LineBlock, PrefixStyle
from assay.operators.logs._numbers import parse_quantity, to_floats


@dataclass(frozen=True)
class Field:
    """What one ``key: value`` of a metrics line means."""

    metric: str | None = None  # a metric name
    scale: float = 1.0
    convert: Callable[[list[bytes]], list[float | None]] | None = None  # for values with units
    event: str | None = None  # an event kind, recorded where the (count) value is > 0
    setting: str | None = None  # a run setting (global_batch_size) taken from the value


_TS_ISO = r"(?P<g0>\d{4}-\d{2}-\d{2})[ T](?P<g1>\d{2}:\d{2}:\d{2})"
_TS_MDY = r"(?P<g0>\d{2})/(?P<g1>\d{2})/(?P<g2>\d{4}) (?P<g3>\d{2}:\d{2}:\d{2})"
_MAX_TEMPLATES = 16
_PAIR = r"\|\s*(?P<key>[A-Za-z_][^:|]*?)\s*:\s*(?P<value>[^\s|]+)"


@dataclass
class _Template:
    regex: re.Pattern[bytes]
    fields: list[tuple[int, str, Field]]  # (group index, key, meaning)
    step_group: int = 0
    total_group: int | None = None
    ts_group: int | None = (
        None  # a timestamp printed right before the head: ``[2024-05-01 12:00:00] iteration``
    )


class KeyValueLines:
    """Template-driven extraction of ``key: value`` metrics lines; see the module docstring.

    ``select``: an RE2 pattern every such line matches; ``head``: a regular expression for the start of the
    line's payload with groups ``step`` (and optionally ``total``), in that order; ``field``: maps a printed
    key to its meaning (``None``: skip it); ``pair``: finds the ``key: value`` pairs after the head.
    """

    def __init__(self, select: str, head: str, field: Callable[[str], Field | None], pair: str = _PAIR):
        self.select = select
        self.head = re.compile(head)
        self.head_bytes = re.sub(rb"\(\?P<\w+>", b"(", head.encode())  # groups by position: step, total
        self.pair = re.compile(pair)
        self.field = field
        self.templates: list[_Template] = []
        self._failed_shapes: set[tuple[str, ...]] = set()

    # -- the vectorised path --------------------------------------------------------------------------------
    def run(self, block: LineBlock, out: Collector, prefix: PrefixStyle | None) -> np.ndarray:
        """Extract every templated line of ``block``; returns the indices of the lines it handled."""
        pending = block.matching(self.select)  # (each line's own text: ``LineBlock.body``)
        handled: list[np.ndarray] = []
        learnt_here = 0
        next_template = 0
        while len(pending):
            if next_template < len(self.templates):
                template = self.templates[next_template]
                next_template += 1
            else:
                if learnt_here >= 4 or len(self.templates) >= _MAX_TEMPLATES:
                    break
                template = next(
                    (t for t in map(self._learn, (block.line(int(i)) for i in pending[:8])) if t), None
                )
                if template is None:
                    break
                learnt_here += 1
                self.templates.append(template)
                next_template = len(self.templates)
            done = self._apply(
                template, block, pending, out, prefix, whole_block=not handled and next_template == 1
            )
            if len(done):
                handled.append(done)
                pending = pending[~np.isin(pending, done)] if len(done) < len(pending) else pending[:0]
        return np.concatenate(handled) if handled else np.empty(0, dtype=np.int64)

    def _apply(
        self,
        template: _Template,
        block: LineBlock,
        lines: np.ndarray,
        out: Collector,
        prefix: PrefixStyle | None,
        whole_block: bool = False,
    ) -> np.ndarray:
        if whole_block:
            # No copy of the candidate lines: the template can only match where its head is, so if it
            # matches as many times as there are candidates, match i is candidate i.
            found = template.regex.findall(block.data)
            if len(found) != len(lines):
                return self._apply(template, block, lines, out, prefix)
            chosen = lines
        else:
            buf, starts = block.gather(lines)
            found = template.regex.findall(buf)
            if len(found) == len(lines):
                chosen = lines  # every line fits, in order: the common case, no per-line bookkeeping
            else:
                positions, found = [], []
                for m in template.regex.finditer(buf):
                    positions.append(m.start())
                    found.append(m.groups())
                if not found:
                    return np.empty(0, dtype=np.int64)
                which = np.searchsorted(starts, np.asarray(positions, dtype=np.int64), side="right") - 1
                first = np.concatenate(
                    ([True], which[1:] != which[:-1])
                )  # a line holding two heads: keep one
                if not first.all():
                    which = which[first]
                    found = [g for g, keep in zip(found, first, strict=True) if keep]
                chosen = lines[which]
        if found and not isinstance(found[0], tuple):
            found = [(g,) for g in found]
        line_nos = block.first_line_no + chosen
        columns = _Groups(found)
        steps = _ints(columns, template.step_group)
        if template.total_group is not None and found[0][template.total_group].isdigit():
            out.setting("train_iters", int(found[0][template.total_group]), int(line_nos[0]))
        ranks = self._ranks(block, chosen, prefix)
        if template.ts_group is not None:
            ts = _parse_times(columns.text(template.ts_group))
        else:
            ts = self._timestamps(block, chosen)
        for group, key, meaning in template.fields:
            array = _floats(columns, group, meaning.convert)
            if meaning.scale != 1.0:
                array = array * meaning.scale
            if meaning.metric:
                out.metric_columns(meaning.metric, steps, array, line_nos, ranks, ts)
            if meaning.setting:
                finite = np.flatnonzero(np.isfinite(array))
                if len(finite):
                    out.setting(meaning.setting, _plain(array[finite[0]]), int(line_nos[finite[0]]))
                    out.setting(meaning.setting, _plain(array[finite[-1]]), int(line_nos[finite[-1]]))
            if meaning.event:
                for k in np.flatnonzero(array > 0):
                    out.event(
                        meaning.event,
                        int(line_nos[k]),
                        f"{key}: {found[k][group].decode()}",
                        rank=None if ranks is None else int(ranks[k]),
                        step=int(steps[k]),
                    )
        return chosen

    def _ranks(self, block: LineBlock, chosen: np.ndarray, prefix: PrefixStyle | None) -> np.ndarray | None:
        if prefix is None or "rank" not in prefix.pattern.groupindex:
            return None
        taken = block.arrow.take(pa.array(chosen, pa.int64()))
        matched = pc.extract_regex(taken, prefix.pattern.pattern)
        # ``struct_field`` keeps a line without the prefix null (a struct's ``.field()`` would give its empty child)
        found = pc.struct_field(matched, [matched.type.get_field_index("rank")])
        if found.null_count == len(found):
            return None
        return np.asarray(pc.cast(found.cast(pa.string()), pa.int32()).fill_null(-1)).astype(np.int32)

    def _timestamps(self, block: LineBlock, chosen: np.ndarray) -> pa.Array | None:
        first = block.raw(int(chosen[0]))[:200]
        if re.search(rb"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}", first):
            pattern = _TS_ISO
        elif re.search(rb"\d{2}/\d{2}/\d{4} \d{2}:\d{2}:\d{2}", first):
            pattern = _TS_MDY
        else:
            return None
        taken = block.arrow.take(pa.array(chosen, pa.int64()))
        found = pc.extract_regex(taken, pattern)
        parts = [found.field(f"g{i}").cast(pa.string()) for i in range(found.type.num_fields)]
        if pattern == _TS_ISO:
            text, layout = pc.binary_join_element_wise(parts[0], parts[1], " "), "%Y-%m-%d %H:%M:%S"
        else:
            text, layout = pc.binary_join_element_wise(*parts, "|"), "%m|%d|%Y|%H:%M:%S"
        return pc.strptime(text, format=layout, unit="us", error_is_null=True)

    # -- learning a template --------------------------------------------------------------------------------
    def _learn(self, line: str) -> _Template | None:
        """The regular expression of ``line``'s shape: its literal text between values, values as groups."""
        head = self.head.search(line)
        if not head:
            return None
        pairs = list(self.pair.finditer(line, head.end()))
        shape = tuple(m.group("key") for m in pairs)
        if not pairs or shape in self._failed_shapes:
            return None
        pattern = self.head_bytes
        fields: list[tuple[int, str, Field]] = []
        group = self.head.groups
        ts_group = None
        stamp = _STAMP_BEFORE.search(line, 0, head.start())
        if stamp:
            pattern = (
                _literal(stamp.group("open"))
                + rb"(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d)[.,\d]*+"
                + _literal(stamp.group("close"))
                + pattern
            )
            ts_group = 0
            group += 1
        previous_end = head.end()
        for m in pairs:
            key = m.group("key")
            meaning = self.field(key)
            pattern += _literal(line[previous_end : m.start("key")]) + re.escape(key.encode())
            pattern += _literal(line[m.end("key") : m.start("value")])
            pattern += rb"([^\s|]++)" if meaning else rb"[^\s|]++"
            previous_end = m.end("value")
            if meaning:
                fields.append((group, key, meaning))
                group += 1
        regex = re.compile(pattern)
        if not regex.search(line.encode("utf-8", "replace")):
            self._failed_shapes.add(shape)  # the pairs do not cover the line: leave it to the per-line path
            return None
        offset = 1 if ts_group is not None else 0
        total = self.head.groupindex.get("total")
        return _Template(
            regex,
            fields,
            step_group=offset + self.head.groupindex["step"] - 1,
            total_group=None if total is None else offset + total - 1,
            ts_group=ts_group,
        )

    # -- the per-line path, for lines no template fits ------------------------------------------------------
    def parse_one(self, text: str, line_no: int, rank: int | None, out: Collector) -> bool:
        """Parse one metrics line field by field. Returns False when it is not one (no head)."""
        head = self.head.search(text)
        if not head:
            return False
        try:
            step = int(head.group("step"))
        except (IndexError, ValueError):
            out.issue(f"metrics line without a readable step: {text[:120]!r}", line_no)
            return True
        total = head.groupdict().get("total")
        if total and total.isdigit():
            out.setting("train_iters", int(total), line_no)
        rest = text[head.end() :]
        if "|" in rest:
            found = (_KV_COLON.match(piece) or _KV_NO_COLON.match(piece) for piece in rest.split("|"))
            pairs = [(m.group("key"), m.group("value")) for m in found if m]
        else:
            pairs = [(m.group("key"), m.group("value")) for m in self.pair.finditer(rest)]
        for key, text_value in pairs:
            meaning = self.field(key)
            if meaning is None:
                continue
            raw = text_value.encode()
            if meaning.convert:
                value = meaning.convert([raw])[0]
            else:
                parsed = parse_quantity(raw)
                value = parsed[0] if parsed else None
            if value is None:
                out.issue(f"unreadable value for {key!r}: {text_value!r}", line_no)
                continue
            value *= meaning.scale
            if meaning.metric:
                out.metric(meaning.metric, step, value, line_no, rank)
            if meaning.setting:
                out.setting(meaning.setting, _plain(value), line_no)
            if meaning.event and value > 0:
                out.event(meaning.event, line_no, f"{key}: {text_value}", rank=rank, step=step)
        return True


#: A timestamp right before the head of a metrics line (Megatron: `` [2024-05-01 12:00:00] iteration``).
_STAMP_BEFORE = re.compile(r"(?P<open>\[?)\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?P<close>\]? *)$")
_KV_COLON = re.compile(r"^\s*(?P<key>[A-Za-z_][^:|]*?)\s*:\s*(?P<value>\S+)\s*$")
#: Old Megatron printed some fields without a colon: ``learning rate 1.342E-04 |``.
_KV_NO_COLON = re.compile(
    r"^\s*(?P<key>[A-Za-z_][A-Za-z_ ()/\-]*?)\s+"
    r"(?P<value>[-+]?(?:\d[\d.,]*(?:[eE][-+]?\d+)?|nan|inf)\S*)\s*$"
)


def _literal(text: str) -> bytes:
    """Text between values as a pattern: exact, except that runs of spaces may differ (padded numbers).

    Runs of spaces and values are possessive (``*+``, ``++``): what follows a run never starts with a space
    (runs are collapsed) and what follows a value starts with whitespace or ``|`` (where the learnt line's
    value ended), so giving characters back could never make a line match; not saving the state to give
    them back makes ``findall`` 1.8x faster on Megatron's lines. A template that does not fit its own line
    is dropped, so a head regex that needs a space after a run falls back to the per-line path, never to a
    wrong value."""
    return re.sub(rb"(?:\\ )+", b" *+", re.escape(text.encode("utf-8", "replace")))


class _Groups:
    """The groups ``findall`` found, as columns. Arrow's CSV reader splits them in C++: the groups of all
    lines are joined into one tab-separated text (a value never holds whitespace), which costs one
    ``join`` per line instead of one Python object per value for each column (a fifth of a chunk's parse
    time on Megatron's lines). A group that holds a tab or a line break after all (a parser's head group)
    makes the text unreadable as a table: every column is then built from the values one by one."""

    def __init__(self, found: list[tuple[bytes, ...]]):
        self.found = found
        self.table: pa.Table | None = None
        width = len(found[0]) if found else 0
        names = [str(i) for i in range(width)]
        try:
            table = pacsv.read_csv(
                pa.py_buffer(b"\n".join(map(b"\t".join, found))),
                read_options=pacsv.ReadOptions(column_names=names, use_threads=False, block_size=1 << 30),
                parse_options=_TABLE_TEXT,
                convert_options=pacsv.ConvertOptions(
                    column_types=dict.fromkeys(names, pa.string()), check_utf8=False, strings_can_be_null=False
                ),
            )
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return
        if table.num_rows == len(found) and table.num_columns == width:
            self.table = table

    def raw(self, group: int) -> list[bytes]:
        return list(map(itemgetter(group), self.found))

    def text(self, group: int) -> pa.ChunkedArray | pa.Array:
        if self.table is not None:
            return self.table.column(group)
        return pa.array(self.raw(group), pa.binary()).cast(pa.string())


_TABLE_TEXT = pacsv.ParseOptions(
    delimiter="\t", quote_char=False, double_quote=False, escape_char=False, newlines_in_values=False
)


def _ints(columns: _Groups, group: int) -> np.ndarray:
    try:
        return np.asarray(pc.cast(columns.text(group), pa.int64()))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return np.asarray([int(v) if v.isdigit() else -1 for v in columns.raw(group)], dtype=np.int64)


def _floats(
    columns: _Groups, group: int, convert: Callable[[list[bytes]], list[float | None]] | None
) -> np.ndarray:
    """Arrow parses plain numbers (``1.5E+00``, ``nan``) in C++; the Python parser takes the rest
    (``6,647``, ``11.4K``, ``30.1GiB(31%)``) and a unit-aware ``convert`` takes values with units."""
    if convert is None:
        try:
            return np.asarray(pc.cast(columns.text(group), pa.float64()))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            parsed = to_floats(columns.raw(group))
    else:
        parsed = convert(columns.raw(group))
    return np.asarray([np.nan if v is None else v for v in parsed], dtype=np.float64)


def _parse_times(text: pa.ChunkedArray | pa.Array) -> pa.Array:
    text = pc.replace_substring(text, "T", " ")
    return pc.strptime(text, format="%Y-%m-%d %H:%M:%S", unit="us", error_is_null=True)


def _plain(value: float) -> int | float:
    value = float(value)
    return int(value) if value.is_integer() else value
