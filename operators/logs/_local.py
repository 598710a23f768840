"""The logs pipeline's three operators in one process, without Ray or a database: for notebooks, tests and a
quick look at what assay reads from one file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from assay.operators.logs._base import LogParser
from assay.operators.logs._collect import METRICS_SCHEMA
from assay.operators.logs._operators import CHUNK_MB, log_combine, log_parse, log_split


@dataclass
class ParsedLog:
    """What the pipeline would write for one file."""

    run: dict[str, Any]
    metrics: pa.Table
    events: list[dict[str, Any]]
    entities: list[dict[str, Any]]
    mentions: list[dict[str, Any]]
    issues: list[dict[str, Any]]
    records: list[dict[str, Any]] = field(default_factory=list)  # the split records (one per chunk)

    def series(self, name: str, rank: int | None = None) -> list[tuple[int | None, float]]:
        """``(step, value)`` of one metric, in line order."""
        table = self.metrics.sort_by([("line_no", "ascending")])
        return [
            (s, v)
            for s, n, v, r in zip(
                *(table.column(c).to_pylist() for c in ("step", "name", "value", "rank")), strict=True
            )
            if n == name and (rank is None or r == rank)
        ]

    def event_kinds(self) -> list[str]:
        return [e["kind"] for e in self.events]


def parse_log(
    path: str, *, chunk_mb: float = CHUNK_MB, parsers: tuple[type[LogParser], ...] = ()
) -> ParsedLog:
    """Split, parse and combine ``path`` exactly as ``assay run logs`` does, in this process."""
    split = log_split({"source_uri": str(path)}, chunk_mb=chunk_mb, parsers=tuple(parsers))
    records = split if isinstance(split, list) else [split]
    parse = log_parse.instantiate(parsers=tuple(parsers))
    parsed = [parse(dict(r)) for r in records]
    combined = log_combine.instantiate()(parsed)
    final = combined[0] if combined else parsed[0]
    # The operator ships text columns dictionary-encoded (smaller across Ray); here they are plain text.
    tables = [p["metrics"].cast(METRICS_SCHEMA) for p in parsed if isinstance(p.get("metrics"), pa.Table)]
    return ParsedLog(
        run=(final.get("runs") or [{}])[0],
        metrics=pa.concat_tables(tables) if tables else METRICS_SCHEMA.empty_table(),
        events=[e for p in (*parsed, *combined) for e in p.get("events", [])],
        entities=final.get("entities", []),
        mentions=final.get("mentions", []),
        issues=[i for p in (*parsed, *combined) for i in p.get("issues", [])],
        records=records,
    )
