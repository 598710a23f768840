"""The assay dashboards: routes to the views in views/ (one page each) with st.navigation.

Run with ``assay dashboard [--db FILE]`` (or ``streamlit run dashboards/app.py -- --db FILE``).
"""

import streamlit as st

from assay.dashboards import _ui

st.set_page_config(page_title="assay", page_icon=":material/biotech:", layout="wide")

PAGES = [
    st.Page("views/overview.py", title="Overview", icon=":material/dashboard:", default=True),
    st.Page("views/knowledge.py", title="Knowledge", icon=":material/hub:"),
    st.Page("views/claims.py", title="Claims", icon=":material/fact_check:"),
    st.Page("views/runs.py", title="Runs", icon=":material/monitoring:"),
    st.Page("views/scheduler.py", title="Scheduler", icon=":material/view_timeline:"),
    st.Page("views/pipelines.py", title="Pipelines", icon=":material/conveyor_belt:"),
]

page = st.navigation(PAGES)
_ui.sidebar()
if _ui.guard_database():
    page.run()
