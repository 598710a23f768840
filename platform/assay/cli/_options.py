"""Options every command spells the same way, with one help text: ``--db``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="DuckDB file (default: $ASSAY_DB or ./assay.duckdb).", show_default=False),
]


def resolve_db(db: Path | None) -> Path:
    """The database a command uses: ``--db``, else ``$ASSAY_DB``, else ``./assay.duckdb``."""
    from assay.store import default_db_path

    return db if db is not None else default_db_path()
