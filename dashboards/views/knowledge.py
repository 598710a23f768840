"""Knowledge: find an entity; see its claims in their source sentences, its neighbours and its runs."""

import html

import pandas as pd
import streamlit as st

from assay.dashboards import _figures, _frames, _labels, _ui
from assay.store import queries_knowledge

st.title("Knowledge")
if not _ui.query(queries_knowledge.table_counts)["entities"]:
    _ui.empty_state("No entities yet: they come from papers.", "papers")
    st.stop()

left, right = st.columns([3, 2])
text = left.text_input(
    "Search entities",
    key="entity_search",
    max_chars=200,
    placeholder="a system, model, GPU, dataset ... (name or alias)",
)
types = right.multiselect(
    "Types", _ui.options(_ui.query(queries_knowledge.entity_types)["type"].tolist()), key="entity_types"
)
found = _ui.query(queries_knowledge.search_entities, text, types or None, limit=50)
if found.empty:
    st.info(
        f"No entity matches “{text}”." if text else "No entity of these types.", icon=":material/search_off:"
    )
    st.stop()
_ui.table(found[["name", "type", "aliases", "mentions", "documents"]], height=min(36 * len(found) + 38, 260))

names = {
    e: f"{_labels.name_or(n, 'unnamed entity')} ({_labels.name_or(t, 'no type')})"
    for e, n, t in zip(found["entity_id"], found["name"], found["type"], strict=True)
}
linked = st.query_params.get("entity")
if linked not in names and not text:
    # Open on what the papers say most about (the most mentioned entity is often a GPU no claim is about).
    linked = _ui.query(queries_knowledge.most_claimed_entity, types[0] if len(types) == 1 else "system")
    top = _ui.query(queries_knowledge.entity, linked) if linked else None
    if top is not None and linked not in names:
        names = {linked: f"{top['name']} ({_labels.name_or(top['type'], 'no type')})", **names}
default = list(names).index(linked) if linked in names else 0
entity_id = st.selectbox("Entity", list(names), index=default, format_func=names.get, key="entity_pick")
st.query_params["entity"] = entity_id
entity = _ui.query(queries_knowledge.entity, entity_id)
if entity is None:
    st.warning("This entity is no longer in the database.")
    st.stop()

st.header(_labels.name_or(entity["name"], "unnamed entity"))
st.caption(f"{_labels.name_or(entity['type'], 'no type')} · also written as: {', '.join(entity['aliases']) or '—'} · id {entity_id}")
claims_tab, graph_tab, runs_tab = st.tabs(["Claims", "Neighbours", "Runs"])

with claims_tab:
    claims = _ui.query(queries_knowledge.entity_claims, entity_id)
    if claims.empty:
        st.info(f"No claim names {entity['name']} as its system or its baseline.")
    else:
        shown = (
            st.slider(
                "Claims shown",
                5,
                max(5, min(len(claims), 200)),
                min(20, max(5, len(claims))),
                key="claims_shown",
            )
            if len(claims) > 5
            else len(claims)
        )
        st.caption(
            f"{len(claims)} claim(s){' (first 200)' if len(claims) == 200 else ''}; the claimed span is "
            "highlighted in its sentence."
        )
        for c in claims.head(shown).itertuples():
            value = _frames.claim_value(c.value, c.value_low, c.value_high, c.unit)
            versus = _labels.name_or(c.versus, "")
            # a baseline the sentence leaves out and the paper names: shown as the paper's, not the sentence's
            implied = "" if versus else _labels.name_or(c.implied_versus, "")
            against = f" vs **{versus}**" if versus else f" vs **{implied}** (the paper's baseline)" if implied else ""
            confidence = "" if c.confidence is None or pd.isna(c.confidence) else f" · confidence {c.confidence:.2f}"
            st.markdown(
                f"**{_labels.name_or(c.subject, 'no system')}** · {_labels.name_or(c.metric, 'no metric')}: "
                f"**{value}**{against} · "
                f"_{_labels.name_or(c.setting, 'no setting')}_ · {c.role}{confidence}"
            )
            context = _frames.highlight_html(
                c.context, int(c.start - c.ctx_start), int(c.end - c.ctx_start), c.text
            )
            st.html(
                "<div class='assay-context' style='border-left:3px solid #ccc;padding:4px 10px;"
                f"margin:0 0 6px 0;color:#333'>{context}"
                f"<div style='color:#888;font-size:0.8em'>"
                f"{html.escape(_labels.name_or(c.title, _labels.name_or(c.uri, 'unknown document')))}</div></div>"
                "<style>mark.assay-claim{background:#ffe08a;padding:0 2px;border-radius:3px}</style>"
            )

with graph_tab:
    neighbours = _ui.query(queries_knowledge.entity_neighbours, entity_id)
    if neighbours.empty:
        st.info("No relation or co-mention links this entity to another yet.")
    else:
        _ui.plot(_figures.neighbour_figure(entity, neighbours), key="neighbours")
        _ui.table(neighbours[["kind", "name", "type", "predicate", "weight"]])

with runs_tab:
    runs = _ui.query(queries_knowledge.entity_runs, entity_id)
    if runs.empty:
        _ui.empty_state(f"No run's framework, model or hardware is {entity['name']}.", "logs")
    else:
        _ui.table(
            runs[["run_id", "framework", "model", "hardware", "layout", "world_size", "status", "started_at"]]
        )
