"""Plotly figures for the views. Every run (job, policy) keeps one colour everywhere: its colour is picked
from a fixed palette by a hash of its id, so it does not change when the selection does.

Why one module: every chart of the app shares its palette, axis conventions and hover format; split by page
they would drift apart.
"""

from __future__ import annotations

import hashlib
import math

import pandas as pd
import plotly.graph_objects as go

from assay.dashboards._frames import marker_kind, percent

#: A palette of distinguishable colours (Plotly's qualitative sets without their near-duplicates).
PALETTE = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
    "#636efa",
    "#ef553b",
    "#00cc96",
    "#ab63fa",
    "#ffa15a",
    "#19d3f3",
    "#ff6692",
    "#b6e880",
    "#ff97ff",
    "#316395",
    "#994499",
    "#22aa99",
    "#aaaa11",
    "#6633cc",
)
EVENT_SYMBOLS = {
    "restart": "triangle-up",
    "nan": "x",
    "oom": "diamond",
    "resize": "square",
    "failure": "star",
    "preempted": "hourglass",
    "skipped_step": "circle-open",
    "checkpoint": "line-ns",
    "hardware_error": "bowtie",
    "cancelled": "octagon",
}
SYMBOLS = ("circle", "square", "diamond", "cross", "triangle-up", "pentagon")
TYPE_COLOURS = {
    "system": "#1f77b4",
    "model": "#ff7f0e",
    "hardware": "#2ca02c",
    "dataset": "#9467bd",
    "method": "#8c564b",
    "organization": "#e377c2",
}
_LAYOUT = dict(
    margin=dict(l=10, r=10, t=40, b=10), legend=dict(orientation="h", y=-0.2), template="plotly_white"
)


