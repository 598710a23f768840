"""``check_claims``: every checkable claim against the runs and the cost model (and, on request, a
reproduction), the verdicts written to ``claim_checks``."""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from assay.checks._check import Check, untestable
from assay.checks._from_cost_model import Predictor, check_with_cost_model
from assay.checks._from_runs import RunsIndex, check_with_runs
from assay.checks._setting import CHECKABLE, ClaimSetting
from assay.errors import AssayError
from assay.store import connect, write_rows
from assay.store.queries_checks import (
    CHECK_KINDS,
    VERDICTS,
    claims_to_check,
    measured_runs,
    metric_series,
    name_spellings,
)
from assay.store.queries_costmodel import latest_fit

Echo = Callable[[str], None]
Reproducer = Callable[[str, ClaimSetting], Check]


class UnknownClaims(AssayError, ValueError):
    """Claim ids that are not in the database."""

    code = "E080"


@dataclass
class CheckReport:
    """What ``check_claims`` found and wrote."""

    checks: list[Check] = field(default_factory=list)
    n_claims: int = 0  # claims read
    n_checked: int = 0  # claims checked (performance claims, or those asked for by id)
    seconds: float = 0.0

    def counts(self) -> dict[str, Counter]:
        """Verdicts per kind of evidence."""
        out: dict[str, Counter] = {k: Counter() for k in CHECK_KINDS}
        for c in self.checks:
            out[c.kind][c.verdict] += 1
        return {k: v for k, v in out.items() if v}

    def summary(self) -> str:
        lines = [f"checked {self.n_checked} of {self.n_claims} claims in {self.seconds:.1f}s "
                 f"({len(self.checks)} verdicts written to claim_checks)"]
        for kind, counts in self.counts().items():
            lines.append(f"  {kind:12} " + ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v]))
        return "\n".join(lines)


def check_claims(
    db: str | os.PathLike[str],
    claim_ids: Sequence[str] | None = None,
    *,
    reproduce: bool = False,
    reproducer: Reproducer | None = None,
    echo: Echo | None = None,
) -> CheckReport:
    """Check claims and store one verdict per claim and kind of evidence (a re-check replaces it).

    Without ``claim_ids``, every claim about speed, FLOP rate, MFU, memory or scaling is checked; with them,
    exactly those claims (``UnknownClaims`` names the ids that do not exist). Only current claims are
    checked: those of a document's superseded version (the file changed since) are kept with their
    verdicts, and left out. ``reproduce`` also runs a scaled-down reproduction of each claim that compares
    two layouts, through the live scheduler.
    """
    t0 = time.perf_counter()
    db = str(db)
    with connect(db):  # brings an older file to the schema that has claim_checks
        pass
    rows = claims_to_check(db, list(claim_ids) if claim_ids is not None else None)
    if claim_ids is not None:
        missing = sorted(set(claim_ids) - set(rows["claim_id"]))
        if missing:
            raise UnknownClaims(f"no current claim with id {', '.join(missing[:5])}"
                                + (f" (and {len(missing) - 5} more)" if len(missing) > 5 else "")
                                + " (the claims of a superseded version of a document are not checked); "
                                + "`assay query \"SELECT claim_id, text FROM current_claims\"` lists them")
    settings = [ClaimSetting.from_row(r) for r in rows.to_dict("records")]
    report = CheckReport(n_claims=len(settings))
    if claim_ids is None:
        settings = [s for s in settings if s.measure in CHECKABLE]
    report.n_checked = len(settings)
    index = runs_index(db)
    predictor = Predictor.from_fit_row(latest_fit(db))
    for setting in settings:
        report.checks.append(check_with_runs(setting, index))
        report.checks.append(check_with_cost_model(setting, predictor))
    if reproduce:
        report.checks += _reproductions(db, settings, reproducer, echo)
    write_rows(db, {"claim_checks": [c.row() for c in report.checks]}, upsert=["claim_checks"])
    report.seconds = time.perf_counter() - t0
    return report


def runs_check_now(db: str | os.PathLike[str], claim_id: str) -> Check | None:
    """One claim against the runs in the database now, as ``check_claims`` would judge it, without storing
    the verdict (the dashboard's "compare with the runs now"); None when there is no such claim."""
    rows = claims_to_check(str(db), [claim_id])
    if rows.empty:
        return None
    index = runs_index(str(db))
    return check_with_runs(ClaimSetting.from_row(rows.to_dict("records")[0]), index)


def runs_index(db: str) -> RunsIndex:
    """The runs of ``db`` for many claims: settings and medians read now, each metric's step series on first
    use (the intervals are over them)."""
    return RunsIndex(measured_runs(db), name_spellings(db), series=lambda name: metric_series(db, name))


def _reproductions(db: str, settings: list[ClaimSetting], reproducer: Reproducer | None,
                   echo: Echo | None) -> list[Check]:
    if reproducer is None:
        from assay.checks._reproduce import reproduce

        def reproducer(database: str, setting: ClaimSetting) -> Check:
            return reproduce(database, setting, echo=echo or print)

    out = []
    for setting in settings:
        try:
            out.append(reproducer(db, setting))
        except Exception as exc:  # one failed reproduction is that claim's verdict, not the end of the run
            out.append(untestable(setting.claim_id, "reproduction", f"the reproduction failed: {exc}"))
    return out
