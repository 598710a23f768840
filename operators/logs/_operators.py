"""The three operators of the logs pipeline.

``log_split``  reads each file's head to detect its format; a file over ``chunk_mb`` is hashed in one
               streaming pass and cut at line boundaries into chunk records, so its chunks are parsed in
               parallel; a smaller file stays one record.
``log_parse``  parses one record's byte range: metric rows, events and line-level issues stream to the store
               from here, with a small summary of the range. A whole (unchunked) file is finished here.
``log_combine`` (the pipeline's combine step, once per file) assembles the run row, the document row and the
               entities from the chunks' summaries.
"""

from __future__ import annotations

import os
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from assay.dsl import operator
from assay.ids import stable_id
from assay.operators.logs._assemble import assemble, closing_events, merge
from assay.operators.logs._base import LogParser, detect, parser_named
from assay.operators.logs._coverage import silence
from assay.operators.logs._event_steps import last_placeable_line, place_by_headers, saves_at_named_steps
from assay.operators.logs._frameworks import name_framework
from assay.operators.logs._lines import PrefixStyle, normalize, prefix_style, split_prefix, strip_prefixes
from assay.operators.logs._prefix_layers import detect_prefix, for_detection
from assay.operators.logs._read import HEAD_BYTES, is_binary, is_utf16, read_head, scan
from assay.operators.logs._saves import one_event_per_save
from assay.operators.logs._spans import parse_span

#: Files over this size are split; each chunk is parsed by its own worker.
CHUNK_MB = 16


