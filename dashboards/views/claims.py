"""Claims: filter, sort and export the numeric claims with their verdicts; one claim's verdicts side by side
with the evidence behind them."""

import streamlit as st

from assay.checks import ClaimSetting
from assay.dashboards import _frames, _ui, _verdicts
from assay.store import queries_checks, queries_claims, queries_knowledge, text_of

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
c5, c6, c7, c8 = st.columns([3, 2, 2, 2])
text = c5.text_input(
    "Search claim text", key="claims_text", max_chars=200, placeholder="e.g. throughput, TP=2"
)
verdicts = c6.multiselect(
    "Verdict",
    [*queries_checks.VERDICTS, queries_checks.UNCHECKED],
    format_func=lambda v: _frames.verdict_badge(v) if v in queries_checks.VERDICTS else v,
    key="claims_verdicts",
    help="Claims with one of these verdicts from any of the kinds of evidence chosen beside.",
)
kinds = c7.multiselect(
    "Evidence",
    queries_checks.CHECK_KINDS,
    format_func=lambda k: k.replace("_", " "),
    key="claims_kinds",
    placeholder="any kind",
    help="Which verdicts the verdict filter looks at: runs, the cost model, reproductions (default: any).",
)
min_conf = c8.slider("Min. confidence", 0.0, 1.0, 0.0, 0.05, key="claims_conf")
# Sort and order on a row of their own, wide enough for their labels; by default the claims a verdict says
# most about first (contradicted ... untestable, then unchecked), each verdict's by confidence.
c9, c10, _ = st.columns([2, 2, 6])
sorts = list(queries_claims.CLAIM_SORTS)
sort = c9.selectbox("Sort by", sorts, index=sorts.index("verdict"), key="claims_sort",
                    help="Verdict: contradicted, implausible, consistent, inconclusive, untestable, then "
                         "unchecked; ties by confidence.")
descending = c10.toggle("Descending", value=True, key="claims_desc")

flt = queries_claims.ClaimFilter(
    tuple(systems),
    tuple(metrics),
    tuple(baselines),
    tuple(settings),
    text,
    min_conf,
    tuple(verdicts),
    tuple(kinds),
)
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
kind_labels = {k: k.replace("_", " ") for k in queries_checks.CHECK_KINDS}
view = table.assign(
    claim=[
        _frames.claim_value(v, lo, hi, u)
        for v, lo, hi, u in table[["value", "value_low", "value_high", "unit"]].itertuples(index=False)
    ],
    **{label: table[f"verdict_{k}"].map(_frames.verdict_badge) for k, label in kind_labels.items()},
)
_ui.table(
    view[
        [
            "system",
            "metric",
            "claim",
            "baseline",
            "setting",
            *kind_labels.values(),
            "text",
            "confidence",
            "document",
            "claim_id",
        ]
    ],
    column_config={
        # The names a reader scans are shown whole (a cut "tensor par" says nothing).
        "system": st.column_config.TextColumn("system", width="medium"),
        "baseline": st.column_config.TextColumn("baseline", width="medium"),
        "confidence": st.column_config.ProgressColumn("confidence", min_value=0, max_value=1, format="%.2f"),
        **{
            label: st.column_config.TextColumn(
                label, help=f"The verdict of the {label} check (empty: not checked)"
            )
            for label in kind_labels.values()
        },
    },
)

st.subheader("Verdicts")
# Claims with a verdict that says something first, then those the runs can measure, each in table order.
informative = set(queries_checks.SEVERITY[:-1])
candidates = (
    table.head(200)
    .assign(
        said=lambda d: d["verdict"].isin(informative),
        checked=lambda d: d["verdict"].notna(),
        # What the runs can measure, from the extractor's measure (or, on an older file, the metric's words).
        measurable=lambda d: [
            ClaimSetting.from_row(r).checkable for r in d[["claim_id", "metric", "measure"]].to_dict("records")
        ],
    )
    .sort_values(["said", "checked", "measurable"], ascending=False, kind="stable")
)
labels = {
    r.claim_id: f"{r.system} · {r.metric} · {_frames.claim_value(r.value, r.value_low, r.value_high, r.unit)}"
    f"{' vs ' + r.baseline if isinstance(r.baseline, str) else ''} · {text_of(r.setting)}"
    f"{' · ' + _frames.verdict_badge(r.verdict) if isinstance(r.verdict, str) else ''}"
    for r in candidates.itertuples()
}
claim_id = st.selectbox("Claim", list(labels), format_func=labels.get, key="claims_pick")
claim = candidates.loc[candidates["claim_id"] == claim_id].iloc[0].to_dict()
_verdicts.show(claim, _ui.query(queries_checks.checks_of, claim_id))