def _stable_index(key: str, n: int) -> int:
    digest = hashlib.blake2b(str(key).encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") % n


def colour_for(key: str) -> str:
    """A stable colour for an id (the same run is the same colour on every page and every visit)."""
    return PALETTE[_stable_index(key, len(PALETTE))]


def _rgba(hex_colour: str, alpha: float) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def curves_figure(
    curves: pd.DataFrame, events: pd.DataFrame, labels: dict[str, str], metric: str, x_title: str
) -> go.Figure:
    """Mean across ranks per run with a min/max band, and event markers on the curve."""
    fig = go.Figure()
    for run_id, c in curves.groupby("run_id", sort=False):
        colour, name = colour_for(run_id), labels.get(run_id, run_id)
        fig.add_trace(
            go.Scatter(
                x=c["x"],
                y=c["hi"],
                mode="lines",
                line=dict(width=0),
                hoverinfo="skip",
                showlegend=False,
                legendgroup=run_id,
            )
        )
        fig.add_trace(
            go.Scatter(
                x=c["x"],
                y=c["lo"],
                mode="lines",
                line=dict(width=0),
                fill="tonexty",
                fillcolor=_rgba(colour, 0.25),
                hoverinfo="skip",
                showlegend=False,
                legendgroup=run_id,
            )
        )
        fig.add_trace(
            go.Scatter(
                x=c["x"],
                y=c["mean"],
                mode="lines",
                name=name,
                line=dict(color=colour, width=2),
                legendgroup=run_id,
                customdata=c[["step", "n_nan"]],
                hovertemplate="step %{customdata[0]:.0f}<br>%{y:.4g}"
                "<br>NaN values: %{customdata[1]}<extra>" + name + "</extra>",
            )
        )
    if not events.empty:
        for kind, e in events.groupby("kind", sort=True):
            fig.add_trace(
                go.Scatter(
                    x=e["x"],
                    y=e["y"],
                    mode="markers",
                    name=str(kind),
                    marker=dict(
                        symbol=EVENT_SYMBOLS.get(str(kind), "circle"),
                        size=12,
                        color="#222",
                        line=dict(width=1, color="white"),
                    ),
                    text=[
                        f"{kind} at step {s}: {d or ''}<br>{labels.get(r, r)}"
                        for s, d, r in zip(e["step"], e["detail"], e["run_id"], strict=True)
                    ],
                    hovertemplate="%{text}<extra></extra>",
                )
            )
    fig.update_layout(title=metric, xaxis_title=x_title, yaxis_title=metric, height=460, **_LAYOUT)
    return fig


def layout_scatter(summary: pd.DataFrame, y: str, title: str) -> go.Figure:
    """One point per run: ``y`` against world size, coloured by run, labelled by layout."""
    fig = go.Figure()
    df = summary.dropna(subset=[y])
    for row in df.itertuples(index=False):
        value = getattr(row, y)
        if y == "mfu":
            value = percent(value)
        fig.add_trace(
            go.Scatter(
                x=[row.world_size],
                y=[value],
                mode="markers+text",
                text=[row.layout],
                textposition="top center",
                marker=dict(
                    size=13,
                    color=colour_for(row.run_id),
                    symbol=SYMBOLS[_stable_index(str(row.framework), len(SYMBOLS))],
                ),
                name=f"{row.framework} · {row.model} · {row.layout}",
                hovertemplate=(
                    f"{row.framework} · {row.model}<br>{row.layout}, world size %{{x}}<br>{title}: %{{y:.4g}}"
                    f"<extra>{str(row.run_id)[:8]}</extra>"
                ),
                showlegend=False,
            )
        )
    fig.update_layout(title=title, xaxis_title="world size (GPUs)", yaxis_title=title, height=380, **_LAYOUT)
    fig.update_xaxes(type="log", dtick=math.log10(2))
    return fig


def efficiency_figure(eff: pd.DataFrame) -> go.Figure:
    fig = go.Figure()
    for key, g in eff.groupby(["framework", "model", "tp", "pp"], dropna=False, sort=True):
        name = f"{key[0]} · {key[1]} · tp{key[2]}·pp{key[3]}"
        fig.add_trace(
            go.Scatter(
                x=g["world_size"],
                y=g["efficiency"] * 100,
                mode="lines+markers",
                name=name,
                line=dict(color=colour_for(name)),
                hovertemplate="world size %{x}: %{y:.1f}%<extra>" + name + "</extra>",
            )
        )
    fig.add_hline(y=100, line_dash="dot", line_color="#999")
    fig.update_layout(
        title="scaling efficiency (per-GPU throughput vs smallest world size)",
        xaxis_title="world size (GPUs)",
        yaxis_title="efficiency (%)",
        height=380,
        **_LAYOUT,
    )
    fig.update_xaxes(type="log", dtick=math.log10(2))
    return fig


def timeline_figure(segments: pd.DataFrame) -> go.Figure:
    """Allocations per job as horizontal bars (width = workers) with resize/failure/preemption markers."""
    fig = go.Figure()
    bars = segments[segments["workers"].fillna(0) > 0]
    for job_id, g in bars.groupby("job_id", sort=False):
        ms = (g["finish"] - g["start"]).dt.total_seconds() * 1000
        fig.add_trace(
            go.Bar(
                base=g["start"],
                x=ms,
                y=g["name"],
                orientation="h",
                name=str(g["name"].iloc[0]),
                marker=dict(color=colour_for(job_id), opacity=0.85),
                text=g["workers"].astype(str) + " w",
                textposition="inside",
                customdata=g[["workers", "reason"]],
                showlegend=False,
                hovertemplate="%{customdata[0]} workers from %{base|%H:%M:%S}<br>%{customdata[1]}"
                "<extra></extra>",
            )
        )
    symbols = {
        "resize": ("square", "#1f77b4"),
        "failure": ("x", "#d62728"),
        "preemption": ("hourglass", "#ff7f0e"),
    }
    kinds = segments.assign(marker=segments["reason"].map(marker_kind)).dropna(subset=["marker"])
    for kind, g in kinds.groupby("marker"):
        symbol, colour = symbols[kind]
        fig.add_trace(
            go.Scatter(
                x=g["start"],
                y=g["name"],
                mode="markers",
                name=kind,
                marker=dict(symbol=symbol, size=14, color=colour, line=dict(width=1, color="white")),
                text=g["reason"],
                hovertemplate="%{x|%H:%M:%S} %{text}<extra>" + kind + "</extra>",
            )
        )
    fig.update_layout(
        barmode="overlay",
        title="allocations per job",
        xaxis_type="date",
        height=max(260, 48 * segments["name"].nunique() + 120),
        **_LAYOUT,
    )
    return fig


def usage_figure(usage: pd.DataFrame, capacity: float | None = None) -> go.Figure:
    """Workers allocated over time (a step line), with the cluster's size as a dashed line when known."""
    fig = go.Figure(
        go.Scatter(
            x=usage["t"],
            y=usage["workers"],
            mode="lines",
            line_shape="hv",
            fill="tozeroy",
            name="workers in use",
            line=dict(color="#2ca02c"),
        )
    )
    if capacity:
        fig.add_hline(y=capacity, line_dash="dash", line_color="#d62728", annotation_text="cluster size")
    fig.update_layout(
        title="cluster usage: workers allocated over time", yaxis_title="workers", height=300, **_LAYOUT
    )
    return fig


def jct_figure(jobs: pd.DataFrame, labels: dict[str, str]) -> go.Figure:
    """Job completion time distribution per simulated policy (box with every job as a point)."""
    fig = go.Figure()
    for sim_id, g in jobs.groupby("sim_id", sort=False):
        name = labels.get(sim_id, sim_id)
        fig.add_trace(
            go.Box(
                y=g["jct"] / 3600,
                name=name,
                boxpoints="all",
                jitter=0.4,
                pointpos=0,
                marker=dict(color=colour_for(name), size=4),
                boxmean=True,
            )
        )
    fig.update_layout(
        title="job completion time per policy",
        yaxis_title="JCT (hours)",
        height=400,
        showlegend=False,
        **{k: v for k, v in _LAYOUT.items() if k != "legend"},
    )
    return fig


def avg_jct_figure(sims: pd.DataFrame) -> go.Figure:
    sims = sims.dropna(subset=["avg_jct"])
    colours = [
        "#bbbbbb" if p else colour_for(str(pol))
        for p, pol in zip(sims["published"], sims["policy"], strict=True)
    ]
    fig = go.Figure(
        go.Bar(
            x=sims["policy"],
            y=sims["avg_jct"] / 3600,
            marker_color=colours,
            text=[f"{v / 3600:.2f} h" for v in sims["avg_jct"]],
            textposition="outside",
            marker_pattern_shape=["/" if p else "" for p in sims["published"]],
        )
    )
    fig.update_layout(
        title="average JCT (grey, hatched: published reference)", yaxis_title="hours", height=360, **_LAYOUT
    )
    return fig


def neighbour_figure(centre: dict, neighbours: pd.DataFrame) -> go.Figure:
    """The entity in the middle, its neighbours on a circle; solid edges are relations, dotted co-mentions."""
    fig = go.Figure()
    nodes = neighbours.drop_duplicates("entity_id").reset_index(drop=True)
    n = max(1, len(nodes))
    pos = {
        row.entity_id: (math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n))
        for i, row in enumerate(nodes.itertuples(index=False))
    }
    for row in neighbours.itertuples(index=False):
        x, y = pos[row.entity_id]
        relation = row.kind == "relation"
        fig.add_trace(
            go.Scatter(
                x=[0, x],
                y=[0, y],
                mode="lines",
                hoverinfo="skip",
                showlegend=False,
                line=dict(
                    width=1 + min(row.weight, 5),
                    color="#555" if relation else "#bbb",
                    dash="solid" if relation else "dot",
                ),
            )
        )
        if relation:
            fig.add_annotation(
                x=x / 2,
                y=y / 2,
                text=str(row.predicate),
                showarrow=False,
                font=dict(size=11, color="#333"),
                bgcolor="rgba(255,255,255,0.8)",
            )
    fig.add_trace(
        go.Scatter(
            x=[pos[e][0] for e in nodes["entity_id"]],
            y=[pos[e][1] for e in nodes["entity_id"]],
            mode="markers+text",
            text=nodes["name"],
            textposition="top center",
            showlegend=False,
            marker=dict(size=18, color=[TYPE_COLOURS.get(t, "#7f7f7f") for t in nodes["type"]]),
            customdata=nodes[["type"]],
            hovertemplate="%{text} (%{customdata[0]})<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[0],
            y=[0],
            mode="markers+text",
            text=[centre["name"]],
            textposition="bottom center",
            marker=dict(
                size=28,
                color=TYPE_COLOURS.get(centre.get("type"), "#7f7f7f"),
                line=dict(width=2, color="#222"),
            ),
            showlegend=False,
            hovertemplate=f"{centre['name']}<extra></extra>",
        )
    )
    fig.update_xaxes(visible=False, range=[-1.4, 1.4])
    fig.update_yaxes(visible=False, range=[-1.3, 1.3], scaleanchor="x")
    fig.update_layout(
        title="neighbours (solid: relation, dotted: mentioned in the same documents)", height=480, **_LAYOUT
    )
    return fig


