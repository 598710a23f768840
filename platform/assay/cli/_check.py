"""``assay check``: give performance claims verdicts from the runs, the cost model and reproductions."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from assay.cli._options import DbOption, resolve_db, usage_error

if TYPE_CHECKING:
    from assay.checks import Check

#: Verdicts listed one per line after the summary (untestable ones are only counted, unless the claims were
#: named or reproduced: then the reason a verdict could not be reached is what the user asked for).
SHOWN = 20


def check(
    claim_ids: Annotated[
        list[str] | None, typer.Argument(help="Claims to check (default: every performance claim).",
                                         show_default=False)
    ] = None,
    reproduce: Annotated[
        bool, typer.Option("--reproduce", help="Also run a scaled-down reproduction of each claim that compares "
                           "two layouts, through the live scheduler (minutes per claim).")
    ] = False,
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print every verdict as JSON lines.")] = False,
) -> None:
    """Check claims against measured runs and the cost model; verdicts go to the claim_checks table."""
    from assay.checks import UnknownClaims, check_claims

    database = resolve_db(db)
    if not database.exists():
        raise typer.BadParameter(f"{database} does not exist; run `assay run papers` first", param_hint="--db")
    try:
        report = check_claims(database, claim_ids or None, reproduce=reproduce, echo=typer.echo)
    except UnknownClaims as exc:
        raise usage_error(exc, "CLAIM_IDS") from None
    if as_json:
        for c in report.checks:
            row = c.row()
            row["checked_at"] = str(row["checked_at"])
            typer.echo(json.dumps(row, ensure_ascii=False))
        return
    typer.echo(report.summary())
    decided = [c for c in report.checks if c.verdict != "untestable" or claim_ids or c.kind == "reproduction"]
    for c in decided[:SHOWN]:
        typer.echo(f"  {c.claim_id}  {c.kind:12} {c.verdict:12} {_figures(c)}{c.reason}")
    if len(decided) > SHOWN:
        typer.echo(f"  ... {len(decided) - SHOWN} more: assay query \"SELECT * FROM claim_checks\"")
    typer.echo("See them beside the claims: assay dashboard (Claims page).")


def _figures(c: Check) -> str:
    """``claimed 1.70x, measured 1.23x [1.05-1.44] · `` before the reason, where the check has them."""
    unit = "x" if c.unit == "x" else f" {c.unit}" if c.unit else ""
    parts = []
    if c.claimed is not None:
        parts.append(f"claimed {c.claimed:.3g}{unit}")
    if c.observed is not None:
        bar = f" [{c.low:.3g}-{c.high:.3g}]" if c.low is not None and c.high is not None else ""
        parts.append(f"{'predicted' if c.kind == 'cost_model' else 'measured'} {c.observed:.3g}{unit}{bar}")
    return (", ".join(parts) + " · ") if parts else ""
