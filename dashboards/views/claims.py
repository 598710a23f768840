"""Claims: filter, sort and export the numeric claims; check one against the measured runs."""

import streamlit as st

from assay.dashboards import _figures, _frames, _ui
from assay.store import queries_claim_match, queries_claims, queries_knowledge

SHOWN = 1000

st.title("Claims")
if not _ui.query(queries_knowledge.table_counts)["claims"]:
    _ui.empty_state("No claims yet: they are extracted from papers.", "papers")
    st.stop()

facets = _ui.query(queries_claims.claim_facets)
c1, c2, c3, c4 = st.columns(4)
systems = c1.multiselect("System", facets["systems"], key="claims_systems")
metrics = c2.multiselect("Metric", facets["metrics"], key="claims_metrics")
baselines = c3.multiselect("Baseline", facets["baselines"], key="claims_baselines")
settings = c4.multiselect("Setting", facets["settings"], key="claims_settings")
c5, c6, c7, c8 = st.columns([3, 1, 1, 1])
text = c5.text_input(
    "Search claim text", key="claims_text", max_chars=200, placeholder="e.g. throughput, TP=2"
)
min_conf = c6.slider("Min. confidence", 0.0, 1.0, 0.0, 0.05, key="claims_conf")
sort = c7.selectbox("Sort by", list(queries_claims.CLAIM_SORTS), key="claims_sort")
descending = c8.toggle("Descending", value=True, key="claims_desc")

flt = queries_claims.ClaimFilter(tuple(systems), tuple(metrics), tuple(baselines), tuple(settings), text, min_conf)
total = _ui.query(queries_claims.claims_count, flt)
table = _ui.query(queries_claims.claims, flt, sort, descending, limit=SHOWN)
st.caption(
    f"{total:,} claim(s) match"
    + (f"; the first {SHOWN:,} are shown, the download has all." if total > SHOWN else ".")
)
if table.empty:
    st.info("No claim matches these filters.", icon=":material/filter_alt_off:")
    st.stop()
db = str(_ui.db_path())
st.download_button(
    "Download CSV",
    data=lambda: queries_claims.claims_csv(db, flt, sort, descending),
    file_name="claims.csv",
    mime="text/csv",
    icon=":material/download:",
    on_click="ignore",
    key="claims_csv",
)
view = table.assign(
    claim=[
        _frames.claim_value(v, lo, hi, u)
        for v, lo, hi, u in table[["value", "value_low", "value_high", "unit"]].itertuples(index=False)
    ]
)
_ui.table(
    view[["system", "metric", "claim", "baseline", "setting", "text", "confidence", "document", "claim_id"]],
    column_config={
        "confidence": st.column_config.ProgressColumn("confidence", min_value=0, max_value=1, format="%.2f")
    },
)

st.subheader("Claimed vs measured")
# Claims that runs can check (throughput, MFU, step time ...) first.
candidates = (
    table.head(200)
    .assign(check=lambda d: d["metric"].map(queries_claim_match.measurable))
    .sort_values("check", ascending=False, kind="stable")
)
labels = {
    r.claim_id: f"{r.system} · {r.metric} · {_frames.claim_value(r.value, r.value_low, r.value_high, r.unit)}"
    f"{' vs ' + r.baseline if isinstance(r.baseline, str) else ''} · {queries_claim_match.text_of(r.setting)}"
    for r in candidates.itertuples()
}
claim_id = st.selectbox("Claim", list(labels), format_func=labels.get, key="claims_pick")
cmp = _ui.query(queries_claim_match.claim_vs_measured, claim_id)
claim = cmp.claim
a, b, c = st.columns(3)
unit = "x" if cmp.relative else queries_claim_match.text_of(claim.get("unit"))
a.metric(
    "Claimed",
    f"{cmp.claimed:.3g}{unit}" if cmp.claimed is not None else "—",
    help="A relative claim as a ratio of the better to the worse (37% less time -> 1.59x).",
)
b.metric(
    "Measured",
    f"{cmp.measured:.3g}{unit}" if cmp.measured is not None else "—",
    delta=(
        f"{(cmp.measured / cmp.claimed - 1) * 100:+.0f}% vs claim"
        if cmp.measured is not None and cmp.claimed
        else None
    ),
    delta_color="off",
)
c.metric("Compared on", cmp.metric or "—", help="The logged metric that measures the claim's metric.")
if cmp.note:
    st.info(
        cmp.note + ". Runs match on framework = the claim's system (or baseline), and on the model, GPUs "
        "and TP/PP/DP its setting names.",
        icon=":material/info:",
    )
if not cmp.groups.empty:
    st.caption("Per matching setting: median of the claimed system's runs vs the baseline's runs.")
    _ui.table(cmp.groups)
if not cmp.runs.empty:
    run_labels = {r["run_id"]: _frames.run_label(r) for r in cmp.runs.to_dict("records")}
    if cmp.metric in cmp.runs.columns:
        _ui.plot(_figures.comparison_figure(cmp.runs, cmp.metric, run_labels), key="claim_runs")
    cols = ["role", "run_id", "framework", "model", "hardware", "layout", "world_size", "status"]
    _ui.table(cmp.runs[cols + ([cmp.metric] if cmp.metric in cmp.runs.columns else [])])
