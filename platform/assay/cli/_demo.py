"""``assay demo``: the main job on embedded defaults, ending with how to open the dashboard."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from assay.cli._options import DbOption, resolve_db


def demo(
    db: DbOption = None,
    steps: Annotated[int, typer.Option("--steps", help="Steps of the demo training job.", min=2)] = 20,
) -> None:
    """Run the papers and logs pipelines on the bundled samples, a short training job and the scheduler
    simulations, into one database; then say how to open the dashboard."""
    from assay.demo import run_demo
    from assay.ray_session import quiet_ray

    quiet_ray()

    path = resolve_db(db).resolve()
    table_counts = run_demo(path, train_steps=steps, echo=typer.echo)
    shown = ", ".join(f"{n:,} {t}" for t, n in table_counts.items() if n)
    typer.echo(f"\nThe knowledge graph in {path}: {shown}.")
    assay = Path(sys.argv[0]).name if Path(sys.argv[0]).name == "assay" else "assay"
    exe = str(Path(sys.executable).with_name("assay")) if Path(sys.executable).with_name("assay").exists() else assay
    typer.echo(f"Try:   {shlex.quote(exe)} query \"select subject, metric, value, unit, versus from claims "
               f"order by value desc limit 10\" --db {shlex.quote(str(path))}")
    typer.echo(f"Open the dashboard:   {shlex.quote(exe)} dashboard --db {shlex.quote(str(path))}"
               "   (then browse http://127.0.0.1:8501)")
