"""``assay eval``: score the numeric claims extracted from abstracts against a gold file.

    assay eval --gold seed_gold.jsonl --abstracts seed_abstracts.txt [--db FILE] [--json]
    assay eval --gold pipelines/samples/papers_gold.jsonl --corpus pipelines/samples/papers
    assay eval --gold ../shared/realpapers/gold.jsonl --corpus ../shared/realpapers/docs

The report gives precision and recall, and of the matched claims the share with the subject right, the
baseline right and both, in all and per document.

All the work is in ``assay.evaluation``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from assay.cli._options import DbOption, resolve_db, usage_error


def evaluate(
    gold: Annotated[
        Path,
        typer.Option(
            "--gold",
            help="Gold file: one JSON line per document with gold.claims "
            "(keyed by 'index', or by 'source' file and 'row'), or with claims keyed by 'doc', "
            "the paper's file stem in --corpus.",
        ),
    ],
    abstracts: Annotated[
        Path | None,
        typer.Option(
            "--abstracts", help="Text file of abstracts separated by blank lines; abstract i is gold index i."
        ),
    ] = None,
    corpus: Annotated[
        Path | None,
        typer.Option(
            "--corpus",
            help="Folder of papers named by the gold lines' 'source' or 'doc' stem (instead of --abstracts).",
        ),
    ] = None,
    db: DbOption = None,
    model: Annotated[
        str, typer.Option("--model", help="spaCy pipeline for in-process extraction: blank or auto.")
    ] = "blank",
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    show: Annotated[int, typer.Option("--show", help="Misses and false positives listed (each).")] = 50,
) -> None:
    """Score extracted numeric claims (precision, recall, F1) against a gold file. The claims are read from
    the database where its documents are in it; the other documents are extracted in-process."""
    from assay import evaluation

    if (abstracts is None) == (corpus is None):
        raise typer.BadParameter(
            "give exactly one of --abstracts FILE or --corpus DIR", param_hint="--abstracts"
        )
    if not gold.is_file():
        raise typer.BadParameter(f"{gold} is not a file", param_hint="--gold")
    if abstracts is not None and not abstracts.is_file():
        raise typer.BadParameter(f"{abstracts} is not a file", param_hint="--abstracts")
    if corpus is not None and not corpus.is_dir():
        raise typer.BadParameter(f"{corpus} is not a folder", param_hint="--corpus")
    if db is not None and not db.exists():
        raise typer.BadParameter(
            f"{db} does not exist; run `assay run papers` first, or leave --db out to extract in-process",
            param_hint="--db",
        )
    if model not in ("blank", "auto"):
        raise typer.BadParameter(f"{model!r}: use blank or auto", param_hint="--model")
    database = resolve_db(db)
    try:
        if abstracts is not None:
            report = evaluation.evaluate_abstracts(gold, abstracts, db=database, model=model)
        else:
            assert corpus is not None
            report = evaluation.evaluate_corpus(gold, corpus, db=database, model=model)
    except ValueError as exc:
        raise usage_error(exc, "--gold") from None
    if as_json:
        typer.echo(json.dumps(report.as_dict(), ensure_ascii=False, indent=2))
    else:
        typer.echo(evaluation.format_report(report, show=show))
