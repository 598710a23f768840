"""The Claims page's verdicts: one claim's stored verdicts side by side (claimed, measured by runs, predicted
by the cost model, reproduced), each with its reason, and the evidence behind each one click away.

The verdicts are what ``assay check`` wrote into ``claim_checks``; this module only reads and draws them.
A claim without a runs verdict can still be checked against the runs on the spot, by the same analysis
(``assay.checks.runs_check_now``), without storing the verdict.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import plotly.graph_objects as go
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
#: A colour per verdict for the interval chart (the text badge beside it says the same in words).
VERDICT_COLOURS = {"consistent": "#2ca02c", "contradicted": "#d62728", "implausible": "#ff7f0e",
                   "inconclusive": "#7f7f7f", "untestable": "#bbbbbb"}
#: Characters of a reason shown on its one line (the whole reason is in the line's tooltip).
REASON_CHARS = 160


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
        if _finite(check["low"]) and _finite(check["high"]):
            col.caption(f"interval {_frames.check_value(check['low'], check['unit'])} to "
                        f"{_frames.check_value(check['high'], check['unit'])}")
        col.caption(one_line(check), help=text_of(check["reason"]))
    if first is not None and any(_finite(c["observed"]) for c in by_kind.values()):
        _ui.plot(interval_figure(first["claimed"], first["unit"], by_kind), key="claims_intervals")
    checked = max((c["checked_at"] for c in by_kind.values()), default=None)
    st.caption(f"Checked {_ui.when(checked)} by `assay check`; run it again to refresh the verdicts.")


def one_line(check: dict[str, Any]) -> str:
    """The verdict's reason in one line: the judgement itself where the check stored it (``why``), else the
    reason, cut at ``REASON_CHARS``."""
    evidence = check.get("evidence") if isinstance(check.get("evidence"), dict) else {}
    text = text_of(evidence.get("why")) or text_of(check.get("reason"))
    text = " ".join(text.split())
    return text if len(text) <= REASON_CHARS else text[: REASON_CHARS - 1].rstrip() + "…"


def interval_figure(claimed: Any, unit: Any, by_kind: dict[str, dict[str, Any]]) -> go.Figure:
    """Each kind of evidence as a point with its interval bar (the runs' and the reproduction's bootstrap
    interval, the cost model's hold-out band), coloured by its verdict, beside the claimed value (a dashed
    line): whether the claim lies inside is read at a glance."""
    fig = go.Figure()
    rows = [(k, by_kind[k]) for k in CHECK_KINDS if k in by_kind and _finite(by_kind[k]["observed"])]
    for kind, c in rows:
        x = float(c["observed"])
        low = float(c["low"]) if _finite(c["low"]) else x
        high = float(c["high"]) if _finite(c["high"]) else x
        fig.add_trace(go.Scatter(
            x=[x], y=[KIND_TITLES[kind]], mode="markers", name=f"{KIND_TITLES[kind]}: {c['verdict']}",
            marker=dict(size=12, color=VERDICT_COLOURS.get(str(c["verdict"]), "#444")),
            error_x=dict(type="data", symmetric=False, array=[high - x], arrayminus=[x - low], thickness=3,
                         width=8),
            hovertemplate=f"{KIND_TITLES[kind]}: %{{x:.3g}} ({low:.3g} to {high:.3g})<extra>{c['verdict']}</extra>",
        ))
    if _finite(claimed):
        fig.add_vline(x=float(claimed), line_dash="dash", line_color="#1f1f1f",
                      annotation_text=f"claimed {_frames.check_value(claimed, unit)}", annotation_position="top")
    fig.update_layout(height=120 + 45 * len(rows), margin=dict(l=10, r=10, t=40, b=30), showlegend=False,
                      xaxis_title=f"ratio ({unit})" if unit == "x" else text_of(unit) or None)
    fig.update_yaxes(automargin=True)
    return fig


def _finite(v: Any) -> bool:
    return isinstance(v, int | float) and math.isfinite(v)


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
            roles = dict(zip(summary["run_id"], summary.get("role", pd.Series(dtype=str)), strict=False))
            role_labels = {r: f"{roles.get(r) or 'run'} · {name}" for r, name in labels.items()}
            fig = _figures.curves_figure(curves, pd.DataFrame(), role_labels, metric, "step")
            # The baseline's runs dashed: subject and baseline tell apart even where colours run short.
            fig.for_each_trace(lambda t: t.update(line_dash="dash")
                               if roles.get(t.legendgroup) == "baseline" and t.meta == "series" else None)
            _ui.plot(fig, key=f"{key}_curves")
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
