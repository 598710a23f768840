"""Plotly figures for the views. Every run (job, policy) keeps one colour everywhere: its colour is picked
from a fixed palette by a hash of its id, so it does not change when the selection does.

Why one module: every chart of the app shares its palette, axis conventions and hover format; split by page
they would drift apart.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from assay.dashboards._frames import marker_kind, percent
from assay.dashboards._labels import event_kind_label, name_or

#: The colours a few compared series get: Tableau's ten, without its grey (grey means "reference" here).
PRIMARY = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
)
#: More series than PRIMARY holds draw from the longer palette (Plotly's sets without near-duplicates).
PALETTE = (
    *PRIMARY,
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
#: A horizontal legend between the title and the plot, for charts whose x labels need the space below.
LEGEND_ABOVE = dict(orientation="h", yanchor="bottom", y=1.02, xanchor="right", x=1)
_LAYOUT = dict(
    margin=dict(l=10, r=10, t=40, b=10), legend=dict(orientation="h", y=-0.2), template="plotly_white"
)


def _stable_index(key: str, n: int) -> int:
    digest = hashlib.blake2b(str(key).encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") % n


def colour_for(key: str) -> str:
    """A stable colour for an id (the same run is the same colour on every page and every visit)."""
    return PALETTE[_stable_index(key, len(PALETTE))]


def series_colours(keys: Any) -> dict[str, str]:
    """A colour per compared series, never the same for two of them while the palette lasts.

    Up to len(PRIMARY) series take PRIMARY's colours in the sorted order of their keys: the same selection
    always looks the same, and two or three series are blue, orange, green rather than two reds a hash may
    pick. More series start from the colour their hash picks and move to the next free one when an earlier
    key took it. Either way the result does not depend on the order rows arrive in.
    """
    unique = sorted({str(k) for k in keys})
    if len(unique) <= len(PRIMARY):
        # Few series: the most distinct colours in order (blue, orange, green, ...), whatever the hashes say.
        return dict(zip(unique, PRIMARY, strict=False))
    pool = PALETTE
    used: set[str] = set()
    out: dict[str, str] = {}
    for key in unique:
        start = _stable_index(key, len(pool))
        free = [pool[(start + i) % len(pool)] for i in range(len(pool))]
        colour = next((c for c in free if c not in used), pool[start])
        used.add(colour)
        out[key] = colour
    return out


def _rgba(hex_colour: str, alpha: float) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def curves_figure(
    curves: pd.DataFrame, events: pd.DataFrame, labels: dict[str, str], metric: str, x_title: str
) -> go.Figure:
    """Mean across ranks per run with a min/max band, and event markers on the curve."""
    fig = go.Figure()
    colours = series_colours(curves["run_id"]) if not curves.empty else {}
    for run_id, c in curves.groupby("run_id", sort=False):
        colour, name = colours[str(run_id)], labels.get(run_id, run_id)
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
                meta="series",
                customdata=c[["step", "n_nan"]],
                hovertemplate="step %{customdata[0]:.0f}<br>%{y:.4g}"
                "<br>non-finite values left out: %{customdata[1]}<extra>" + name + "</extra>",
            )
        )
    if not events.empty:
        for kind, e in events.groupby("kind", sort=True):
            fig.add_trace(
                go.Scatter(
                    x=e["x"],
                    y=e["y"],
                    mode="markers",
                    name=event_kind_label(kind),
                    meta="events",  # the hover quotes the log's own detail, which may say "loss is NaN"
                    marker=dict(
                        symbol=EVENT_SYMBOLS.get(str(kind), "circle"),
                        size=12,
                        color="#222",
                        line=dict(width=1, color="white"),
                    ),
                    text=[
                        f"{event_kind_label(kind)} at step {s}: {name_or(d, 'no detail')}<br>{labels.get(r, r)}"
                        for s, d, r in zip(e["step"], e["detail"], e["run_id"], strict=True)
                    ],
                    hovertemplate="%{text}<extra></extra>",
                )
            )
    fig.update_layout(title=metric, xaxis_title=x_title, yaxis_title=metric, height=460, **_LAYOUT)
    return fig


def layout_scatter(summary: pd.DataFrame, y: str, title: str) -> go.Figure:
    """One point per run: ``y`` against world size, coloured by run, labelled by layout.

    Runs at the same world size are spread a little sideways (in the log axis) and labelled outward (the
    lowest below, the highest above, the rest beside), each layout once, so their labels do not pile up; values spanning more than 30x go on a log
    axis (one fast run would squash the rest onto zero); the axes leave room around the outermost points so
    no label is cut at the plot's edge. Hover gives the true world size.
    """
    fig = go.Figure()
    df = summary.dropna(subset=[y, "world_size"])
    df = df[df["world_size"] > 0]
    if y == "mfu":
        df = df.assign(**{y: df[y].map(percent)})
    colours = series_colours(df["run_id"]) if not df.empty else {}
    for ws, group in df.sort_values([y, "run_id"]).groupby("world_size", sort=True):
        m, labelled = len(group), set()
        for k, row in enumerate(group.itertuples(index=False)):
            offset = (k - (m - 1) / 2) * min(0.5 / m, 0.12)  # in octaves
            # Lowest below, highest above, those between beside: two neighbours' labels never face each other.
            position = (
                "top center" if k == m - 1
                else "bottom center" if k == 0
                else ("middle right" if k % 2 else "middle left")
            )
            layout = layout_text(row)
            label = layout if layout not in labelled else ""  # one label per layout and world size
            labelled.add(layout)
            framework, model = name_or(row.framework, "unknown framework"), name_or(row.model, "unknown model")
            fig.add_trace(
                go.Scatter(
                    x=[float(ws) * 2**offset],
                    y=[getattr(row, y)],
                    mode="markers+text",
                    text=[label],
                    textposition=position,
                    cliponaxis=False,
                    customdata=[[int(ws)]],
                    marker=dict(
                        size=13,
                        color=colours[str(row.run_id)],
                        symbol=SYMBOLS[_stable_index(str(row.framework), len(SYMBOLS))],
                    ),
                    name=f"{framework} · {model} · {layout or 'layout unknown'}",
                    meta="series",
                    hovertemplate=(
                        f"{framework} · {model}<br>{layout or 'layout unknown'}, world size %{{customdata[0]}}"
                        f"<br>{title}: %{{y:.4g}}<extra>{str(row.run_id)[:8]}</extra>"
                    ),
                    showlegend=False,
                )
            )
    fig.update_layout(title=title, xaxis_title="world size (GPUs)", yaxis_title=title, height=380, **_LAYOUT)
    fig.update_xaxes(type="log", dtick=math.log10(2))
    if not df.empty:
        lo, hi = math.log10(df["world_size"].min()), math.log10(df["world_size"].max())
        fig.update_xaxes(range=[lo - 0.3, hi + 0.3])  # about an octave each side: room for outward labels
        low, top = float(df[y].min()), float(df[y].max())
        if low > 0 and top / low > 30:  # a fast run would squash the others onto the axis: log scale
            fig.update_yaxes(type="log", range=[math.log10(low) - 0.3, math.log10(top) + 0.3])
        else:
            fig.update_yaxes(range=[0, top * 1.25 if top > 0 else 1])
    return fig


def layout_text(row: Any) -> str:
    """``dp2·tp1·pp1`` from a run's degrees, with ``?`` for an unknown one; empty when none is known."""
    degrees = {k: name_or(getattr(row, k, None), "?") for k in ("dp", "tp", "pp")}
    degrees = {k: v[:-2] if v.endswith(".0") else v for k, v in degrees.items()}
    return "" if set(degrees.values()) == {"?"} else "·".join(f"{k}{v}" for k, v in degrees.items())


