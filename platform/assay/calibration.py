"""Calibrating claim confidence on the gold sets: ``fit_confidence`` and ``python -m assay.calibration``.

Each claim the papers operators extract from a gold set's documents is judged as ``assay eval`` judges it
(``assay.evaluation.verdicts``: value and unit matched, subject and baseline right; a claim not in the gold
file is wrong) and paired with the features its confidence is read from (the claim row's
``confidence_basis``). A logistic regression with an L2 penalty on those binary features is the model;
its weights are written to ``operators/papers/confidence.json``, which the extractor reads.

    python -m assay.calibration            # refit on the repository's gold sets, rewrite the table, report
    python -m assay.calibration --check    # report only: is the table stale, how calibrated is it

The report gives the expected calibration error (ECE) and a reliability table on the fit sets, on the
held-out development papers (never fitted on) and on the shared seed abstracts when they are at hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assay.evaluation import gold_and_predictions, verdicts

ROOT = Path(__file__).resolve().parents[2]
#: Log-odds pulled towards 0 by this much: with ~130 claims of which a tenth are wrong, an unpenalised
#: weight for a rare feature would run off to infinity.
# Chosen by ECE on text the table is not fitted on (the held-out papers, and the seed abstracts where ../shared is
# there), over 10-40: 15 gives 0.074 and 0.083 (10: 0.073 and 0.096; 20: 0.091 and 0.075; 40: 0.104 and 0.058),
# and 0.097 on the fit sets. Chosen again whenever a refit moves these.
L2 = 15.0
BINS = 10


@dataclass(frozen=True)
class GoldSet:
    """A gold file and what it scores: a folder of papers or a file of abstracts."""

    gold: Path
    source: Path

    def name(self) -> str:
        try:
            return str(self.gold.relative_to(ROOT))
        except ValueError:
            return str(self.gold)


_DEV = ROOT / "tests" / "data" / "papers_dev"
#: What the confidence table is fitted on: the demo corpus and the development papers.
FIT_SETS = (
    GoldSet(ROOT / "pipelines" / "samples" / "papers_gold.jsonl", ROOT / "pipelines" / "samples" / "papers"),
    GoldSet(_DEV / "gold.jsonl", _DEV),
)
#: Development papers kept out of the fit: calibration on text the table has not seen.
HELD_OUT = (GoldSet(_DEV / "gold_heldout.jsonl", _DEV),)
_SHARED = ROOT.parent / "shared" / "corpus"
#: Measured when present (outside the repository; never needed by tests).
SEED = GoldSet(_SHARED / "seed_gold.jsonl", _SHARED / "seed_abstracts.txt")


@dataclass(frozen=True)
class Observation:
    """One extracted claim: the features its confidence is read from, whether it is right, the
    confidence the extractor gave it."""

    features: tuple[str, ...]
    right: bool
    confidence: float
    doc: str
    text: str


def observations(gold_sets: Sequence[GoldSet], model: str = "blank") -> list[Observation]:
    """Every claim extracted from the gold sets' documents, judged against the gold."""
    out = []
    for gs in gold_sets:
        gold, predicted = gold_and_predictions(gs.gold, gs.source, model)
        judged = verdicts(gold, predicted)
        for doc, rows in predicted.items():
            for row, right in zip(rows, judged[doc], strict=True):
                out.append(
                    Observation(
                        tuple(str(row.get("confidence_basis") or "").split()),
                        right,
                        float(row["confidence"]),
                        f"{gs.name()}#{doc}",
                        str(row.get("text")),
                    )
                )
    return out


def fit_table(obs: Sequence[Observation], l2: float = L2) -> dict[str, Any]:
    """A logistic regression of ``right`` on the observations' binary features (Newton's method; the
    intercept is not penalised), as the table ``operators/papers/confidence.json`` holds."""
    names = sorted({f for o in obs for f in o.features})
    x = np.zeros((len(obs), len(names) + 1))
    x[:, 0] = 1.0
    col = {n: i + 1 for i, n in enumerate(names)}
    for i, o in enumerate(obs):
        for f in o.features:
            x[i, col[f]] = 1.0
    y = np.array([o.right for o in obs], dtype=float)
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return {
        "intercept": round(float(w[0]), 4),
        "weights": {n: round(float(w[col[n]]), 4) for n in names},
        "l2": l2,
        "n_claims": len(obs),
        "n_right": int(y.sum()),
    }


def fit_confidence(
    gold_sets: Sequence[GoldSet] = FIT_SETS, l2: float = L2, model: str = "blank"
) -> dict[str, Any]:
    """The confidence table fitted on ``gold_sets`` with the extractor as it is now."""
    return _with_provenance(fit_table(observations(gold_sets, model), l2), gold_sets, model)


