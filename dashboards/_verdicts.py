"""The Claims page's verdicts: one claim's stored verdicts side by side (claimed, measured by runs, predicted
by the cost model, reproduced), each with its reason, and the evidence behind each one click away.

The verdicts are what ``assay check`` wrote into ``claim_checks``; this module only reads and draws them.
A claim without a runs verdict can still be checked against the runs on the spot, by the same analysis
(``assay.checks.runs_check_now``), without storing the verdict.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from assay.checks import runs_check_now
from assay.dashboards import _figures, _frames, _ui
from assay.store import queries_runs, queries_scheduler, text_of
from assay.store.queries_checks import CHECK_KINDS

KIND_TITLES = {
    "runs": "Measured (runs)",
    "cost_model": "Predicted (cost model)",
    "reproduction": "Reproduced",
}
#: Runs drawn for one piece of evidence (a chart with more is unreadable; the table lists them all).
MAX_RUNS = 12
RUN_COLUMNS = ["role", "run_id", "framework", "model", "hardware", "layout", "world_size", "status"]


def show(claim: dict[str, Any], checks: pd.DataFrame) -> None:
    """The verdicts of ``claim`` (a row of the claims table) from its ``checks`` (``queries_checks.checks_of``)."""
    by_kind = {r["kind"]: r for r in checks.to_dict("records")}
    if not by_kind:
        _ui.empty_state(
            "No verdict on this claim yet: `assay check` compares each claim with the matching runs, the "
            "fitted cost model and, on request, a scaled-down reproduction, and stores the verdicts.",
            "check",
        )
    else:
        _side_by_side(claim, by_kind)
        for kind in CHECK_KINDS:
            if kind in by_kind:
                check = by_kind[kind]
                title = f"Evidence: {KIND_TITLES[kind].lower()} · {_frames.verdict_badge(check['verdict'])}"
                with st.expander(title):
                    EVIDENCE[kind](check, key=f"claims_{kind}")
    if "runs" not in by_kind and st.toggle(
        "Compare with the runs now",
        key="claims_live",
        help="Matches runs to this claim on the spot, as the runs check does; nothing is stored.",
    ):
        measured_now(str(claim["claim_id"]))


def _side_by_side(claim: dict[str, Any], by_kind: dict[str, dict[str, Any]]) -> None:
    first = next((c for c in by_kind.values() if not pd.isna(c["claimed"])), None)
    as_written = _frames.claim_value(
        claim.get("value"), claim.get("value_low"), claim.get("value_high"), claim.get("unit")
    )
    cols = st.columns(1 + len(CHECK_KINDS))
    cols[0].metric(
        "Claimed",
        _frames.check_value(first["claimed"], first["unit"]) if first else as_written,
        help="A relative claim as a ratio of the better to the worse (37% less time -> 1.59x).",
    )
    baseline = text_of(claim.get("baseline"))
    cols[0].caption(f"as written: {as_written}" + (f" vs {baseline}" if baseline else ""))
    for col, kind in zip(cols[1:], CHECK_KINDS, strict=True):
        check = by_kind.get(kind)
        if check is None:
            col.metric(KIND_TITLES[kind], "—")
            col.caption("not checked")
            continue
        col.metric(KIND_TITLES[kind], _frames.check_value(check["observed"], check["unit"]))
        col.markdown(f"**{_frames.verdict_badge(check['verdict'])}**")
        spread = (
            f" (range {_frames.check_value(check['low'], check['unit'])} to "
            f"{_frames.check_value(check['high'], check['unit'])})"
            if not pd.isna(check["low"]) and not pd.isna(check["high"])
            else ""
        )
        col.caption(text_of(check["reason"]) + spread)
    checked = max((c["checked_at"] for c in by_kind.values()), default=None)
    st.caption(f"Checked {_ui.when(checked)} by `assay check`; run it again to refresh the verdicts.")


def _runs_evidence(check: dict[str, Any], key: str) -> None:
    evidence = check["evidence"]
    runs = _frames.evidence_runs(evidence.get("runs"))
    if runs.empty:
        st.caption("This check names no runs.")
    else:
        show_runs(runs, evidence.get("metric"), key)
    groups = pd.DataFrame(evidence.get("groups") or [])
    if not groups.empty:
        st.caption("Per matching setting: the claimed system's runs against the baseline's.")
        _ui.table(groups)


def _cost_model_evidence(check: dict[str, Any], key: str) -> None:
    evidence = check["evidence"]
    plan, predicted = (
        _frames.layout_table(evidence.get("plan")),
        _frames.evidence_table(evidence.get("predicted")),
    )
    if plan.empty and predicted.empty:
        st.caption("This check stored no plan.")
        return
    left, right = st.columns(2)
    with left:
        st.caption("The plan priced (parallel layout of each side)")
        _ui.table(plan)
    with right:
        st.caption("What the cost model predicts for it")
        _ui.table(predicted)


def _reproduction_evidence(check: dict[str, Any], key: str) -> None:
    evidence = check["evidence"]
    jobs = _frames.evidence_jobs(evidence.get("jobs"))
    if jobs.empty:
        st.caption("This check names no jobs.")
    else:
        ids = tuple(jobs["job_id"])
        queue = _ui.query(queries_scheduler.job_queue, job_ids=ids)
        _ui.table(jobs.merge(queue, on="job_id", how="left"))
        st.page_link(
            "views/scheduler.py",
            label="Open these jobs in the Scheduler",
            icon=":material/view_timeline:",
            query_params={"jobs": ",".join(ids)},
        )
        segments = _ui.query(queries_scheduler.allocation_segments, ids)
        if not segments.empty:
            _ui.plot(_figures.timeline_figure(segments), key=f"{key}_timeline")
    runs = _frames.evidence_runs(evidence.get("runs"))
    if not runs.empty:
        show_runs(runs, evidence.get("metric"), key)


EVIDENCE = {
    "runs": _runs_evidence,
    "cost_model": _cost_model_evidence,
    "reproduction": _reproduction_evidence,
}


def show_runs(runs: pd.DataFrame, metric: str | None, key: str) -> None:
    """Runs (``run_id``, ``role``) a check names: their measured medians side by side and their curves."""
    ids = tuple(runs["run_id"].head(MAX_RUNS))
    summary = _ui.query(queries_runs.run_summaries, ids)
    if summary.empty:
        st.info("These runs are no longer in the database.", icon=":material/info:")
        return
    summary = summary.merge(runs, on="run_id", how="left")
    if metric not in summary.columns or not summary[metric].notna().any():
        metric = next((m for m in queries_runs.SPEED_METRICS if summary[m].notna().any()), None)
    labels = {r["run_id"]: _frames.run_label(r) for r in summary.to_dict("records")}
    if metric:
        _ui.plot(_figures.comparison_figure(summary, metric, labels), key=f"{key}_medians")
        curves = _ui.query(queries_runs.metric_curves, ids, metric, "step", buckets=200)
        if not curves.empty:
            _ui.plot(
                _figures.curves_figure(curves, pd.DataFrame(), labels, metric, "step"), key=f"{key}_curves"
            )
    _ui.table(summary[RUN_COLUMNS + ([metric] if metric else [])])


def measured_now(claim_id: str) -> None:
    """The runs verdict of a claim that has none stored, computed now as ``assay check`` would (not stored)."""
    check = _ui.query(runs_check_now, claim_id)
    if check is None:
        return
    a, b, c = st.columns(3)
    a.metric("Claimed", _frames.check_value(check.claimed, check.unit))
    b.metric("Measured (runs)", _frames.check_value(check.observed, check.unit))
    c.metric("Verdict", _frames.verdict_badge(check.verdict))
    st.caption(check.reason)
    _runs_evidence({**check.row(), "evidence": check.evidence}, key="claims_live")