def _sample(path: str, size: int, head: bytes) -> bytes:
    """The head, plus a piece of the middle: some logs print nothing recognisable in their first lines."""
    if size <= 4 * HEAD_BYTES:
        return head
    with open(path, "rb") as f:
        f.seek(size // 2)
        middle = f.read(HEAD_BYTES // 2)
    cut = middle.find(b"\n") + 1
    return head + b"\n" + middle[cut:]


def _framework(cls: type[LogParser], text: str, prefix: str | None) -> str | None:
    """The parser's framework, or a more specific one the framework markers find (``_frameworks``); a user
    script's own output names none, but its launcher may: horovodrun runs Open MPI with ``--tag-output``,
    which the rank prefix ``[1,0]<stdout>:`` shows."""
    pick = getattr(cls, "framework_for", None)
    named = pick(text) if pick else cls.framework
    if not cls.binary:  # an event file's tags are read by its parser, not searched as text
        named = name_framework(text, named)
    if named is None and "mpirun" in (prefix or "").split("+"):
        return "Horovod"
    return named


def _detection_texts(sample: bytes, prefix: PrefixStyle | None) -> list[bytes]:
    """The sampled text that formats and tools are recognised by, the log's own lines whatever wraps them
    (``for_detection``): first with the layers that name a tool left on (glog's header, a logger's name), then
    with more of them taken off, for a parser or a marker that reads the text under them (``iter 100: loss``,
    ``INFO:tensorflow:`` under glog's header)."""
    if prefix is None:
        return [sample]
    lines = sample.decode("utf-8", "surrogateescape").splitlines()
    end = "\n" if sample.endswith(b"\n") else ""  # a sample ending mid-line still does (a cut record)
    return [
        ("\n".join(strip_prefixes(lines, part)) + end).encode("utf-8", "surrogateescape")
        for part in for_detection(prefix)
    ]


@operator(
    name="log_split",
    requires=["source_uri"],
    produces=[
        "doc_id",
        "log_format",
        "framework",
        "line_prefix",
        "line_prefix_re",
        "byte_range",
        "first_line",
        "n_bytes",
        "chunk",
        "chunk_count",
    ],
    version="1",
    planning=True,
    chunk_mb=CHUNK_MB,
    parsers=(),
)
def log_split(
    record: dict[str, Any], *, chunk_mb: float = CHUNK_MB, parsers: tuple[type[LogParser], ...] = ()
) -> dict[str, Any] | list[dict[str, Any]]:
    """Detect a log file's format; split it into chunk records when it is large."""
    path = record["source_uri"]
    size = os.path.getsize(path)
    if size == 0:  # quarantined with its reason, as the papers pipeline does: no run of nothing
        raise ValueError("empty file")
    head = read_head(path)
    sample = _sample(path, size, head)
    binary = is_binary(head)
    if not binary:  # detection reads the text as the parser will see it
        sample = normalize(sample)
    prefix = None if binary else detect_prefix(sample.decode("utf-8", "replace").splitlines()[:400])
    texts = _detection_texts(sample, prefix)
    sample = texts[0]
    cls, score = detect(sample, path, tuple(parsers))
    for other in texts[1:]:  # a parser that knows the lines under a tool's layer (``iter 100: loss ...``)
        other_cls, other_score = detect(other, path, tuple(parsers))
        if other_score > score:
            cls, score = other_cls, other_score
    if binary and not cls.binary:
        reason = (
            "UTF-16 text, which the reader does not decode; skipped (convert it: iconv -f UTF-16 -t UTF-8 "
            f"{os.path.basename(path)} > {os.path.splitext(os.path.basename(path))[0]}.utf8.log)"
            if is_utf16(head)
            else "not a training log (binary file); skipped"
        )
        return {**record, "issues": [{"operator": "log_split", "level": "file", "error": reason}]}
    prefix_name = prefix.name if prefix else None
    chunk_bytes = max(1, int(chunk_mb * (1 << 20)))
    common = {
        "log_format": cls.name,
        "framework": next(
            (named for t in texts if (named := _framework(cls, t.decode("utf-8", "replace"), prefix_name))), None
        ),
        "line_prefix": prefix.name if prefix else None,
        "line_prefix_re": prefix.pattern.pattern if prefix else None,
        "n_bytes": size,
    }
    if size <= chunk_bytes or not cls.chunkable:
        found = scan(path, max(size, 1) * 2)
        return {**record, **common, "doc_id": found.doc_id, "byte_range": (0, size), "first_line": 1}
    found = scan(path, chunk_bytes)
    return [
        {
            **record,
            **common,
            "doc_id": found.doc_id,
            "chunk": span.index,
            "chunk_count": len(found.spans),
            "byte_range": (span.start, span.end),
            "first_line": span.first_line,
        }
        for span in found.spans
    ]


@operator(
    name="log_parse",
    requires=["source_uri", "doc_id", "log_format"],
    produces=[
        "metrics",
        "events",
        "issues",
        "log_summary",
        "runs",
        "entities",
        "mentions",
        "uri",
        "kind",
        "title",
        "text",
    ],
    version="1",
    parsers=(),
)
class log_parse:  # noqa: N801 -- the operator's registered name; a class so each worker builds it once
    """Parse one log record (a whole file or one chunk of one)."""

    def __init__(self, parsers: tuple[type[LogParser], ...] = ()):
        self.parsers = tuple(parsers)

    def __call__(self, record: dict[str, Any]) -> dict[str, Any]:
        if not record.get("log_format"):
            return record  # a file log_split skipped, with its reason in `issues`
        path = record["source_uri"]
        cls = parser_named(record["log_format"], self.parsers)
        prefix = prefix_style(record.get("line_prefix"), record.get("line_prefix_re"))
        run_id = stable_id(record["doc_id"])
        start, end = record.get("byte_range") or (0, os.path.getsize(path))
        result = parse_span(
            path,
            int(start),
            int(end),
            int(record.get("first_line") or 1),
            cls,
            run_id,
            prefix=prefix,
            lookback=record.get("chunk") is not None,
        )
        last = last_placeable_line(result.events)
        if last is not None:
            _place_by_headers(result, path, int(start), int(end), int(record.get("first_line") or 1), prefix, last)
        saves_at_named_steps(result.events, result.metrics)
        one_event_per_save(result.events)  # a checkpoint written as several files, a line each: one save
        summary = {
            **result.summary,
            "doc_id": record["doc_id"],
            "uri": path,
            "n_bytes": record.get("n_bytes"),
            "format": cls.name,
            "format_framework": record.get("framework") or cls.framework,
            "chunk": record.get("chunk"),
            "chunk_count": record.get("chunk_count") or 1,
            "final": record.get("chunk") is None,
        }
        out = {key: record[key] for key in ("source_uri", "doc_id", "chunk", "chunk_count") if key in record}
        out.update(
            metrics=_compact(result.metrics),
            events=result.events,
            issues=[*record.get("issues", []), *result.issues],
            log_summary=summary,
        )
        if record.get("chunk") is None:
            merged = merge([summary])
            out.update(assemble(merged))
            out["events"] = [*out["events"], *closing_events(merged)]
            out["issues"].extend(silence(merged, "log_parse"))
        return out


def _place_by_headers(
    result: Any, path: str, start: int, end: int, first_line: int, prefix: Any, last: int
) -> None:
    """Events no record placed take the epoch their header opened (``_event_steps``): the span's lines are
    read again, only when such an event is, and only up to ``last``, the line of the last such event."""
    before = result.metrics.filter(pc.and_(pc.less_equal(result.metrics["line_no"], last),
                                           pc.is_valid(result.metrics["step"])))
    records = list(zip(before["line_no"].to_pylist(), before["step"].to_pylist(), strict=True))
    with open(path, "rb") as f:
        f.seek(start)
        place_by_headers(result.events, _lines_until(f, end - start, first_line, last, prefix), records)


def _lines_until(f: Any, size: int, first_line: int, last: int, prefix: Any) -> Any:
    """``(line_no, text)`` of the span open in ``f`` (``size`` bytes from where it stands), prefixes split off,
    up to line ``last``."""
    for line_no, raw in enumerate(f, start=first_line):
        if size <= 0 or line_no > last:
            return
        raw = raw[:size]
        size -= len(raw)
        yield line_no, split_prefix(normalize(raw).removesuffix(b"\n").decode("utf-8", "replace"), prefix)[1]


def _compact(metrics: Any) -> Any:
    """The metric rows with their repetitive text columns (run id, metric name) dictionary-encoded: a
    fraction of the bytes to pickle and ship to the store writer, which takes them as they are."""
    if not isinstance(metrics, pa.Table):
        return metrics
    for name in ("run_id", "name"):
        i = metrics.schema.get_field_index(name)
        if i >= 0 and pa.types.is_string(metrics.schema.field(i).type):
            metrics = metrics.set_column(i, name, metrics.column(i).dictionary_encode())
    return metrics


@operator(
    name="log_combine",
    requires=["log_summary"],
    produces=["runs", "entities", "mentions", "kind", "events"],
    version="1",
    batch=True,
)
def log_combine(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Assemble one file's run from the summaries of its chunks (a whole file was assembled already)."""
    summaries = [r["log_summary"] for r in records if r.get("log_summary")]
    if not summaries or any(s.get("final") for s in summaries):
        return []
    merged = merge(summaries)
    out = {
        "source_uri": merged.get("uri"),
        **assemble(merged),
        "events": closing_events(merged),  # a failure the chunks' lines gave no event (see closing_events)
        "issues": silence(merged, "log_combine"),
    }
    expected = merged.get("chunk_count") or len(summaries)
    if len(summaries) < expected:
        seen = {s.get("chunk") for s in summaries}
        missing = [i for i in range(expected) if i not in seen]
        out["issues"].append(
            {
                "operator": "log_combine",
                "error": f"chunks {missing} of {expected} failed; the run is assembled without them",
            }
        )
    return [out]
