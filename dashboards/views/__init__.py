"""The dashboard's pages; Streamlit runs each file as a script (see ../app.py), nothing imports them."""
