"""Pipelines: runs of the knowledge pipelines, their rate, and what they quarantined and why."""

import streamlit as st

from assay.dashboards import _figures, _ui
from assay.store import queries_knowledge, queries_pipelines

st.title("Pipelines")
if not _ui.query(queries_knowledge.table_counts)["pipeline_runs"]:
    _ui.empty_state("No pipeline has run yet.", "papers", "logs")
    st.stop()

pipelines = st.multiselect("Pipeline", _ui.query(queries_pipelines.pipeline_names), key="pipes_names")
pruns = _ui.query(queries_pipelines.pipeline_runs, tuple(pipelines) or None, limit=500)
if pruns.empty:
    st.info("No run of these pipelines.")
    st.stop()
a, b, c, d = st.columns(4)
a.metric("Runs", len(pruns))
b.metric("Inputs", f"{int(pruns['n_in'].fillna(0).sum()):,}")
c.metric("Quarantined", f"{int(pruns['n_quarantined'].fillna(0).sum()):,}")
d.metric("Median docs/s", f"{pruns['docs_per_s'].median():.2f}" if pruns["docs_per_s"].notna().any() else "—")
_ui.plot(_figures.docs_per_s_figure(pruns), key="docs_per_s")
_ui.table(pruns, column_config={"docs_per_s": st.column_config.NumberColumn("docs/s", format="%.2f")})

st.subheader("Quarantine")
labels = {
    r.pipeline_run_id: f"{r.pipeline} · {_ui.when(r.started_at)} · {r.pipeline_run_id[:8]}"
    for r in pruns.itertuples()
}
left, right = st.columns([3, 1])
chosen = left.multiselect(
    "Pipeline runs",
    list(labels),
    format_func=labels.get,
    key="pipes_runs",
    placeholder="all runs shown above",
)
level = right.radio(
    "Level",
    ["all", "input", "line"],
    horizontal=True,
    key="pipes_level",
    help="input: a whole input was quarantined; line: a bad line inside an input that went on",
)
ids = tuple(chosen) or tuple(labels)
reasons = _ui.query(queries_pipelines.quarantine_reasons, ids, None if level == "all" else level)
if reasons.empty:
    st.success("Nothing quarantined.", icon=":material/check_circle:")
    st.stop()
_ui.table(reasons)
_ui.table(_ui.query(queries_pipelines.quarantined_inputs, ids, None if level == "all" else level, limit=500))
