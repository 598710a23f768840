"""Overview: what the knowledge graph holds, and the latest pipeline runs with their quarantined inputs."""

import streamlit as st

from assay.dashboards import _figures, _frames, _ui
from assay.store import queries_checks, queries_knowledge, queries_pipelines

st.title("Overview")
counts = _ui.query(queries_knowledge.table_counts)
if not any(counts[t] for t in ("documents", "claims", "runs", "jobs", "sim_runs")):
    _ui.empty_state("The database is empty.", "papers", "logs", "demo")
    st.stop()

cols = st.columns(6)
for col, (label, table) in zip(
    cols,
    [
        ("Documents", "documents"),
        ("Entities", "entities"),
        ("Claims", "claims"),
        ("Runs", "runs"),
        ("Jobs", "jobs"),
        ("Simulations", "sim_runs"),
    ],
    strict=True,
):
    col.metric(label, f"{counts[table]:,}")
st.caption(
    f"{counts['mentions']:,} mentions · {counts['relations']:,} relations · {counts['metrics']:,} metric "
    f"samples · {counts['events']:,} run events · {counts['allocations']:,} scheduler decisions · "
    f"{counts['quarantine']:,} quarantined inputs"
)

if counts["claims"]:
    verdicts = _ui.query(queries_checks.claim_verdict_counts)
    if verdicts.empty:
        _ui.empty_state(
            "No claim has a verdict yet: check them against the runs and the cost model.", "check"
        )
    else:
        st.markdown(
            f"**Claims checked: {int(verdicts['claims'].sum()):,}** of {counts['claims']:,} — "
            + " · ".join(f"{n:,} {_frames.verdict_badge(v)}" for v, n in verdicts.itertuples(index=False)),
            help="Each claim counted once, under its worst verdict from runs, the cost model and reproductions "
            "(contradicted, then implausible, consistent, untestable). The Claims page filters by verdict.",
        )

left, right = st.columns(2)
with left:
    types = _ui.query(queries_knowledge.entity_types)
    if types.empty:
        _ui.empty_state("No entities yet.", "papers")
    else:
        _ui.plot(_figures.bar_figure(types, "type", "entities", "entities by type"))
with right:
    kinds = _ui.query(queries_knowledge.documents_by_kind)
    if not kinds.empty:
        _ui.plot(_figures.bar_figure(kinds, "kind", "documents", "documents by kind"))

st.subheader("Recent pipeline runs")
pruns = _ui.query(queries_pipelines.pipeline_runs, limit=10)
if pruns.empty:
    _ui.empty_state("No pipeline has run yet.", "papers", "logs")
    st.stop()
_ui.table(pruns, column_config={"docs_per_s": st.column_config.NumberColumn("docs/s", format="%.2f")})
labels = {
    r.pipeline_run_id: f"{r.pipeline} · {_ui.when(r.started_at)} · {r.pipeline_run_id[:8]}"
    for r in pruns.itertuples()
}
chosen = st.selectbox(
    "Quarantined inputs of",
    ["all recent runs", *labels],
    key="overview_run",
    format_func=lambda k: labels.get(k, k),
)
ids = list(labels) if chosen == "all recent runs" else [chosen]
bad = _ui.query(queries_pipelines.quarantined_inputs, ids, limit=50)
if bad.empty:
    st.success("No quarantined inputs in these runs.", icon=":material/check_circle:")
else:
    st.caption(f"{len(bad)} quarantined input(s); every reason is on the Pipelines page.")
    _ui.table(bad[["pipeline", "source_uri", "operator", "error", "level", "at"]])
