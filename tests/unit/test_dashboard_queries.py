"""The dashboards' read queries (assay.store.queries_<domain>) on a database filled with sample data."""

from __future__ import annotations

import io
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

import dashboard_data as dd
import duckdb
import pandas as pd
import pytest

from assay.checks import runs_check_now
from assay.store import (
    DatabaseBusy,
    NoDatabase,
    _read,
    queries_claims,
    queries_knowledge,
    queries_pipelines,
    queries_runs,
    queries_scheduler,
    write_rows,
)
from assay.store.queries import sql


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> dd.Sample:
    return dd.fill_sample(tmp_path_factory.mktemp("dash") / "assay.duckdb")


def _run(key: str) -> tuple:
    return next(r for r in dd.RUNS if r[0] == key)


# ------------------------------------------------------------------------------------------ state


def test_state_of_missing_empty_and_filled_databases(tmp_path, sample):
    missing = tmp_path / "nothing.duckdb"
    assert queries_knowledge.database_state(missing) == "missing"
    assert not missing.exists(), "looking at a missing database must not create it"
    with pytest.raises(NoDatabase):
        queries_knowledge.table_counts(missing)
    duckdb.connect(str(tmp_path / "other.duckdb")).close()
    assert queries_knowledge.database_state(tmp_path / "other.duckdb") == "no-schema"
    assert queries_knowledge.database_state(sample.db) == "ready"
    counts = queries_knowledge.table_counts(sample.db)
    assert counts["claims"] == len(sample.claim_ids)
    assert counts["runs"] == len(dd.RUNS)


# -------------------------------------------------------------------------------------- knowledge


def test_entity_search_matches_names_and_aliases_literally(sample):
    assert queries_knowledge.search_entities(sample.db, "zero")["name"].tolist() == ["DeepSpeed"]  # alias ZeRO-3
    assert "Megatron-LM" in queries_knowledge.search_entities(sample.db, "MEGA")["name"].tolist()
    assert set(queries_knowledge.search_entities(sample.db, types=["hardware"])["name"]) == {"A100", "V100"}
    # % and _ are characters to find, not wildcards
    assert queries_knowledge.search_entities(sample.db, "%").empty
    assert queries_knowledge.search_entities(sample.db, "_").empty
    everything = queries_knowledge.search_entities(sample.db, "")
    assert len(everything) == len(dd.ENTITIES)
    assert everything["mentions"].is_monotonic_decreasing


def test_entity_claims_carry_their_sentence_and_span(sample):
    claims = queries_knowledge.entity_claims(sample.db, sample.entity_ids["Megatron-LM"])
    assert set(claims["role"]) == {"subject"}
    assert len(claims) == sum(c["subject"] == "Megatron-LM" for p in dd.PAPERS for c in p["claims"])
    for c in claims.itertuples():
        span = c.context[c.start - c.ctx_start : c.end - c.ctx_start]
        assert span == c.text, "the offsets must point at the claimed span inside the context"
    zh = claims[claims["text"] == "1.3 倍"].iloc[0]
    assert zh["context"].startswith("在 64 张 A100 上") and zh["context"].endswith("。")
    as_baseline = queries_knowledge.entity_claims(sample.db, sample.entity_ids["Optimus"])
    assert as_baseline["role"].tolist() == ["baseline"]


def test_a_claim_against_its_papers_implied_baseline_is_that_baselines(tmp_path):
    # the sentence names no baseline; the paper's (``implied_versus``) is Optimus: the claim is against it
    own = dd.fill_sample(tmp_path / "assay.duckdb")
    con = duckdb.connect(str(own.db))
    con.execute("UPDATE claims SET versus = NULL, implied_versus = 'Optimus' WHERE text = '37-50%'")
    con.close()
    claims = queries_knowledge.entity_claims(own.db, own.entity_ids["Optimus"])
    assert claims["role"].tolist() == ["baseline"]
    assert claims["implied_versus"].tolist() == ["Optimus"] and claims["versus"].isna().all()
    assert claims["text"].tolist() == ["37-50%"]


