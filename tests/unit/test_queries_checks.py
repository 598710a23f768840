"""The verdicts as the dashboards read them: ``queries_checks`` and the verdict columns, filter and sort of
``queries_claims``, on the sample database and on a file written before ``claim_checks`` existed."""

from __future__ import annotations

from datetime import datetime

import dashboard_data as dd
import pandas as pd
import pytest

from assay.checks import Check, runs_check_now
from assay.store import connect, queries_checks, queries_claims, queries_scheduler, write_rows
from assay.store._schema import SETTING_COLUMNS

ClaimFilter = queries_claims.ClaimFilter


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> dd.Sample:
    return dd.fill_sample(tmp_path_factory.mktemp("checks") / "assay.duckdb")


@pytest.fixture(scope="module")
def before_checks(tmp_path_factory) -> dd.Sample:
    """A file as schema 2 left it: claims without the setting columns, no claim_checks table."""
    sample = dd.fill_sample(tmp_path_factory.mktemp("old") / "assay.duckdb", checks=False)
    with connect(sample.db) as con:
        con.execute("DROP TABLE claim_checks")
        for column, _ in SETTING_COLUMNS:
            con.execute(f"ALTER TABLE claims DROP COLUMN {column}")
        con.execute("DELETE FROM schema_version WHERE version > 2")
    return sample


def _ids(db, flt: ClaimFilter) -> set[str]:
    return set(queries_claims.claims(db, flt, limit=None)["claim_id"])


def test_claims_carry_a_verdict_per_kind_and_the_worst_overall(sample):
    megatron_x, mfu, scaling, pollux_jct = sample.claim_ids[:4]
    table = queries_claims.claims(sample.db).set_index("claim_id")
    assert table.loc[megatron_x, ["verdict_runs", "verdict_cost_model", "verdict_reproduction"]].tolist() == [
        "consistent",
        "consistent",
        "contradicted",
    ]
    assert table.loc[megatron_x, "verdict"] == "contradicted"  # one kind contradicting outweighs two agreeing
    assert table.loc[mfu, "verdict"] == "implausible" and pd.isna(table.loc[mfu, "verdict_runs"])
    assert table.loc[pollux_jct, "verdict"] == "untestable"
    assert (
        table.loc[scaling, ["verdict_runs", "verdict_cost_model", "verdict_reproduction", "verdict"]]
        .isna()
        .all()
    )


def test_verdict_filter_looks_at_any_kind_unless_kinds_are_chosen(sample):
    megatron_x, mfu, _, pollux_jct = sample.claim_ids[:4]
    db = sample.db
    assert _ids(db, ClaimFilter(verdicts=("contradicted",))) == {megatron_x}
    assert _ids(db, ClaimFilter(verdicts=("consistent",))) == {megatron_x}
    assert _ids(db, ClaimFilter(verdicts=("contradicted",), kinds=("runs",))) == set()
    assert _ids(db, ClaimFilter(verdicts=("implausible", "untestable"))) == {mfu, pollux_jct}
    unchecked = set(sample.claim_ids) - {megatron_x, mfu, pollux_jct}
    assert _ids(db, ClaimFilter(verdicts=(queries_checks.UNCHECKED,))) == unchecked
    # With a kind chosen, "unchecked" means not checked by that kind (the MFU claim has no runs verdict).
    no_runs_check = _ids(db, ClaimFilter(verdicts=(queries_checks.UNCHECKED,), kinds=("runs",)))
    assert no_runs_check == unchecked | {mfu}
    # Combined with the other filters, and the count agrees with the rows.
    flt = ClaimFilter(systems=("Megatron-LM",), verdicts=("implausible", "contradicted"))
    assert _ids(db, flt) == {megatron_x, mfu}
    assert queries_claims.claims_count(db, flt) == 2
    assert "verdict_runs" in queries_claims.claims_csv(db, flt).splitlines()[0]


def test_unknown_verdicts_and_kinds_are_refused_before_any_sql(sample):
    with pytest.raises(ValueError, match="verdicts must be among"):
        ClaimFilter(verdicts=("consistent'); DROP TABLE claims; --",))
    with pytest.raises(ValueError, match="kinds must be among"):
        ClaimFilter(verdicts=("consistent",), kinds=("papers",))


def test_sort_by_verdict_puts_contradicted_first_and_unchecked_last(sample):
    worst_first = queries_claims.claims(sample.db, sort="verdict")["verdict"].tolist()
    assert worst_first[:3] == ["contradicted", "implausible", "untestable"]
    assert pd.isna(worst_first[3:]).all()
    best_first = queries_claims.claims(sample.db, sort="verdict", descending=False)["verdict"].tolist()
    assert best_first[:3] == ["untestable", "implausible", "contradicted"]


def test_claims_counted_once_under_their_worst_verdict(sample):
    counts = queries_checks.claim_verdict_counts(sample.db)
    assert counts.to_dict("records") == [
        {"verdict": "contradicted", "claims": 1},
        {"verdict": "implausible", "claims": 1},
        {"verdict": "untestable", "claims": 1},
    ]
    per_kind = queries_checks.verdict_counts(sample.db)
    assert int(per_kind["n"].sum()) == 5  # every check, by kind


