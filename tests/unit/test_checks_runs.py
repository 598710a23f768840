"""Evidence from measured runs, and ``check_claims`` end to end on a real DuckDB file: runs that match both
sides of a claim give a measured ratio and a verdict; a claim nothing matches is untestable, saying why."""

from __future__ import annotations

import json

import pytest

from assay.checks import UnknownClaims, check_claims
from assay.store import write_rows
from assay.store.queries_checks import checks_of, verdict_counts, verdicts_of


def _run(run_id, framework, tokens, *, model="gpt-1.3b", world=8, dp=8, tp=1, pp=1, hardware="NVIDIA A100-SXM4-80GB"):
    run = dict(run_id=run_id, framework=framework, status="ok", model=model, world_size=world, dp=dp, tp=tp,
               pp=pp, hardware=hardware)
    metrics = [dict(run_id=run_id, step=s, name="tokens_per_s", value=tokens * (1 + 0.01 * (s % 3)), rank=0)
               for s in range(1, 11)]
    return run, metrics


def _claim(claim_id, **fields):
    base = dict(claim_id=claim_id, doc_id="d1", subject="FastTrain", versus="Megatron-LM", metric="throughput",
                measure="throughput", direction="higher", unit="x", value=1.5, hardware="A100", gpus=8,
                model="GPT 1.3B", params_b=1.3, text="1.5x", confidence=0.9)
    return {**base, **fields}


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "checks.duckdb"
    runs, metrics = [], []
    for run_id, fw, tokens, extra in [
        ("f1", "fasttrain", 15000.0, {}), ("f2", "FastTrain", 16000.0, {}),
        ("m1", "megatron_lm", 10000.0, {}), ("m2", "Megatron-LM", 10500.0, {}),
        ("f16", "fasttrain", 29000.0, {"world": 16, "dp": 16}), ("m16", "megatron", 20000.0, {"world": 16, "dp": 16}),
        ("pp", "assay", 900.0, {"model": "gpt-tiny", "world": 2, "dp": 1, "pp": 2, "hardware": "cpu"}),
        ("tp", "assay", 600.0, {"model": "gpt-4l-64h", "world": 2, "dp": 1, "tp": 2, "hardware": "cpu"}),
    ]:
        run, ms = _run(run_id, fw, tokens, **extra)
        runs.append(run)
        metrics += ms
    entities = [dict(entity_id="e1", name="Megatron-LM", type="system", aliases=["Megatron", "megatron_lm"]),
                dict(entity_id="e2", name="FastTrain", type="system", aliases=[])]
    claims = [
        _claim("agree"),
        _claim("too_high", value=3.0),
        _claim("pct", unit="%", value=50.0),
        _claim("other_gpus", gpus=32),
        _claim("accuracy", measure="accuracy", metric="accuracy", unit="%", value=2.0),
        _claim("layout", subject="pipeline parallelism", versus="tensor parallelism", value=1.5, hardware=None,
               gpus=2, model="gpt-tiny", params_b=None),
    ]
    write_rows(path, {"runs": runs, "metrics": metrics, "entities": entities, "claims": claims})
    return path


def test_a_claim_within_the_measured_ratio_is_consistent_and_one_far_above_it_contradicted(db):
    report = check_claims(db)
    by = {(c.claim_id, c.kind): c for c in report.checks}
    agree = by[("agree", "runs")]
    assert agree.verdict == "consistent", agree.reason
    assert agree.observed == pytest.approx(1.5, rel=0.05)  # (15000, 16000) / (10000, 10500) medians
    assert {r["run_id"] for r in agree.evidence["runs"]} == {"f1", "f2", "m1", "m2"}  # 8 GPUs only
    assert {r["role"] for r in agree.evidence["runs"]} == {"subject", "baseline"}
    assert by[("too_high", "runs")].verdict == "contradicted"
    assert by[("pct", "runs")].verdict == "consistent"  # 50 % higher throughput = 1.5x
    nothing = by[("other_gpus", "runs")]
    assert nothing.verdict == "untestable"
    assert "32 devices" in nothing.reason


def test_a_layout_claim_is_matched_on_the_runs_layouts(db):
    # The tp run is named as assay's jobs name their model (depth and width): it is gpt-tiny.
    report = check_claims(db, ["layout"])
    runs = next(c for c in report.checks if c.kind == "runs")
    assert runs.verdict == "consistent", runs.reason
    assert runs.observed == pytest.approx(1.5, rel=0.05)  # 900 / 600 tokens/s
    assert {r["run_id"]: r["role"] for r in runs.evidence["runs"]} == {"pp": "subject", "tp": "baseline"}


def test_only_performance_claims_are_checked_unless_asked_for_and_verdicts_are_stored(db):
    report = check_claims(db)
    assert "accuracy" not in {c.claim_id for c in report.checks}
    assert report.n_checked == 5 and report.n_claims == 6
    stored = checks_of(db, "agree")
    assert list(stored["kind"]) == ["runs", "cost_model"]
    assert stored["evidence"][0]["metric"] == "tokens_per_s"
    asked = check_claims(db, ["accuracy"])
    assert {c.verdict for c in asked.checks} == {"untestable"}
    assert all("accuracy" in c.reason for c in asked.checks)


def test_a_second_check_replaces_the_first(db):
    check_claims(db)
    check_claims(db)
    counts = verdict_counts(db)
    assert counts["n"].sum() == 10  # 5 claims x 2 kinds, not twice that
    wide = verdicts_of(db, ["agree", "too_high"]).set_index("claim_id")
    assert wide.loc["agree", "runs"] == "consistent"
    assert wide.loc["too_high", "runs"] == "contradicted"
    assert wide.loc["agree", "reproduction"] is None


def test_unknown_claim_ids_are_named(db):
    with pytest.raises(UnknownClaims, match="nope"):
        check_claims(db, ["agree", "nope"])


def test_a_failing_reproduction_is_that_claims_verdict_not_the_end_of_the_run(db):
    def reproducer(database, setting):
        raise RuntimeError("no workers")

    report = check_claims(db, ["agree", "layout"], reproduce=True, reproducer=reproducer)
    reproductions = [c for c in report.checks if c.kind == "reproduction"]
    assert len(reproductions) == 2
    assert all(c.verdict == "untestable" and "no workers" in c.reason for c in reproductions)
    assert json.loads(reproductions[0].row()["evidence"]) == {}