def test_entity_neighbours_by_relation_and_co_mention(sample):
    nb = queries_knowledge.entity_neighbours(sample.db, sample.entity_ids["Pollux"])
    rel = nb[nb["kind"] == "relation"]
    assert set(rel["name"]) == {"Optimus", "Tiresias"}
    assert set(rel["predicate"]) == {"compared_with"}
    co = nb[nb["kind"] == "co-mention"]
    assert "Optimus" in set(co["name"]) and "Pollux" not in set(co["name"])


def test_entity_runs_match_log_spellings_through_aliases(sample):
    megatron = queries_knowledge.entity_runs(sample.db, sample.entity_ids["Megatron-LM"])
    assert set(megatron["run_id"]) == {dd.run_id(r[0]) for r in dd.RUNS if r[1] == "megatron"}
    a100 = queries_knowledge.entity_runs(sample.db, sample.entity_ids["A100"])
    assert len(a100) == sum(r[3] == "A100" for r in dd.RUNS)
    assert queries_knowledge.entity_runs(sample.db, sample.entity_ids["The Pile"]).empty


# ---------------------------------------------------------------------------------------- claims


def test_claims_filter_sort_count_and_export(sample):
    everything = queries_claims.claims(sample.db)
    assert len(everything) == len(sample.claim_ids)
    assert everything["confidence"].is_monotonic_decreasing
    pollux = queries_claims.ClaimFilter(systems=("Pollux",))
    assert set(queries_claims.claims(sample.db, pollux)["system"]) == {"Pollux"}
    assert queries_claims.claims_count(sample.db, pollux) == 2
    by_value = queries_claims.claims(sample.db, sort="value", descending=False)["value"].dropna()
    assert by_value.is_monotonic_increasing
    both = queries_claims.ClaimFilter(systems=("Megatron-LM",), baselines=("DeepSpeed",))
    assert queries_claims.claims_count(sample.db, both) == 2  # the English and the Chinese claim
    assert queries_claims.claims_count(sample.db, queries_claims.ClaimFilter(text="tp=2")) == 1
    assert queries_claims.claims_count(sample.db, queries_claims.ClaimFilter(min_confidence=0.9)) == 4
    csv = pd.read_csv(io.StringIO(queries_claims.claims_csv(sample.db, queries_claims.ClaimFilter())))
    assert len(csv) == len(sample.claim_ids) and "system" in csv.columns
    with pytest.raises(ValueError, match="sort must be one of"):
        queries_claims.claims(sample.db, sort="value; DROP TABLE claims")


def test_claim_facets_list_the_filter_values(sample):
    facets = queries_claims.claim_facets(sample.db)
    assert facets["systems"][0] == "Megatron-LM"  # most frequent first
    assert "Tiresias" in facets["baselines"] and "吞吐量" in facets["metrics"]


def test_a_claim_is_checked_against_the_runs_now_without_storing_the_verdict(sample):
    claim = sample.claim_ids[0]  # "Megatron-LM achieves 1.5x higher throughput than DeepSpeed ... TP=2"
    stored = sql(sample.db, "SELECT * FROM claim_checks ORDER BY check_id")
    check = runs_check_now(sample.db, claim)
    assert check.kind == "runs" and check.claimed == 1.5 and check.verdict == "consistent"
    # only the 16-GPU, TP=2, GPT-3 runs match; the 8- and 32-GPU Megatron runs do not
    assert {r["run_id"] for r in check.evidence["runs"]} == {
        dd.run_id(k) for k in ("meg-gpt-16a", "meg-gpt-16b", "ds-gpt-16")}
    expected = statistics.median([_run("meg-gpt-16a")[9], _run("meg-gpt-16b")[9]]) / _run("ds-gpt-16")[9]
    assert check.observed == pytest.approx(expected, rel=0.03)
    assert len(check.evidence["groups"]) == 1
    pd.testing.assert_frame_equal(sql(sample.db, "SELECT * FROM claim_checks ORDER BY check_id"), stored)


