"""Runs: metric curves of chosen runs (rank mean with min/max band, events), speed against world size and
layout, scaling efficiency, and what differs between the runs' configs."""

import streamlit as st

from assay.dashboards import _figures, _frames, _labels, _ui
from assay.store import queries_knowledge, queries_runs

X_TITLES = {"step": "step", "time": "seconds since the run's first sample", "tokens": "tokens consumed"}

st.title("Runs")
if not _ui.query(queries_knowledge.table_counts)["runs"]:
    _ui.empty_state(
        "No runs yet: they come from training logs and from the scheduler's jobs.", "logs", "jobs"
    )
    st.stop()

facets = _ui.query(queries_runs.run_facets)
c1, c2, c3, c4 = st.columns(4)
flt = queries_runs.RunFilter(
    tuple(c1.multiselect("Framework", facets["frameworks"], key="runs_fw")),
    tuple(c2.multiselect("Model", facets["models"], key="runs_model")),
    tuple(c3.multiselect("Layout (dp·tp·pp)", facets["layouts"], key="runs_layout")),
    tuple(c4.multiselect("Status", facets["statuses"], key="runs_status")),
)
runs = _ui.query(queries_runs.runs, flt)
if runs.empty:
    st.info("No run matches these filters.", icon=":material/filter_alt_off:")
    st.stop()
labels = {r["run_id"]: _labels.run_label(r) for r in runs.to_dict("records")}
with st.expander(f"{len(runs):,} matching run(s)", expanded=False):
    _ui.table(runs)

picked = st.multiselect(
    "Runs to compare",
    list(labels),
    default=_labels.default_runs(runs, 3),  # imported logs and scheduler jobs in turn, newest first
    format_func=labels.get,
    key="runs_pick",
    max_selections=12,
)
curves_tab, speed_tab, config_tab = st.tabs(["Metrics", "Throughput & scaling", "Config diff"])

with curves_tab:
    if not picked:
        st.info("Pick one or more runs above to draw their metrics.")
    else:
        names = _ui.query(queries_runs.metric_names, tuple(picked))
        if not names:
            st.info("These runs have no metric samples.")
        else:
            m1, m2, m3 = st.columns([2, 2, 2])
            metric = m1.selectbox(
                "Metric", names, index=names.index("loss") if "loss" in names else 0, key="runs_metric"
            )
            x = m2.radio("x axis", list(X_TITLES), horizontal=True, key="runs_x")
            weight = m3.slider("Smoothing (EMA)", 0.0, 0.99, 0.6, 0.01, key="runs_smooth")
            curves = _ui.query(queries_runs.metric_curves, tuple(picked), metric, x, buckets=400)
            if x != "step" and curves["x"].isna().all():
                st.warning(
                    f"These runs record no {'timestamps' if x == 'time' else 'tokens per step'}; "
                    "showing steps instead."
                )
                curves = curves.assign(x=curves["step"])
                x = "step"
            events = _ui.query(queries_runs.run_events, tuple(picked))
            kinds = sorted(events["kind"].dropna().unique().tolist())
            shown = st.multiselect(
                "Event markers", kinds, default=kinds, key="runs_events", format_func=_labels.event_kind_label
            )
            smoothed = _frames.smooth_curves(curves, weight)
            marks = _frames.event_positions(events[events["kind"].isin(shown)], smoothed)
            _ui.plot(_figures.curves_figure(smoothed, marks, labels, metric, X_TITLES[x]), key="runs_curve")
            n_nan = int(curves["n_nan"].sum())
            st.caption(
                f"{int(curves['n'].sum()):,} samples in {len(curves):,} step buckets; band = min/max over "
                f"ranks and steps in a bucket"
                + (f"; {n_nan:,} non-finite values (not a number, infinite) left out of the curve" if n_nan else "")
            )
            if not events.empty:
                with st.expander(f"{len(events)} event(s)"):
                    _ui.table(
                        events.assign(
                            run=events["run_id"].map(labels), kind=events["kind"].map(_labels.event_kind_label)
                        )[["run", "step", "kind", "detail", "line_no", "ts"]]
                    )

with speed_tab:
    summary = _ui.query(queries_runs.run_summaries, tuple(runs["run_id"].head(300)))
    left, right = st.columns(2)
    throughput = next((m for m in ("tokens_per_s", "samples_per_s") if summary[m].notna().any()), None)
    if throughput is None and not summary["mfu"].notna().any():
        st.info("These runs log no throughput or MFU (tokens_per_s, samples_per_s, mfu).")
    if throughput:
        with left:
            _ui.plot(
                _figures.layout_scatter(summary, throughput, throughput.replace("_per_s", "/s")), key="thr"
            )
    if summary["mfu"].notna().any():
        with right:
            _ui.plot(_figures.layout_scatter(summary, "mfu", "MFU (%)"), key="mfu")
    if throughput:
        eff = _frames.scaling_efficiency(summary, throughput)
        setup = ["framework", "model", "tp", "pp", "hardware"]
        eff = eff[eff.groupby(setup, dropna=False)["world_size"].transform("nunique") > 1]
        if not eff.empty:
            _ui.plot(_figures.efficiency_figure(eff), key="efficiency")
            _ui.table(eff)
        else:
            st.caption("Scaling efficiency needs runs of one setup at two or more world sizes.")

with config_tab:
    if len(picked) < 2:
        st.info("Pick two or more runs to compare their configs.")
    else:
        show_all = st.toggle("Show identical settings", value=False, key="runs_show_all")
        diff = _frames.config_diff(_ui.query(queries_runs.run_configs, tuple(picked)), labels, show_all)
        if diff.empty:
            st.success("These runs have identical settings.")
        else:
            st.dataframe(diff, width="stretch")
