"""How much of a log was understood: its non-blank lines, those that gave nothing (no metric, event,
setting or outcome), and the most frequent shapes of those, so that a file read to nothing says why."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np

from assay.operators.logs._lines import LineBlock
from assay.operators.logs._names import is_step_key, metric_name

#: Lines sampled per chunk for the shapes of what was not understood.
SAMPLE_LINES = 400
_NUMBER = re.compile(r"[-+]?\d+(?:[.,:/]\d+)*(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+")
_SPACE = re.compile(r"\s+")
_SHAPE_CHARS = 80


def line_shape(text: str) -> str:
    """A line with its numbers masked and its spaces collapsed: ``Total loss is <n> ETA is <n>``."""
    return _SPACE.sub(" ", _NUMBER.sub("<n>", text)).strip()[:_SHAPE_CHARS]


class Coverage:
    """Counts non-blank lines as blocks pass and keeps a sample of them; told at the end which lines gave
    something, it reports the rest."""

    def __init__(self) -> None:
        self.lines = 0
        self._sample: list[tuple[int, str]] = []

    def see(self, block: LineBlock) -> None:
        lengths = np.diff(block.starts)
        nonblank = np.flatnonzero(lengths > 2) if len(lengths) else lengths
        self.lines += int(len(nonblank))
        room = SAMPLE_LINES - len(self._sample)
        if room > 0:
            for i in nonblank[:room].tolist():
                text = block.line(i).strip()
                if text:
                    self._sample.append((block.line_no(i), text))

    def report(self, understood: np.ndarray) -> dict[str, Any]:
        """``lines``, ``unrecognised`` (estimated from the sample where the chunk is larger) and the most
        frequent ``shapes`` of the lines that gave nothing."""
        if not self.lines:
            return {"lines": 0, "unrecognised": 0, "shapes": []}
        sampled = np.asarray([n for n, _ in self._sample], dtype=np.int64)
        missed = ~np.isin(sampled, understood)
        share = float(missed.mean()) if len(sampled) else 0.0
        shapes = Counter(
            line_shape(text) for (_, text), miss in zip(self._sample, missed, strict=True) if miss
        )
        return {
            "lines": self.lines,
            "unrecognised": round(share * self.lines),
            "shapes": [[shape, n] for shape, n in shapes.most_common(5)],
        }


def merge_reports(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """One report for a file from its chunks'."""
    shapes: Counter[str] = Counter()
    for r in reports:
        shapes.update({shape: n for shape, n in r.get("shapes", [])})
    return {
        "lines": sum(r.get("lines", 0) for r in reports),
        "unrecognised": sum(r.get("unrecognised", 0) for r in reports),
        "shapes": [[shape, n] for shape, n in shapes.most_common(5)],
    }


def silence(summary: dict[str, Any], operator: str) -> list[dict[str, Any]]:
    """The quarantine row of a file that gave no metric series (nothing is accepted in silence)."""
    if summary.get("n_metric_rows"):
        return []
    coverage = summary.get("coverage") or {}
    shapes = "; ".join(f"{shape!r} x{n}" for shape, n in coverage.get("shapes", [])) or "none"
    what = f"format {summary.get('format')}, framework {summary.get('framework') or 'unknown'}"
    why = why_nothing([shape for shape, _ in coverage.get("shapes", [])], [n for _, n in coverage.get("shapes", [])])
    return [
        {
            "operator": operator,
            "level": "file",
            "error": (
                f"no metric series read ({what}): {why}; {coverage.get('unrecognised', 0)} of "
                f"{coverage.get('lines', 0)} lines unrecognised; most frequent: {shapes}"
            ),
        }
    ]


#: A word printed right before or after a (masked) number: the name the number could have.
_BESIDE = re.compile(r"([A-Za-z_][\w/.\-]*)[\s:=]{0,3}<n>|<n>[\s:]{0,2}([A-Za-z_][\w/.\-]*)")


def why_nothing(shapes: list[str], counts: list[int] | None = None) -> str:
    """Why the general reader read no series from lines of these shapes (the most frequent first, ``counts``
    times each), in the terms of its rules: no numbers; no shape repeated (settings and messages, no record
    printed again); numbers with no word beside them; words beside numbers but none the synonym table knows;
    else known names on lines of a shape no rule pairs."""
    if not shapes:
        return "no line to read"
    if not any("<n>" in shape for shape in shapes):
        return "no line prints a number"
    if counts and len(counts) >= 3 and max(counts) == 1:
        return "no line shape repeats (settings and messages printed once; no record printed again)"
    beside = [w for shape in shapes for pair in _BESIDE.findall(shape) for w in pair if w]
    if not beside:
        return "numbers printed with no name beside them"
    known = sorted({w for w in beside if metric_name(w) or is_step_key(w)})
    if not known:
        return f"numbers named only by words the synonym table does not know ({', '.join(sorted(set(beside))[:4])})"
    return f"known names ({', '.join(known[:4])}) on lines whose key/value pairing no rule reads"
