"""Verdicts on performance claims: each claim checked against the runs in the graph, the fitted cost model,
and (on request) a scaled-down reproduction the scheduler runs.

    from assay.checks import check_claims
    report = check_claims("assay.duckdb")             # every performance claim; rows in claim_checks
    report = check_claims(db, ["c1f..."], reproduce=True)
    print(report.summary())

Each verdict is ``consistent``, ``contradicted``, ``implausible`` or ``untestable``, with the reason in words
and the evidence (matching runs, the plan, the reproduction's jobs) as JSON; see docs/checks.md.
"""

from assay.checks._check import Check
from assay.checks._check_claims import CheckReport, UnknownClaims, check_claims, runs_check_now
from assay.checks._from_cost_model import Predictor, check_with_cost_model
from assay.checks._from_runs import RunsIndex, check_with_runs
from assay.checks._reproduce import reproduce
from assay.checks._setting import ClaimSetting, layout_sides
from assay.checks._sweep import Unreproducible, plan_sweep, why_not_reproducible

__all__ = [
    "Check",
    "CheckReport",
    "ClaimSetting",
    "Predictor",
    "RunsIndex",
    "UnknownClaims",
    "Unreproducible",
    "check_claims",
    "check_with_cost_model",
    "check_with_runs",
    "layout_sides",
    "plan_sweep",
    "reproduce",
    "runs_check_now",
    "why_not_reproducible",
]
