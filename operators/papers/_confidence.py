"""A claim's ``confidence``: the calibrated probability that the extracted claim is right -- its value and
unit, its subject and its baseline (``versus``) all as a careful reader would write them down, the
"attributed" correctness ``assay eval`` judges.

The model is a logistic regression on a handful of binary features of how the claim was found (where its
subject came from, whether a baseline and a metric word were found, the section, how the number was
written, ...). Its weights live in ``confidence.json`` beside this module, fitted on the gold sets in the
repository by ``python -m assay.calibration`` (``assay.calibration.fit_confidence``); re-run it when the
extractor changes. Each weight reads as "this feature multiplies the odds of being right by exp(w)".
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

from assay.operators.papers._claims import Claim

TABLE_PATH = Path(__file__).with_name("confidence.json")
#: How the number was written, grouped so that each group has enough claims in the gold sets to be weighed.
_SHAPES = {
    "x": "x",
    "pct": "percent",
    "zh_percent": "percent",
    "rate": "rate",
    "times": "words",
    "fold": "words",
    "factor": "words",
    "speedup": "words",
    "words": "words",
    "zh_numeral": "words",
    "half": "words",
    "pp": "other",
    "oom": "other",
    "list_item": "x",  # its unit is the listed claim's; being listed is its own feature
}
_SECTIONS = {"abstract", "introduction", "evaluation", "conclusion"}


def features(claim: Claim, lang: str = "en") -> tuple[str, ...]:
    """The binary features that are on for ``claim``, as ``name:value`` strings (the model's vocabulary).

    Read after attribution: ``claim.subject_source`` is ``parse`` (a dependency parse chose it),
    ``proposed`` (a system the paper proposes is named before the number), ``primary`` (no such name: the
    paper's main system is assumed), ``nearest`` (the nearest name before the number) or None."""
    section = claim.section if claim.section in _SECTIONS else ("other" if claim.section else "none")
    out = [
        f"subject:{claim.subject_source or 'none'}",
        f"versus:{claim.versus_source or 'none'}",
        f"metric:{'found' if claim.metric else 'none'}",
        f"section:{section}",
        f"shape:{_SHAPES.get(claim.shape, 'other')}",
    ]
    if claim.in_list or claim.shape == "list_item":
        out.append("list")
    if claim.qualifier:
        out.append("qualifier")
    if claim.rival_before:
        out.append("rival_before")
    if lang != "en":
        # No dependency parse, and baselines stated before the number ("与X相比"): attribution is harder.
        out.append("not_english")
    return tuple(out)


@cache
def table(path: str = str(TABLE_PATH)) -> dict[str, Any]:
    """The fitted model: ``intercept`` and ``weights`` (feature -> log-odds), with how it was fitted."""
    return json.loads(Path(path).read_text("utf-8"))


def probability(active: tuple[str, ...] | list[str], model: dict[str, Any]) -> float:
    """The model's probability for a claim with these features on (a feature it has not seen weighs 0)."""
    weights = model["weights"]
    z = model["intercept"] + sum(weights.get(f, 0.0) for f in active)
    return 1.0 / (1.0 + math.exp(-z))


def confidence(claim: Claim, lang: str = "en") -> float:
    """The calibrated confidence of an attributed claim of a text in ``lang``, rounded to 3 decimals."""
    return round(probability(features(claim, lang), table()), 3)
