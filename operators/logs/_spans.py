"""Driving a parser over a byte range of a log: blocks of lines, the vectorised selection of the lines that
matter, the per-line calls, and the context a chunk needs from before its first line."""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from assay.operators.logs._base import LogParser
from assay.operators.logs._collect import Collector
from assay.operators.logs._events import COMMON_FILTER, CONTINUATION, observe, observe_wrapped
from assay.operators.logs._lines import LineBlock, PrefixStyle, normalize, split_prefix
from assay.operators.logs._names import EVAL_PREFIXES
from assay.operators.logs._read import BLOCK_BYTES, iter_blocks, read_tail
from assay.operators.logs._timestamps import find_timestamp
from assay.operators.logs._wrapped import join_wrapped

#: Bytes read back before a chunk to learn the step (and loss state) its first lines continue from: a little
#: first, more when that holds no step (a long stretch of non-metric lines).
LOOKBACK_BYTES = (64 << 10, 4 << 20)
_TIME_PROBE_LINES = 20


@dataclass
class SpanResult:
    metrics: pa.Table
    events: list[dict[str, Any]]
    summary: dict[str, Any]
    issues: list[dict[str, Any]]


def parse_span(
    path: str,
    start: int,
    end: int,
    first_line: int,
    parser_cls: type[LogParser],
    run_id: str,
    *,
    prefix: PrefixStyle | None = None,
    operator: str = "log_parse",
    block_bytes: int = BLOCK_BYTES,
    lookback: bool = True,
) -> SpanResult:
    """Parse bytes ``[start, end)`` of ``path`` (whole lines; ``first_line`` is the number of the first)."""
    with _no_gc():
        return _parse_span(
            path,
            start,
            end,
            first_line,
            parser_cls,
            run_id,
            prefix=prefix,
            operator=operator,
            block_bytes=block_bytes,
            lookback=lookback,
        )


