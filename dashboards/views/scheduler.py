"""Scheduler: the job queue, allocations over time with resize/failure/preemption markers, cluster usage,
and simulated policies side by side with the published reference figures."""

import streamlit as st

from assay.dashboards import _figures, _frames, _ui
from assay.store import queries_knowledge, queries_scheduler

st.title("Scheduler")
counts = _ui.query(queries_knowledge.table_counts)
if not counts["jobs"] and not counts["sim_runs"]:
    _ui.empty_state("No jobs and no simulations yet.", "jobs", "simulate")
    st.stop()

if counts["jobs"]:
    states = _ui.query(queries_scheduler.job_states)
    cols = st.columns(max(1, len(states)))
    for col, row in zip(cols, states.itertuples(), strict=False):
        col.metric(str(row.state), int(row.jobs))
    chosen = st.multiselect("Job states", states["state"].tolist(), key="sched_states")
    # ?jobs=a,b (a link from a claim's reproduction on the Claims page) narrows the page to those jobs.
    linked = tuple(j for j in st.query_params.get("jobs", "").split(",") if j)
    if linked:
        note, clear = st.columns([5, 1])
        note.info(
            f"Showing the {len(linked)} job(s) of a claim's reproduction.", icon=":material/filter_alt:"
        )
        if clear.button("Show all jobs", key="sched_all_jobs"):
            del st.query_params["jobs"]
            st.rerun()
    queue = _ui.query(queries_scheduler.job_queue, tuple(chosen) or None, job_ids=linked or None)
    _ui.table(queue, height=min(38 + 35 * len(queue), 320))
    recent = queue.sort_values("submitted_at", ascending=False).head(40)["job_id"].tolist()
    segments = _ui.query(queries_scheduler.allocation_segments, tuple(recent))
    if segments.empty:
        st.info("The scheduler has made no allocation for these jobs yet.")
    else:
        st.subheader("Timeline")
        _ui.plot(_figures.timeline_figure(segments), key="timeline")
        usage = _frames.usage_over_time(segments)
        peak = int(usage["workers"].max()) if not usage.empty else 0
        capacity = st.number_input(
            "Cluster size (workers)",
            min_value=1,
            value=max(1, peak),
            key="sched_capacity",
            help="Defaults to the most workers ever allocated at once.",
        )
        share = _frames.utilisation(usage, capacity)
        if share is not None:
            st.caption(f"Utilisation over the timeline: {share:.0%} of {capacity} workers (peak {peak}).")
        _ui.plot(_figures.usage_figure(usage, capacity), key="usage")
        # A cluster of several GPU types (allocations.gpu_type, the node pool of each allocation): which
        # pool the jobs filled over time. One-type clusters leave it null, and nothing more is drawn.
        by_type = _frames.segments_by_gpu_type(segments)
        if not by_type.empty:
            st.subheader("Allocation per GPU type")
            _ui.plot(_figures.gpu_type_usage_figure(by_type, "workers per GPU type (live)"), key="live_gpu_types")
else:
    _ui.empty_state("No jobs yet.", "jobs")

st.subheader("Simulated policies")
workloads = _ui.query(queries_scheduler.sim_workloads)
if not workloads:
    _ui.empty_state("No simulation yet: replay a workload under each policy.", "simulate")
    st.stop()
workloads = _frames.workloads_own_first(_ui.query(queries_scheduler.sim_runs), workloads)
workload = st.selectbox(
    "Workload", workloads, key="sched_workload", help="Workloads with this database's own simulations come first."
)
sims = _ui.query(queries_scheduler.sim_runs, (workload,))
hours = sims.assign(**{f"{c} (h)": (sims[c] / 3600).round(2) for c in ("avg_jct", "p50_jct", "p99_jct", "makespan")})
_ui.table(
    hours[
        [
            "policy",
            "published",
            "gpus",
            "n_jobs",
            "avg_jct (h)",
            "p50_jct (h)",
            "p99_jct (h)",
            "makespan (h)",
            "utilization",
            "fairness",
            "wall_s",
            "sim_id",
        ]
    ],
)
st.caption(
    "Rows with policy `published:<name>` are the figures the Pollux paper reports for this workload; "
    "they have no per-job distribution."
)
left, right = st.columns(2)
with left:
    _ui.plot(_figures.avg_jct_figure(sims), key="avg_jct")
with right:
    simulated = sims[~sims["published"]]
    jobs = _ui.query(queries_scheduler.sim_jct, tuple(simulated["sim_id"]))
    if jobs.empty:
        st.info("No per-job results for this workload.")
    else:
        dupes = simulated["policy"].duplicated(keep=False)
        names = {
            r.sim_id: f"{r.policy} ({r.sim_id[:6]})" if d else r.policy
            for r, d in zip(simulated.itertuples(), dupes, strict=True)
        }
        _ui.plot(_figures.jct_figure(jobs, names), key="jct")

# A cluster of several GPU types (the heterogeneous simulator fills sim_allocations.gpu_type): which type
# each policy filled over time. One-type clusters leave it null, and nothing more is drawn.
if not simulated.empty:
    allocations = _ui.query(queries_scheduler.sim_allocations, tuple(simulated["sim_id"]))
    typed = allocations.dropna(subset=["gpu_type"])
    if not typed.empty:
        st.subheader("Allocation per GPU type")
        policy_of = dict(zip(simulated["sim_id"], simulated["policy"], strict=True))
        typed_sims = [s for s in simulated["sim_id"] if s in set(typed["sim_id"])]
        sim_id = st.selectbox(
            "Policy", typed_sims, format_func=lambda s: f"{policy_of[s]} ({s[:6]})", key="sched_type_sim"
        )
        usage = _frames.usage_by_gpu_type(allocations[allocations["sim_id"] == sim_id])
        _ui.plot(
            _figures.gpu_type_usage_figure(usage, f"workers per GPU type under {policy_of[sim_id]}"),
            key="gpu_types",
        )