def test_absolute_and_unmeasurable_claims_checked_now(sample):
    by_text = {
        sql(sample.db, "SELECT text FROM claims WHERE claim_id = ?", [c])["text"][0]: c
        for c in sample.claim_ids
    }
    mfu = runs_check_now(sample.db, by_text["52% MFU"])
    expected = 100 * statistics.median([_run("meg-llama-16")[10], _run("meg-llama-32")[10]])
    assert mfu.unit == "%" and mfu.observed == pytest.approx(expected, rel=0.03)
    jct = runs_check_now(sample.db, by_text["37-50%"])
    assert jct.verdict == "untestable" and "average JCT" in jct.reason
    no_runs = runs_check_now(sample.db, by_text["1.3 倍"])  # 64 GPUs: no such runs
    assert no_runs.verdict == "untestable" and "no runs match" in no_runs.reason
    assert runs_check_now(sample.db, "no-such-claim") is None


# ------------------------------------------------------------------------------------------ runs


def test_run_filters_and_facets(sample):
    facets = queries_runs.run_facets(sample.db)
    assert "dp2·tp4·pp2" in facets["layouts"] and set(facets["statuses"]) == {
        "completed",
        "failed",
        "running",
    }
    only = queries_runs.runs(sample.db, queries_runs.RunFilter(frameworks=("deepspeed",), layouts=("dp8·tp2·pp1",)))
    assert only["run_id"].tolist() == [dd.run_id("ds-gpt-16")]
    assert queries_runs.runs(sample.db)["events"].sum() == sum(len(dd._events_for(r[0])) for r in dd.RUNS)