def test_a_newer_check_of_a_kind_replaces_the_older(tmp_path):
    sample = dd.fill_sample(tmp_path / "assay.duckdb", checks=False)
    claim = sample.claim_ids[0]
    old = Check(claim, "runs", "contradicted", "two runs only", claimed=1.5, observed=1.1, unit="x")
    write_rows(sample.db, {"claim_checks": [old.row(at=datetime(2025, 1, 1))]})
    assert queries_claims.claims(sample.db, ClaimFilter(verdicts=("contradicted",)))["claim_id"].tolist() == [
        claim
    ]
    new = Check(claim, "runs", "consistent", "eight runs", claimed=1.5, observed=1.45, unit="x")
    write_rows(sample.db, {"claim_checks": [new.row(at=datetime(2025, 2, 1))]}, upsert=["claim_checks"])
    assert queries_claims.claims_count(sample.db, ClaimFilter(verdicts=("contradicted",))) == 0
    checks = queries_checks.checks_of(sample.db, claim)
    assert checks[["kind", "verdict", "observed"]].values.tolist() == [["runs", "consistent", 1.45]]


def test_checks_of_a_claim_in_kind_order_with_evidence_decoded(sample):
    checks = queries_checks.checks_of(sample.db, sample.claim_ids[0])
    assert checks["kind"].tolist() == list(queries_checks.CHECK_KINDS)
    runs_evidence = checks["evidence"].iloc[0]
    assert {r["role"] for r in runs_evidence["runs"]} == {"claimed system", "baseline"}
    assert checks["evidence"].iloc[2]["jobs"] == {"subject": ["job-elastic"], "baseline": ["job-bert"]}
    assert queries_checks.checks_of(sample.db, sample.claim_ids[2]).empty


def test_a_file_from_before_the_checks_reads_as_nothing_checked(before_checks):
    db = before_checks.db
    assert not queries_checks.has_checks(db)
    table = queries_claims.claims(db)
    assert len(table) == len(before_checks.claim_ids) and table["verdict"].isna().all()
    assert queries_claims.claims_count(db, ClaimFilter(verdicts=("consistent",))) == 0
    unchecked = ClaimFilter(verdicts=(queries_checks.UNCHECKED,), kinds=("cost_model",))
    assert queries_claims.claims_count(db, unchecked) == len(before_checks.claim_ids)
    assert len(queries_claims.claims(db, sort="verdict")) == len(before_checks.claim_ids)
    assert queries_checks.claim_verdict_counts(db).empty
    assert queries_checks.checks_of(db, before_checks.claim_ids[0]).empty
    # The claims' settings came with the checks: an old file has neither, and is still read, not migrated.
    assert table["measure"].isna().all()
    live = runs_check_now(db, before_checks.claim_ids[0])  # "1.5x higher throughput": measured from its words
    assert live.kind == "runs" and live.claimed == 1.5
    assert not queries_checks.has_checks(db)


def test_job_queue_narrowed_to_a_reproductions_jobs(sample):
    jobs = queries_scheduler.job_queue(sample.db, job_ids=["job-bert", "job-elastic", "no-such-job"])
    assert sorted(jobs["job_id"]) == ["job-bert", "job-elastic"]
    running = queries_scheduler.job_queue(sample.db, ["running"], job_ids=["job-bert", "job-elastic"])
    assert running["job_id"].tolist() == ["job-elastic"]


def test_a_file_from_before_the_implied_baseline_reads_it_as_none(tmp_path):
    sample = dd.fill_sample(tmp_path / "assay.duckdb")
    with connect(sample.db) as con:  # as schema 6 left it: checks and settings, no implied baseline
        con.execute("ALTER TABLE claims DROP COLUMN implied_versus")
        con.execute("DELETE FROM schema_version WHERE version > 6")
    rows = queries_checks.claims_to_check(sample.db)
    assert len(rows) == len(sample.claim_ids) and rows["implied_versus"].isna().all()
    with connect(sample.db) as con:  # opened for writing: brought forward, the column back and empty
        assert con.execute("SELECT count(implied_versus) FROM claims").fetchone() == (0,)


def test_a_statement_naming_no_baseline_is_checked_against_the_implied_one(tmp_path):
    from assay.checks._setting import ClaimSetting

    sample = dd.fill_sample(tmp_path / "assay.duckdb")
    claim_id = sample.claim_ids[0]
    with connect(sample.db) as con:
        named = con.execute("SELECT versus FROM claims WHERE claim_id = ?", [claim_id]).fetchone()[0]
        con.execute("UPDATE claims SET versus = NULL, implied_versus = ? WHERE claim_id = ?", [named, claim_id])
    row = queries_checks.claims_to_check(sample.db, [claim_id]).iloc[0].to_dict()
    assert row["versus"] is None or pd.isna(row["versus"])
    setting = ClaimSetting.from_row(row)
    assert setting.versus == named and setting.relative
