"""Verdicts on performance claims: each claim checked against the runs in the graph, the fitted cost model,
and (on request) a scaled-down reproduction the scheduler runs.

    from assay.checks import check_claims
    report = check_claims("assay.duckdb")             # every checkable claim; rows in claim_checks
    report = check_claims(db, ["c1f..."], reproduce=True)
"""

from assay.checks._check import Check
from assay.checks._reproduce import reproduce
from assay.checks._setting import ClaimSetting, layout_sides
from assay.checks._sweep import plan_sweep, why_not_reproducible

__all__ = ["Check", "ClaimSetting", "layout_sides", "plan_sweep", "reproduce", "why_not_reproducible"]
