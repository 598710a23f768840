"""Verdicts from intervals: synthetic step-time series of a known ratio and noise, checked through
``check_claims`` on a real DuckDB file. A claim inside the measured interval (widened by the tolerance) is
consistent, one outside it contradicted, and one over noisy runs inconclusive, saying how many more runs
would settle it; a per-GPU claim set against a whole-job run is converted by the run's device count."""

from __future__ import annotations

import random

import pytest

from assay.checks import check_claims
from assay.checks._interval import Interval, judge, ratio_interval, steady
from assay.store import write_rows
from assay.store.queries_checks import checks_of


def _series(run_id, tokens, noise, rng, *, steps=40, world=8, framework="fasttrain", metric="tokens_per_s"):
    run = dict(run_id=run_id, framework=framework, status="ok", model="gpt-1.3b", world_size=world, dp=world,
               tp=1, pp=1, hardware="NVIDIA A100-SXM4-80GB")
    # Two slow warm-up steps first: the steady-state rule must leave them out.
    values = [tokens / 3, tokens / 2] + [tokens * rng.lognormvariate(0, noise) for _ in range(steps - 2)]
    return run, [dict(run_id=run_id, step=s, name=metric, value=v, rank=0) for s, v in enumerate(values, 1)]


def _claim(claim_id, value, **fields):
    base = dict(claim_id=claim_id, doc_id="d1", subject="FastTrain", versus="Megatron-LM", metric="throughput",
                measure="throughput", direction="higher", unit="x", value=value, hardware="A100", gpus=8,
                model="GPT 1.3B", params_b=1.3, text=f"{value}x", confidence=0.9)
    return {**base, **fields}


def _db(tmp_path, ratio, noise, n_runs, claims, seed=1):
    rng = random.Random(seed)
    runs, metrics = [], []
    for i in range(n_runs):
        for fw, tokens in (("fasttrain", 10_000.0 * ratio), ("megatron_lm", 10_000.0)):
            run, ms = _series(f"{fw}{i}", tokens * rng.lognormvariate(0, noise / 2), noise, rng, framework=fw)
            runs.append(run)
            metrics += ms
    entities = [dict(entity_id="e1", name="Megatron-LM", type="system", aliases=["megatron_lm"]),
                dict(entity_id="e2", name="FastTrain", type="system", aliases=[])]
    path = tmp_path / "intervals.duckdb"
    write_rows(path, {"runs": runs, "metrics": metrics, "entities": entities, "claims": claims})
    return path


def _runs_check(db, claim_id):
    rows = checks_of(db, claim_id)
    return rows[rows.kind == "runs"].iloc[0]


def test_quiet_runs_of_a_known_ratio_agree_inside_and_contradict_outside(tmp_path):
    db = _db(tmp_path, 1.5, 0.02, 3, [_claim("inside", 1.55), _claim("outside", 2.2), _claim("below", 1.0)])
    check_claims(db)
    inside = _runs_check(db, "inside")
    assert inside.verdict == "consistent", inside.reason
    assert inside.low < 1.5 < inside.high and inside.high / inside.low < 1.15
    assert "interval" in inside.reason
    assert _runs_check(db, "outside").verdict == "contradicted"
    assert _runs_check(db, "below").verdict == "contradicted"


def test_noisy_runs_are_inconclusive_and_say_how_many_more_runs_would_settle_it(tmp_path):
    db = _db(tmp_path, 1.5, 0.6, 2, [_claim("noisy", 1.5)])
    check_claims(db)
    check = _runs_check(db, "noisy")
    assert check.verdict == "inconclusive", check.reason
    assert "more runs per side" in check.reason
    assert check.low < 1.5 < check.high


def test_the_same_evidence_gives_the_same_interval_every_time(tmp_path):
    db = _db(tmp_path, 1.3, 0.2, 3, [_claim("again", 1.3)])
    check_claims(db)
    first = _runs_check(db, "again")
    check_claims(db)
    second = _runs_check(db, "again")
    assert (first.low, first.high, first.verdict) == (second.low, second.high, second.verdict)
    assert len(checks_of(db, "again")) == 2  # one row per kind of evidence: a re-check replaces