def docs_per_s_figure(pruns: pd.DataFrame) -> go.Figure:
    df = pruns.dropna(subset=["docs_per_s"]).sort_values("started_at")
    df = df.assign(
        run=[
            f"{p} · {t:%m-%d %H:%M} · {i[:4]}" if pd.notna(t) else f"{p} · {i[:8]}"
            for p, t, i in zip(df["pipeline"], df["started_at"], df["pipeline_run_id"], strict=True)
        ]
    )
    fig = go.Figure()
    for name, g in df.groupby("pipeline", sort=True):
        fig.add_trace(
            go.Bar(
                x=g["run"],
                y=g["docs_per_s"],
                name=str(name),
                marker_color=colour_for(name),
                customdata=g[["pipeline_run_id", "n_ok", "n_quarantined"]],
                hovertemplate="%{customdata[0]}<br>%{y:.2f} docs/s, %{customdata[1]} ok, "
                "%{customdata[2]} quarantined<extra>" + str(name) + "</extra>",
            )
        )
    fig.update_layout(
        title="documents per second per pipeline run", yaxis_title="docs/s", height=340, **_LAYOUT
    )
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=df["run"].tolist())
    return fig


def bar_figure(df: pd.DataFrame, x: str, y: str, title: str) -> go.Figure:
    fig = go.Figure(go.Bar(x=df[x], y=df[y], marker_color=[colour_for(str(v)) for v in df[x]]))
    fig.update_layout(title=title, height=300, **_LAYOUT)
    return fig


def comparison_figure(runs: pd.DataFrame, metric: str, labels: dict[str, str]) -> go.Figure:
    """The measured value of every run matching a claim, the claimed system's beside its baseline's."""
    df = runs.dropna(subset=[metric]).sort_values(["role", metric])
    fig = go.Figure()
    for role, g in df.groupby("role", sort=False):
        fig.add_trace(
            go.Bar(
                x=[labels.get(r, r) for r in g["run_id"]],
                y=g[metric],
                name=str(role),
                marker_color="#bbbbbb" if role == "baseline" else "#1f77b4",
            )
        )
    fig.update_layout(
        title=f"{metric} of the matching runs (median over steps)", yaxis_title=metric, height=340, **_LAYOUT
    )
    return fig