def _with_provenance(table: dict[str, Any], gold_sets: Sequence[GoldSet], model: str) -> dict[str, Any]:
    from assay.operators.papers import trained_model_available

    return {
        **table,
        "fitted_on": [gs.name() for gs in gold_sets],
        "model": model,
        # The dependency parse decides some subjects: a table fitted with it describes extraction with it.
        "parser": trained_model_available(),
    }


def rescored(obs: Sequence[Observation], table: dict[str, Any]) -> list[float]:
    """The confidences ``table`` gives the observations."""
    from assay.operators.papers import confidence_probability

    return [confidence_probability(o.features, table) for o in obs]


def reliability(
    confidences: Sequence[float], outcomes: Sequence[bool], bins: int = BINS
) -> list[dict[str, Any]]:
    """Equal-width confidence bins: claims in each, their mean confidence and the share that is right."""
    c = np.asarray(confidences, dtype=float)
    y = np.asarray(outcomes, dtype=float)
    index = np.minimum((c * bins).astype(int), bins - 1)
    rows = []
    for b in range(bins):
        mask = index == b
        if mask.any():
            rows.append(
                {
                    "bin": f"{b / bins:.1f}-{(b + 1) / bins:.1f}",
                    "n": int(mask.sum()),
                    "mean_confidence": round(float(c[mask].mean()), 3),
                    "accuracy": round(float(y[mask].mean()), 3),
                }
            )
    return rows


def expected_calibration_error(
    confidences: Sequence[float], outcomes: Sequence[bool], bins: int = BINS
) -> float:
    """Sum over bins of |mean confidence - accuracy|, weighted by the bin's share of the claims."""
    n = len(confidences)
    if not n:
        return 0.0
    return sum(
        r["n"] / n * abs(r["mean_confidence"] - r["accuracy"])
        for r in reliability(confidences, outcomes, bins)
    )


def _describe(title: str, obs: Sequence[Observation], table: dict[str, Any]) -> list[str]:
    outcomes = [o.right for o in obs]
    new = rescored(obs, table)
    lines = [
        f"{title}: {len(obs)} claims, {sum(outcomes)} right; ECE as extracted "
        f"{expected_calibration_error([o.confidence for o in obs], outcomes):.3f}, with this table "
        f"{expected_calibration_error(new, outcomes):.3f}",
        "  bin      n  mean confidence  accuracy",
    ]
    for r in reliability(new, outcomes):
        lines.append(f"  {r['bin']}  {r['n']:>3}  {r['mean_confidence']:>15.3f}  {r['accuracy']:>8.3f}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    from assay.operators.papers import CONFIDENCE_TABLE

    parser = argparse.ArgumentParser(prog="python -m assay.calibration", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="report only; exit 1 when the table is stale")
    parser.add_argument("--table", default=str(CONFIDENCE_TABLE), help="the table file to write")
    parser.add_argument("--l2", type=float, default=L2, help="the L2 penalty on the weights")
    args = parser.parse_args(argv)
    fit_obs = observations(FIT_SETS)
    table = _with_provenance(fit_table(fit_obs, args.l2), FIT_SETS, "blank")
    current = json.loads(Path(args.table).read_text("utf-8")) if Path(args.table).exists() else {}
    stale = not same_table(current, table)
    if not args.check:
        Path(args.table).write_text(json.dumps(table, indent=2, ensure_ascii=False) + "\n", "utf-8")
        print(f"wrote {args.table}" + (" (changed)" if stale else " (unchanged)"))
    elif stale:
        print(f"{args.table} is stale: run python -m assay.calibration")
    lines = _describe("fit sets", fit_obs, table)
    lines += _describe("held-out development papers", observations(HELD_OUT), table)
    if SEED.gold.exists() and SEED.source.exists():
        lines += _describe("seed abstracts", observations([SEED]), table)
    print("\n".join(lines))
    return 1 if args.check and stale else 0


def same_table(a: dict[str, Any], b: dict[str, Any], tolerance: float = 2e-3) -> bool:
    """Whether two tables give the same weights, up to float noise."""
    if set(a.get("weights", {})) != set(b.get("weights", {})) or "intercept" not in a or "intercept" not in b:
        return False
    pairs = [(a["intercept"], b["intercept"])] + [(a["weights"][k], b["weights"][k]) for k in a["weights"]]
    return all(abs(x - y) <= tolerance for x, y in pairs)


if __name__ == "__main__":
    sys.exit(main())