def test_a_per_gpu_claim_is_set_against_a_whole_job_run_divided_by_its_devices(tmp_path):
    rng = random.Random(3)
    run, metrics = _series("job", 8 * 4300.0, 0.02, rng, world=8)
    claims = [
        _claim("per_gpu", 4300.0, versus=None, metric="throughput per GPU", unit="tokens/s"),
        _claim("whole_job", 4300.0, versus=None, metric="throughput", unit="tokens/s"),
    ]
    entities = [dict(entity_id="e2", name="FastTrain", type="system", aliases=[])]
    db = tmp_path / "scope.duckdb"
    write_rows(db, {"runs": [run], "metrics": metrics, "entities": entities, "claims": claims})
    check_claims(db)
    per_gpu = _runs_check(db, "per_gpu")
    assert per_gpu.verdict == "consistent", per_gpu.reason
    assert per_gpu.observed == pytest.approx(4300, rel=0.05)
    assert "per device" in per_gpu.reason and "8 devices" in per_gpu.reason
    whole = _runs_check(db, "whole_job")  # 4,300 for the whole job against 34,400 measured
    assert whole.verdict == "contradicted"


def test_a_per_gpu_claim_against_runs_that_do_not_say_their_devices_is_refused_with_the_reason(tmp_path):
    rng = random.Random(4)
    run, metrics = _series("job", 8 * 4300.0, 0.02, rng)
    run["world_size"] = None
    claim = _claim("per_gpu", 4300.0, versus=None, metric="throughput per GPU", unit="tokens/s", gpus=None)
    db = tmp_path / "scope.duckdb"
    write_rows(db, {"runs": [run], "metrics": metrics, "claims": [claim],
                    "entities": [dict(entity_id="e2", name="FastTrain", type="system", aliases=[])]})
    check_claims(db)
    check = _runs_check(db, "per_gpu")
    assert check.verdict == "untestable"
    assert "how many devices" in check.reason


def test_the_steady_state_leaves_out_warm_up_and_outliers():
    values = [500.0, 300.0] + [100.0 + (i % 3) for i in range(30)] + [900.0] + [101.0] * 5
    kept = steady(values)
    assert max(kept) < 110 and len(kept) >= 30


def test_interleaved_rounds_of_a_reproduction_are_drawn_as_pairs():
    # Each round ran on a machine of a different load: drift hits both sides of the round alike.
    subject = [[10.0 * load] * 8 for load in (1.0, 1.6, 0.8)]
    baseline = [[15.0 * load] * 8 for load in (1.0, 1.6, 0.8)]
    paired = ratio_interval(subject, baseline, invert=True, paired=True)
    unpaired = ratio_interval(subject, baseline, invert=True)
    assert paired.point == pytest.approx(1.5)
    assert paired.high / paired.low < unpaired.high / unpaired.low


def test_a_claim_of_which_side_wins_with_no_number_is_inconclusive_when_the_interval_holds_both():
    assert judge(None, Interval(1.2, 1.1, 1.3, 3, 90), 0.15)[0] == "consistent"
    assert judge(None, Interval(0.8, 0.7, 0.9, 3, 90), 0.15)[0] == "contradicted"
    assert judge(None, Interval(1.0, 0.8, 1.3, 3, 90), 0.15)[0] == "inconclusive"


def test_two_rounds_that_disagree_leave_the_claim_inconclusive_not_flipped():
    # The demo's old flip: one round measured 1.26x, the next 0.89x. Two rounds are too few to pick either.
    rng = random.Random(5)
    subject = [[100.0 * rng.uniform(0.99, 1.01) for _ in range(10)] for _ in range(2)]
    baseline = [[126.0 * rng.uniform(0.99, 1.01) for _ in range(10)], [89.0 * rng.uniform(0.99, 1.01) for _ in range(10)]]
    interval = ratio_interval(subject, baseline, invert=True, paired=True)
    verdict, why = judge(1.7, interval, 0.25, unit_of_more="rounds")
    assert verdict == "inconclusive", why
    assert interval.low < 0.89 and interval.high > 1.7
    assert "more rounds" in why
