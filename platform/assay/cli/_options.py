"""Options every command spells the same way, with one help text (``--db``), and one form of a usage error."""

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


def usage_error(exc: BaseException, param_hint: str) -> typer.BadParameter:
    """A wrong argument as typer prints it (the flag named), with the error's catalogue code when it has one:
    ``Invalid value for --workload: [E072] ...``."""
    from assay.errors import code_of

    code = code_of(exc)
    return typer.BadParameter(f"[{code}] {exc}" if code else str(exc), param_hint=param_hint)
