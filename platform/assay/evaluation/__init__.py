"""Scoring extracted numeric claims against a gold file: the one definition of a right claim, applied to
abstracts, corpora and the database alike (``assay eval``, the calibration and the scorers read it).

    from assay.evaluation import evaluate_corpus, format_report
    print(format_report(evaluate_corpus("gold.jsonl", "papers/", db="assay.duckdb")))

The gold file's shapes are in ``_gold``; when a prediction matches a gold claim and when its subject and
baseline are right, in ``_matching``; the scores (a headline over ratio claims, other quantities apart,
background claims neutral), in ``_scoring``; where the predictions come from (the database, else the
papers operators in-process), in ``_predictions``; the report and its text, in ``_report``.
"""

from assay.evaluation._gold import GoldDoc, find_by_stem, load_gold, split_abstracts
from assay.evaluation._matching import (
    RATIO_UNITS,
    TOLERANCE,
    claims_match,
    exact_name,
    is_context,
    is_ratio,
    names_right,
    normalise_unit,
    same_name,
)
from assay.evaluation._predictions import (
    claims_from_db,
    corpus_documents,
    evaluate_abstracts,
    evaluate_corpus,
    extract_claims,
    gold_and_predictions,
)
from assay.evaluation._report import Report, document_lines, format_report
from assay.evaluation._scoring import Item, Score, score, verdicts

__all__ = [
    "RATIO_UNITS",
    "TOLERANCE",
    "GoldDoc",
    "Item",
    "Report",
    "Score",
    "claims_from_db",
    "claims_match",
    "corpus_documents",
    "document_lines",
    "evaluate_abstracts",
    "evaluate_corpus",
    "exact_name",
    "extract_claims",
    "find_by_stem",
    "format_report",
    "gold_and_predictions",
    "is_context",
    "is_ratio",
    "load_gold",
    "names_right",
    "normalise_unit",
    "same_name",
    "score",
    "split_abstracts",
    "verdicts",
]
