"""assay's Streamlit dashboards: ``app.py`` routes, ``views/`` holds one thin page per topic, and the
queries behind them live in ``assay.store.queries_<domain>``."""
