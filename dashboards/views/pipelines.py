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
every = _ui.query(queries_pipelines.quarantined_inputs, tuple(pruns["pipeline_run_id"]), None, limit=500)
a, b, c, d = st.columns(4)
a.metric("Runs", len(pruns))
b.metric("Inputs", f"{int(pruns['n_in'].fillna(0).sum()):,}")
# The rows of the quarantine table below, whole inputs and single lines alike, so the figure heads them.
c.metric(
    "Quarantined",
    f"{len(every):,}" + ("+" if len(every) == 500 else ""),
    help="Rows in quarantine for these runs: whole inputs and single bad lines of inputs that were read.",
)
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
levels = sorted(every["level"].dropna().astype(str).unique().tolist())  # what the rows hold: file, line, ...
level = right.radio(
    "Level",
    ["all", *levels],
    horizontal=True,
    key="pipes_level",
    help="input or file: a whole input was quarantined; line: a bad line inside an input that went on",
)
ids = tuple(chosen) or tuple(labels)
reasons = _ui.query(queries_pipelines.quarantine_reasons, ids, None if level == "all" else level)
if reasons.empty:
    st.success("Nothing quarantined.", icon=":material/check_circle:")
    st.stop()
_ui.table(reasons)
_ui.table(_ui.query(queries_pipelines.quarantined_inputs, ids, None if level == "all" else level, limit=500))
