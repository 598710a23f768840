"""The per-file table ``assay run logs`` ends with: what each log gave (its tool, the run's status, how many
steps and their range, series, the kinds of events, the share of its lines that gave nothing; below it, where
the general reader took each file's steps from) and which files
gave no metric series at all, with the reason. Plain formatting of rows read from the graph
(``assay.pipelines.logs.file_report`` reads them)."""

from __future__ import annotations

import json
import os
from typing import Any

_COLUMNS = ("file", "framework", "status", "steps", "range", "series", "events", "unrecognised")
#: The widest the ``step from`` cell gets (the full reasons are in ``runs.config``'s ``summary.decisions``).
_WHY_WIDTH = 60


def file_row(source_uri: str, framework: str | None, config: str | dict | None) -> dict[str, Any]:
    """One table row from a ``runs`` row's source, framework and ``config`` JSON."""
    parsed = json.loads(config) if isinstance(config, str) else (config or {})
    framework = framework if isinstance(framework, str) else None  # a data frame's missing value is NaN
    summary = parsed.get("summary") or {}
    lines, missed = summary.get("lines"), summary.get("unrecognised_lines")
    first, last = summary.get("first_step"), summary.get("last_step")
    return {
        "file": source_uri,
        "framework": framework or f"({parsed.get('format') or '?'})",
        "status": summary.get("status") or "unknown",
        "steps": summary.get("steps") or 0,
        "range": f"{first}-{last}" if first is not None and last is not None else "-",
        "series": len(summary.get("metrics") or []),
        "events": _kinds(summary.get("events") or {}),
        "unrecognised": f"{100 * missed / lines:.0f}%" if lines and missed is not None else "-",
        "step from": _step_from(summary.get("decisions") or []),
    }


def _step_from(decisions: list[str]) -> str:
    """Where the general reader took each template's step from (``the counter 'iter'``), the distinct ones in
    file order; ``-`` where a format's own parser read the file (its step key is the format's)."""
    sources: list[str] = []
    for reason in decisions:
        _shape, sep, why = reason.rpartition(": step from ")
        source = why.split("; loss:")[0] if sep else reason
        if source not in sources:
            sources.append(source)
    text = "; ".join(sources) or "-"
    return text if len(text) <= _WHY_WIDTH else text[: _WHY_WIDTH - 3] + "..."


def _kinds(counts: dict[str, int]) -> str:
    """Event kinds with their counts, no spaces: ``failure,oom,nan:3`` (``-`` for none)."""
    return ",".join(k if n == 1 else f"{k}:{n}" for k, n in sorted(counts.items()) if n) or "-"


def file_table(rows: list[dict[str, Any]], silent: list[tuple[str, str]], *, limit: int = 200) -> str:
    """The table (files by name; at most ``limit`` rows, then a count) and the files that gave nothing
    (``silent``: source and reason)."""
    if not rows and not silent:
        return "logs: no new files in this run (files already in the database are not read again)"
    rows = sorted(rows, key=lambda r: r["file"])
    base = os.path.commonpath([r["file"] for r in rows]) if len(rows) > 1 else ""
    shown = [
        {**r, "file": os.path.relpath(r["file"], base) if base else os.path.basename(r["file"])} for r in rows
    ]
    cells = [[str(r[c]) for c in _COLUMNS] for r in shown[:limit]]
    widths = [max([len(c), *(len(row[i]) for row in cells)]) for i, c in enumerate(_COLUMNS)]
    numeric = {"steps", "range", "series", "unrecognised"}
    lines = []
    for row in [list(_COLUMNS), *cells]:
        lines.append(
            "  ".join(
                cell.rjust(w) if name in numeric else cell.ljust(w)
                for cell, w, name in zip(row, widths, _COLUMNS, strict=True)
            ).rstrip()
        )
    if len(shown) > limit:
        lines.append(f"... {len(shown) - limit} more files (select source_uri, framework, config from runs)")
    chosen = [(r["file"], r["step from"]) for r in shown[:limit] if r.get("step from", "-") != "-"]
    if chosen:  # below the table, whose columns scripts read: where the general reader took each file's steps
        lines.append("steps read by the general reader from:")
        lines.extend(f"  {name}: {why}" for name, why in chosen)
    if silent:
        lines.append(f"{len(silent)} file(s) gave no metric series:")
        lines.extend(f"  {source}: {reason}" for source, reason in sorted(silent))
    else:
        lines.append("every file gave metric series")
    return "\n".join(lines)