def test_curves_are_bucketed_in_sql_and_agree_with_the_raw_series(sample):
    rid = dd.run_id("ds-bert-8")  # has NaN losses at steps 120..123
    curves = queries_runs.metric_curves(sample.db, [rid], "loss", buckets=50)
    assert len(curves) == 50
    raw = sql(sample.db, "SELECT step, value FROM metrics WHERE run_id = ? AND name = 'loss'", [rid])
    assert curves["n"].sum() == len(raw)
    assert curves["n_nan"].sum() == raw["value"].isna().sum() == 4 * dd.LOGGED_RANKS
    width = dd.STEPS // 50
    for bucket in (0, 17):
        values = raw[(raw["step"] // width) == bucket]["value"]
        row = curves[curves["bucket"] == bucket].iloc[0]
        assert row["mean"] == pytest.approx(values.mean())
        assert (row["lo"], row["hi"]) == (pytest.approx(values.min()), pytest.approx(values.max()))
    # steps 120..123 are all NaN: their bucket is a gap in the curve, not a zero or a NaN-poisoned mean
    gap = curves[curves["bucket"] == 120 // width].iloc[0]
    assert math.isnan(gap["mean"]) and gap["n_nan"] == gap["n"] == width * dd.LOGGED_RANKS
    assert curves["mean"].isna().sum() == 1


def test_curve_x_axes(sample):
    rid = dd.run_id("meg-gpt-16a")
    step = queries_runs.metric_curves(sample.db, [rid], "loss", "step", buckets=20)
    tokens = queries_runs.metric_curves(sample.db, [rid], "loss", "tokens", buckets=20)
    time_ = queries_runs.metric_curves(sample.db, [rid], "loss", "time", buckets=20)
    gbs = 8 * _run("meg-gpt-16a")[5]
    assert (tokens["x"] / step["x"]).round(6).unique().tolist() == [gbs * dd.SEQ_LEN]
    assert time_["x"].iloc[0] >= 0 and time_["x"].is_monotonic_increasing
    assert queries_runs.metric_curves(sample.db, [], "loss").empty


def test_run_summaries_take_the_median_speed(sample):
    summary = queries_runs.run_summaries(sample.db, list(sample.run_ids.values())).set_index("run_id")
    for key, *_rest in dd.RUNS:
        run = _run(key)
        assert summary.loc[dd.run_id(key), "tokens_per_s"] == pytest.approx(run[9] * run[4], rel=0.03)
    assert summary["memory_mb"].isna().all()


def test_events_and_configs(sample):
    rid = dd.run_id("meg-llama-16")
    assert queries_runs.run_events(sample.db, [rid], ["oom", "restart"])["kind"].tolist() == ["oom", "restart"]
    cfg = queries_runs.run_configs(sample.db, [rid])
    assert '"seq_length": 2048' in cfg["config"][0]


# ------------------------------------------------------------------------------ scheduler, pipelines


def test_allocation_segments_end_at_the_next_decision(sample):
    seg = queries_scheduler.allocation_segments(sample.db, ["job-bert"])
    assert seg["workers"].tolist() == [4, 0, 2, 0]
    assert (seg["finish"].iloc[:-1].to_numpy() == seg["start"].iloc[1:].to_numpy()).all()
    running = queries_scheduler.allocation_segments(sample.db, ["job-elastic"])
    assert running["finish"].iloc[-1] >= running["start"].iloc[-1]
    queue = queries_scheduler.job_queue(sample.db)
    assert queue["state"].iloc[0] == "running"
    assert queries_scheduler.job_queue(sample.db, ["queued"])["job_id"].tolist() == ["job-sweep"]


def test_the_job_queue_puts_every_active_state_first_then_waiting_then_finished(tmp_path):
    """Grouped by the store's one list of job states: a restarting job is active (a driver runs it), not
    finished, however old it is or low its priority."""
    from datetime import datetime, timedelta

    from assay.store.job_state import ACTIVE_STATES, ALL_STATES, FINAL_STATES

    db = tmp_path / "queue.duckdb"
    t0 = datetime(2026, 1, 1)
    # Older jobs get lower priorities, so neither priority nor age can produce the expected order.
    write_rows(db, {"jobs": [
        {"job_id": f"job-{state}", "name": state, "state": state, "priority": i,
         "submitted_at": t0 + timedelta(minutes=i)}
        for i, state in enumerate([*ACTIVE_STATES, "waiting", "queued", "preempted", *FINAL_STATES])
    ]})
    order = queries_scheduler.job_queue(db)["state"].tolist()
    assert sorted(order) == sorted(ALL_STATES)
    n_active = len(ACTIVE_STATES)
    assert set(order[:n_active]) == set(ACTIVE_STATES)
    assert set(order[n_active:n_active + 3]) == {"waiting", "queued", "preempted"}
    assert set(order[n_active + 3:]) == set(FINAL_STATES)
    assert order.index("restarting") < order.index("queued") < order.index("completed")


def test_simulations_include_published_reference_rows(sample):
    assert queries_scheduler.sim_workloads(sample.db) == ["workload-0", "workload-3"]
    sims = queries_scheduler.sim_runs(sample.db, ["workload-0"])
    assert set(sims.loc[sims["published"], "policy"]) == set(dd.PUBLISHED)
    assert set(sims.loc[~sims["published"], "policy"]) == set(dd.POLICIES)
    jobs = queries_scheduler.sim_jct(sample.db, sims.loc[~sims["published"], "sim_id"].tolist())
    assert len(jobs) == 40 * len(dd.POLICIES)


def test_pipeline_runs_and_quarantine(sample):
    pruns = queries_pipelines.pipeline_runs(sample.db)
    assert (pruns["docs_per_s"] == pruns["n_ok"] / pruns["seconds"]).all()
    assert set(queries_pipelines.pipeline_runs(sample.db, ["logs"])["pipeline"]) == {"logs"}
    reasons = queries_pipelines.quarantine_reasons(sample.db)
    assert reasons["inputs"].sum() == queries_knowledge.table_counts(sample.db)["quarantine"]
    lines = queries_pipelines.quarantined_inputs(sample.db, level="line")
    assert lines["error"].tolist() == ["unparseable line 42"]
    one = queries_pipelines.quarantined_inputs(sample.db, [sample.pipeline_run_ids[2]])
    assert len(one) == 3 and set(one["pipeline"]) == {"papers"}


# --------------------------------------------------------------------------------- hostile input

HOSTILE = [
    "'",
    '"',
    "'; DROP TABLE claims; --",
    '" OR 1=1 --',
    "') OR ('1'='1",
    "%",
    "_",
    "\\",
    "\x00",
    "Robert'); DELETE FROM runs; --",
    "💥" * 50,
    "a" * 100_000,
    "$id",
    "?",
    "{}",
    "<script>alert(1)</script>",
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: t[:12].encode("unicode_escape").decode())
def test_hostile_search_text_does_nothing_harmful(sample, text):
    before = queries_knowledge.table_counts(sample.db)
    assert queries_knowledge.search_entities(sample.db, text).empty
    flt = queries_claims.ClaimFilter(systems=(text,), metrics=(text,), baselines=(text,), settings=(text,), text=text)
    assert queries_claims.claims(sample.db, flt).empty and queries_claims.claims_count(sample.db, flt) == 0
    # the text is searched for literally: "%" finds the claims that contain a per cent sign, nothing more
    literal = sum(
        text[: _read.MAX_SEARCH_CHARS].strip().casefold()
        in " ".join(
            str(c.get(k) or "") for k in ("span", "subject", "metric", "setting", "versus")
        ).casefold()
        for p in dd.PAPERS
        for c in p["claims"]
    )
    assert queries_claims.claims_count(sample.db, queries_claims.ClaimFilter(text=text)) == literal
    assert queries_knowledge.entity(sample.db, text) is None and queries_knowledge.entity_neighbours(sample.db, text).empty
    assert queries_runs.runs(sample.db, queries_runs.RunFilter(frameworks=(text,))).empty
    assert queries_runs.metric_curves(sample.db, [text], text).empty
    assert runs_check_now(sample.db, text) is None
    assert queries_knowledge.table_counts(sample.db) == before


# ------------------------------------------------------------------------------- read-only access

HOLD_READ_ONLY = """
import sys, time, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
print("holding", flush=True)
time.sleep(float(sys.argv[2]))
"""


def test_queries_open_the_database_read_only(sample, monkeypatch):
    """Another process holding the file read-only blocks every writer but no reader: the dashboard's
    queries must go through while it holds it, and a writer must not."""
    monkeypatch.setattr(_read, "READ_TIMEOUT_S", 1.0)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_READ_ONLY, str(sample.db), "20"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        started = time.monotonic()
        assert queries_knowledge.table_counts(sample.db)["claims"] == len(sample.claim_ids)
        assert not queries_runs.metric_curves(sample.db, [dd.run_id("meg-gpt-8")], "loss").empty
        assert len(queries_claims.claims(sample.db)) == len(sample.claim_ids)
        assert time.monotonic() - started < 5
        monkeypatch.setenv("ASSAY_LOCK_TIMEOUT", "0.5")
        from assay.store import _connection

        monkeypatch.setattr(_connection, "DEFAULT_LOCK_TIMEOUT_S", 0.5)
        with pytest.raises(DatabaseBusy):  # the control: a read-write open is blocked
            with _connection.connect(sample.db, timeout_s=0.5):
                pass
    finally:
        holder.kill()
        holder.wait()
    assert not math.isnan(queries_runs.run_summaries(sample.db, [dd.run_id("meg-gpt-8")])["tokens_per_s"][0])


def test_dashboard_sees_rows_written_after_it_started(tmp_path):
    db = tmp_path / "live.duckdb"
    write_rows(db, {"claims": [{"claim_id": "c1", "subject": "A", "metric": "throughput", "value": 1.0}]})
    assert queries_claims.claims_count(db) == 1
    write_rows(db, {"claims": [{"claim_id": "c2", "subject": "B", "metric": "throughput", "value": 2.0}]})
    assert queries_claims.claims_count(db) == 2
    assert Path(db).exists()
