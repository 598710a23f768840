"""The report of an evaluation: its scores, where the predictions came from, and the text for a terminal."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from assay.evaluation._scoring import Score


@dataclass
class Report:
    headline: Score
    other: Score
    n_documents: int
    from_db: int = 0
    extracted: int = 0
    db: str | None = None
    notes: list[str] = field(default_factory=list)
    #: Each document's name (its ``doc`` stem, source file or index) by gold key.
    names: dict[int, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "headline": self.headline.as_dict(self.names),
            "other": self.other.as_dict(self.names),
            "n_documents": self.n_documents,
            "from_db": self.from_db,
            "extracted": self.extracted,
            "db": self.db,
            "notes": self.notes,
        }


def document_lines(total: Score, names: Mapping[int, str] | None = None) -> list[str]:
    """One line per document of a score: its name, P, R and the subject/baseline/both counts."""
    names = names or {}
    width = max((len(names.get(k, f"#{k}")) for k in total.documents), default=4)
    return [
        f"{names.get(k, f'#{k}'):<{width}}  P {d.precision:.2f}  R {d.recall:.2f}  "
        f"({d.tp}/{d.n_gold} gold, {d.n_pred} predicted{f', {d.neutral} neutral' if d.neutral else ''})  "
        f"subject {d.subject_right}/{d.tp}  baseline {d.versus_right}/{d.tp}  both {d.attributed}/{d.tp}"
        for k, d in sorted(total.documents.items(), key=lambda kv: names.get(kv[0], f"#{kv[0]:09d}"))
    ]


def format_report(report: Report, show: int = 50) -> str:
    """The report as text for a terminal."""
    h, o = report.headline, report.other
    lines = [
        f"Numeric claims, {report.n_documents} documents",
        f"  headline (ratio claims, unit x or %): precision {h.precision:.3f}  recall {h.recall:.3f}  "
        f"F1 {h.f1:.3f}  ({h.tp} matched, {h.n_pred} predicted, {h.n_gold} gold)",
        f"  other quantities:                     precision {o.precision:.3f}  recall {o.recall:.3f}  "
        f"F1 {o.f1:.3f}  ({o.tp} matched, {o.n_pred} predicted, {o.n_gold} gold)",
        f"  attribution (ratio claims matched): subject and versus right {h.attribution:.3f} "
        f"({h.attributed}/{h.tp}; subject {h.subject_right}, versus {h.versus_right}); judged with it: "
        f"precision {h.attributed_precision:.3f}  recall {h.attributed_recall:.3f}",
        f"  subject right {h.subject_share:.3f}, baseline right {h.versus_share:.3f}, both {h.attribution:.3f} "
        f"(both by exact name {h.attribution_exact:.3f})"
        + (
            f"; {h.neutral} prediction(s) matched background (context) claims, not counted"
            if h.neutral
            else ""
        ),
    ]
    if len(h.documents) > 1 or report.names:
        lines.append(
            "per document (ratio claims): precision, recall, then of the matched: subject, baseline, both"
        )
        lines += [f"  {line}" for line in document_lines(h, report.names)]
    if report.db:
        lines.append(f"  predictions: {report.from_db} document(s) from {report.db}")
    lines += [f"  note: {n}" for n in report.notes]
    for title, items in (
        ("misses (gold claims not found)", h.misses + o.misses),
        ("false positives (predicted, not in gold)", h.false_positives + o.false_positives),
        ("misattributed (ratio claims matched, subject or versus wrong)", h.misattributed),
    ):
        if items:
            lines.append(f"{title}: {len(items)}")
            lines += [f"  {i if isinstance(i, str) else i.describe()}" for i in items[:show]]
            if len(items) > show:
                lines.append(f"  ... {len(items) - show} more (--show N)")
    return "\n".join(lines)