@contextlib.contextmanager
def _no_gc():
    """Parsing allocates millions of small objects (bytes, tuples) that hold no reference cycles; letting the
    cyclic collector walk them again and again costs more than the parsing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _parse_span(
    path: str,
    start: int,
    end: int,
    first_line: int,
    parser_cls: type[LogParser],
    run_id: str,
    *,
    prefix: PrefixStyle | None,
    operator: str,
    block_bytes: int,
    lookback: bool,
) -> SpanResult:
    out = Collector(run_id, operator)
    parser = parser_cls(out, prefix)
    if not parser_cls.chunkable:
        parser.parse_file(path)
        parser.finish()
        return _finish(out, None, None)
    prior_step, prior_finite = (
        _look_back(path, start, parser_cls, prefix, run_id) if lookback and start > 0 else (None, None)
    )
    size = os.path.getsize(path)
    ends_mid_line = end >= size and size > 0 and _last_byte(path, size) != b"\n"
    line_no = first_line
    for data, offset in iter_blocks(path, start, end, block_bytes=block_bytes):
        at_end = offset + len(data) >= size
        data = normalize(data)  # before the cut and wrap checks, which read the ends of lines
        if at_end:
            # a killed job's last line: its complete fields are values, a number at its very end may be cut
            data = drop_cut_number(data, unterminated=ends_mid_line)
        if parser_cls.joins_wrapped:
            data = join_wrapped(data)
        block = LineBlock(data, line_no, offset, prefix, normalized=True)
        feed_block(parser, block, out, prefix)
        line_no += block.n
    if ends_mid_line:
        out.issue(
            "the file ends in the middle of a line (truncated?); that line's last number was not read",
            line_no - 1,
        )
    parser.finish()
    if parser_cls.name != "generic" and (not out.n_metric_rows or _evaluations_only(out)):
        _read_generically(path, start, end, first_line, prefix, block_bytes, out)
    return _finish(out, prior_step, prior_finite)


def _evaluations_only(out: Collector) -> bool:
    """Whether every metric a framework's parser found is an evaluation's (nanoGPT's ``step N: train loss X,
    val loss Y`` line beside a script's own training rows): the training records are left to the general
    reader."""
    return all(name.startswith(EVAL_PREFIXES) for name in out.metric_names())


def _read_generically(
    path: str,
    start: int,
    end: int,
    first_line: int,
    prefix: PrefixStyle | None,
    block_bytes: int,
    out: Collector,
) -> None:
    """The general reader under a framework's parser: when the parser found no metric in the span (the
    framework printed nothing it knows, a user script printed its own lines), the span's line templates
    still give curves. Events were observed on the first pass already."""
    from assay.operators.logs._base import parser_named

    shadow = Collector(out.run_id, out.operator)
    reader = parser_named("generic")(shadow, prefix)
    line_no = first_line
    for data, offset in iter_blocks(path, start, end, block_bytes=block_bytes):
        block = LineBlock(join_wrapped(normalize(data)), line_no, offset, prefix, normalized=True)
        feed_block(reader, block, shadow, prefix, events=False)
        line_no += block.n
    reader.finish()
    table = shadow.metrics_table()
    # the lines the framework's parser read (its evaluations) keep its reading
    read = set(out.metrics_table().column("line_no").to_pylist()) if out.n_metric_rows else set()
    for step, name, value, rank, n in zip(
        *(table.column(c).to_pylist() for c in ("step", "name", "value", "rank", "line_no")), strict=True
    ):
        if n not in read:
            out.metric(name, step, value, n, rank)


def feed_block(
    parser: LogParser, block: LineBlock, out: Collector, prefix: PrefixStyle | None, *, events: bool = True
) -> None:
    """Run one block of lines through ``parser`` and the common event rules (unless ``events`` is False).
    One RE2 pass picks the lines either wants; Python then tells which."""
    if not block.n:
        return
    if not events:
        picked = block.matching(parser.interesting or ".")
        for i in _with_records_by_shape(parser, block, picked).tolist():
            rank, text = split_prefix(block.line(i), prefix)
            try:
                parser.parse_line(text, block.line_no(i), rank)
            except Exception:  # noqa: BLE001, S112 -- a line the reader cannot take is left out, like any other
                continue
        return
    _probe_times(block, out)
    out.coverage.see(block)
    handled = parser.bulk(block)
    mine_re = _compiled(parser.interesting)
    if mine_re is None:
        hits = np.arange(block.n, dtype=np.int64)
        common = set(block.matching(f"(?i:{COMMON_FILTER})").tolist())
    else:
        hits = block.matching(f"(?i:{COMMON_FILTER})|(?:{parser.interesting})")
        common = None
    if handled is not None and len(handled):
        hits = hits[~np.isin(hits, handled)]
    if common is None:
        # which of the picked lines the event phrases match: one RE2 pass over those lines only (the phrase
        # table is thousands of characters; Python's re took about a millisecond a line over it)
        common = block.matching_among(hits, f"(?i:{COMMON_FILTER})")
    by_shape = _with_records_by_shape(parser, block, hits, handled)
    shaped = set(np.setdiff1d(by_shape, hits, assume_unique=True).tolist()) if len(by_shape) > len(hits) else ()
    hits = by_shape
    for i in hits.tolist():
        line = block.line(i)
        rank, text = split_prefix(line, prefix)
        n = block.line_no(i)
        if mine_re is None or i in shaped or mine_re.search(text) or mine_re.search(line):
            out.event_candidate = i in common  # the reader may leave a report's numbers alone (its own call)
            try:
                parser.parse_line(text, n, rank)
            except Exception as exc:  # noqa: BLE001 -- one bad line is an issue, never the end of the run
                out.issue(f"{type(exc).__name__}: {exc} in {text[:120]!r}", n)
        if i in common:
            observe(text, n, rank, out, offset=block.offset(i), line=line)
    for i in block.matching(CONTINUATION).tolist():
        if i > 0:
            rank, text = split_prefix(block.line(i), prefix)
            observe_wrapped(split_prefix(block.line(i - 1), prefix)[1], text, block.line_no(i), rank, out)


def _with_records_by_shape(
    parser: LogParser, block: LineBlock, hits: np.ndarray, handled: np.ndarray | None = None
) -> np.ndarray:
    """``hits`` and the lines a parser that reads records by their shape (``admit``, see ``_gate``) takes
    besides, in line order."""
    admit = getattr(parser, "admit", None)
    if admit is None:
        return hits
    skip = hits if handled is None or not len(handled) else np.concatenate([hits, handled])
    extra = admit(block, skip)
    return np.union1d(hits, extra) if len(extra) else hits


#: A number the end of the file cut short: ``lm loss: 8.`` (digits and a point or an unfinished exponent); a
#: decimal a sentence's full stop ends (``Loss is: 0.042705.``) is whole.
_CUT_NUMBER = re.compile(rb"(?<![\d.])[-+]?\d+(?:\.|\.\d+[eE][-+]?|[eE][-+]?)[ \t\r]*\n?$")
#: On a line the file ends in the middle of, any number at its very end may be cut (``8.4`` of ``8.45``).
_END_NUMBER = re.compile(rb"[-+]?(?:\d[\d,]*\.?\d*(?:[eE][-+]?\d*)?|\.\d+)[ \t\r]*$")


def drop_cut_number(data: bytes, *, unterminated: bool = False) -> bytes:
    """The block with the last line's cut-off number removed (a killed job's last line is not a value)."""
    m = (_END_NUMBER if unterminated else _CUT_NUMBER).search(data[-200:])
    if m:
        cut = len(data) - 200 + m.start() if len(data) > 200 else m.start()
        data = data[:cut] + (b"\n" if data.endswith(b"\n") else b"")
    return data + b"\n" if unterminated and not data.endswith(b"\n") else data


@functools.lru_cache(maxsize=64)
def _compiled(pattern: str | None) -> re.Pattern[str] | None:
    return None if pattern is None else re.compile(pattern, re.M)


def _probe_times(block: LineBlock, out: Collector) -> None:
    """Start and end times of the run: the first time printed in the file, the last one."""
    if out.first_ts is None:
        for i in range(min(block.n, _TIME_PROBE_LINES * 50)):
            stamp = find_timestamp(block.line(i)[:200])
            if stamp is not None:
                out.saw_time(stamp)
                break
    for i in range(block.n - 1, max(-1, block.n - 1 - _TIME_PROBE_LINES), -1):
        stamp = find_timestamp(block.line(i)[:200])
        if stamp is not None:
            out.saw_time(stamp)
            break


def _look_back(
    path: str, start: int, parser_cls: type[LogParser], prefix: PrefixStyle | None, run_id: str
) -> tuple[int | None, bool | None]:
    """The last step and whether the last loss was finite, from the lines just before ``start``."""
    for size in LOOKBACK_BYTES:
        data, offset = read_tail(path, start, size)
        if not data:
            return None, None
        data = normalize(data)
        out = Collector(run_id)
        parser = parser_cls(out, prefix)
        block = LineBlock(join_wrapped(data) if parser_cls.joins_wrapped else data, 1, offset, prefix, normalized=True)
        feed_block(parser, block, out, prefix)
        parser.finish()
        rows = out.metrics_table().select(["line_no", "step", "name", "value"]).to_pylist()
        with_step = [r for r in rows if r["step"] is not None]
        if with_step or offset == 0:
            break
    if not rows:
        return None, None
    prior_step = max(with_step, key=lambda r: r["line_no"])["step"] if with_step else None
    losses = [r for r in rows if r["name"] == "loss"]
    prior_finite = bool(np.isfinite(max(losses, key=lambda r: r["line_no"])["value"])) if losses else None
    return prior_step, prior_finite


def _finish(out: Collector, prior_step: int | None, prior_finite: bool | None) -> SpanResult:
    metrics = out.metrics_table()
    events, summary = out.finish(metrics, prior_step=prior_step, prior_loss_finite=prior_finite)
    return SpanResult(metrics, events, summary, out.issues)


def _last_byte(path: str, size: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(size - 1)
        return f.read(1)
