"""``assay dashboard``: serve the Streamlit dashboards over a database, read-only, on this machine."""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from assay.cli._options import DbOption, resolve_db

LOOPBACK = "127.0.0.1"


def app_path() -> Path:
    """The installed dashboards' entry script (works from an editable install and from a wheel)."""
    import assay.dashboards

    return Path(assay.dashboards.__file__).resolve().parent / "app.py"


def streamlit_command(db: Path, port: int, host: str) -> tuple[list[str], dict[str, str]]:
    """The ``streamlit run`` command line and environment that serve the dashboards over ``db``."""
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(app_path()),
        "--server.headless",
        "true",
        "--server.address",
        host,
        "--server.port",
        str(port),
        "--server.fileWatcherType",
        "none",
        "--server.runOnSave",
        "false",
        "--browser.gatherUsageStats",
        "false",
        "--global.developmentMode",
        "false",
        "--client.toolbarMode",
        "minimal",
        "--theme.base",
        "light",
    ]
    env = {**os.environ, "ASSAY_DB": str(db.resolve())}
    return cmd, env


def _check_host(host: str) -> None:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if host != "localhost":
            raise typer.BadParameter(
                f"{host!r} is not an IP address; use e.g. 127.0.0.1 or 0.0.0.0", param_hint="--host"
            ) from None
        return
    if not address.is_loopback:
        typer.echo(
            f"warning: serving on {host}: anyone who can reach this machine can read the database", err=True
        )


def dashboard(
    db: DbOption = None,
    port: Annotated[int, typer.Option("--port", help="Port to serve on.")] = 8501,
    host: Annotated[
        str, typer.Option("--host", help="Address to bind; the default serves this machine only.")
    ] = LOOPBACK,
) -> None:
    """Serve the dashboards (claims, runs, scheduler, pipelines) in the browser, reading the database
    read-only while pipelines and the scheduler write it."""
    if not 1 <= port <= 65535:
        raise typer.BadParameter(f"{port} is not a port; use 1-65535 (e.g. 8501)", param_hint="--port")
    _check_host(host)
    path = resolve_db(db)
    if db is not None and not path.exists():
        raise typer.BadParameter(
            f"no database at {path}; fill one first (assay run papers --input DIR) or fix the path",
            param_hint="--db",
        )
    cmd, env = streamlit_command(path, port, host)
    typer.echo(
        f"assay dashboard: http://{'localhost' if host == LOOPBACK else host}:{port} over {path.resolve()} "
        "(read-only; Ctrl+C stops)"
    )
    serve(cmd, env)


def serve(cmd: list[str], env: dict[str, str]) -> None:
    """Become the Streamlit server: this process is replaced by it, so stopping ``assay dashboard`` (Ctrl+C,
    ``kill PID``, a service manager) stops the server itself, and no child is left serving the port."""
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(cmd[0], cmd, env)