def setup_label(framework: Any, model: Any, tp: Any, pp: Any) -> str:
    """A setup of the scaling chart: framework, model and the degrees that stay fixed while dp grows."""
    row = pd.Series({"dp": None, "tp": tp, "pp": pp})
    fixed = layout_text(row).replace("dp?·", "") or "tp?·pp?"
    return f"{name_or(framework, 'unknown framework')} · {name_or(model, 'unknown model')} · {fixed}"


def efficiency_figure(eff: pd.DataFrame) -> go.Figure:
    fig = go.Figure()
    groups = list(eff.groupby(["framework", "model", "tp", "pp"], dropna=False, sort=True))
    names = [setup_label(*key) for key, _ in groups]
    colours = series_colours(names)
    for name, (_, g) in zip(names, groups, strict=True):
        fig.add_trace(
            go.Scatter(
                x=g["world_size"],
                y=g["efficiency"] * 100,
                mode="lines+markers",
                name=name,
                line=dict(color=colours[name]),
                meta="series",
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
    colours = series_colours(bars["job_id"]) if not bars.empty else {}
    for job_id, g in bars.groupby("job_id", sort=False):
        ms = (g["finish"] - g["start"]).dt.total_seconds() * 1000
        fig.add_trace(
            go.Bar(
                base=g["start"],
                x=ms,
                y=g["name"],
                orientation="h",
                name=str(g["name"].iloc[0]),
                marker=dict(color=colours[str(job_id)], opacity=0.85),
                meta="series",
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


def gpu_type_usage_figure(usage: pd.DataFrame, title: str) -> go.Figure:
    """Workers allocated per GPU type over a simulation's time, stacked: which type the policy filled when."""
    fig = go.Figure()
    colours = series_colours(usage["gpu_type"]) if not usage.empty else {}
    # One time grid for every type (a type holds its count until its next change), so the stack adds up.
    wide = usage.pivot_table(index="t", columns="gpu_type", values="workers", aggfunc="last").sort_index()
    wide = wide.ffill().fillna(0)
    for gpu_type in sorted(wide.columns, key=str):
        fig.add_trace(
            go.Scatter(
                x=wide.index / 3600,
                y=wide[gpu_type],
                mode="lines",
                line_shape="hv",
                stackgroup="types",
                name=str(gpu_type),
                meta="series",
                line=dict(color=colours[str(gpu_type)]),
                hovertemplate="%{x:.2f} h: %{y:.0f} workers<extra>" + str(gpu_type) + "</extra>",
            )
        )
    fig.update_layout(title=title, xaxis_title="hours since the first arrival", yaxis_title="workers",
                      height=320, **_LAYOUT)
    return fig


def jct_figure(jobs: pd.DataFrame, labels: dict[str, str]) -> go.Figure:
    """Job completion time distribution per simulated policy (box with every job as a point)."""
    fig = go.Figure()
    colours = series_colours(labels.get(s, s) for s in jobs["sim_id"].unique())
    for sim_id, g in jobs.groupby("sim_id", sort=False):
        name = labels.get(sim_id, sim_id)
        fig.add_trace(
            go.Box(
                y=g["jct"] / 3600,
                name=name,
                boxpoints="all",
                jitter=0.4,
                pointpos=0,
                marker=dict(color=colours[str(name)], size=4),
                meta="series",
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
    own = series_colours(sims.loc[~sims["published"].astype(bool), "policy"].astype(str))
    colours = [
        "#bbbbbb" if p else own[str(pol)] for p, pol in zip(sims["published"], sims["policy"], strict=True)
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
    for i, row in enumerate(neighbours.itertuples(index=False)):
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
            along = 0.42 if i % 2 else 0.62  # neighbouring edges' predicates at staggered distances
            fig.add_annotation(
                x=x * along,
                y=y * along,
                text=name_or(row.predicate, "related"),
                showarrow=False,
                font=dict(size=11, color="#333"),
                bgcolor="rgba(255,255,255,0.8)",
            )
    fig.add_trace(
        go.Scatter(
            x=[pos[e][0] for e in nodes["entity_id"]],
            y=[pos[e][1] for e in nodes["entity_id"]],
            mode="markers+text",
            text=[name_or(v, "unnamed") for v in nodes["name"]],
            textposition=[outward(*pos[e]) for e in nodes["entity_id"]],
            cliponaxis=False,
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
    fig.update_xaxes(visible=False, range=[-1.9, 1.9])
    fig.update_yaxes(visible=False, range=[-1.35, 1.35], scaleanchor="x")
    fig.update_layout(
        title="neighbours (solid: relation, dotted: mentioned in the same documents)", height=480, **_LAYOUT
    )
    return fig


def outward(x: float, y: float) -> str:
    """Where a node's label goes on the neighbour circle: away from the centre, so labels of nodes next to
    each other (and the edges' predicates) do not overlap; left and right of the side nodes, above and
    below the top and bottom ones."""
    if abs(x) >= 0.45:
        return "middle right" if x > 0 else "middle left"
    return "top center" if y > 0 else "bottom center"


def docs_per_s_figure(pruns: pd.DataFrame) -> go.Figure:
    df = pruns.dropna(subset=["docs_per_s"]).sort_values("started_at")
    df = df.assign(
        run=[
            f"{p} · {t:%m-%d %H:%M} · {i[:4]}" if pd.notna(t) else f"{p} · {i[:8]}"
            for p, t, i in zip(df["pipeline"], df["started_at"], df["pipeline_run_id"], strict=True)
        ]
    )
    fig = go.Figure()
    colours = series_colours(df["pipeline"]) if not df.empty else {}
    for name, g in df.groupby("pipeline", sort=True):
        fig.add_trace(
            go.Bar(
                x=g["run"],
                y=g["docs_per_s"],
                name=str(name),
                marker_color=colours[str(name)],
                meta="series",
                customdata=g[["pipeline_run_id", "n_ok", "n_quarantined"]],
                hovertemplate="%{customdata[0]}<br>%{y:.2f} docs/s, %{customdata[1]} ok, "
                "%{customdata[2]} quarantined<extra>" + str(name) + "</extra>",
            )
        )
    # The run names under the axis are long and tilt; a legend below them would sit on top of them.
    layout = {**_LAYOUT, "legend": LEGEND_ABOVE, "margin": dict(l=10, r=10, t=70, b=10)}
    fig.update_layout(title="documents per second per pipeline run", yaxis_title="docs/s", height=380, **layout)
    fig.update_xaxes(
        type="category", categoryorder="array", categoryarray=df["run"].tolist(), automargin=True, tickangle=-30
    )
    return fig


def bar_figure(df: pd.DataFrame, x: str, y: str, title: str) -> go.Figure:
    colours = series_colours(df[x]) if not df.empty else {}
    fig = go.Figure(go.Bar(x=df[x].map(lambda v: name_or(v, "unknown")), y=df[y],
                           marker_color=[colours[str(v)] for v in df[x]]))
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
