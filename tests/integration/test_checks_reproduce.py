"""A claim reproduced end to end on real Ray: the claim row in DuckDB, its two layouts as gloo jobs in the
queue, the live scheduler running them while one of their worker processes is killed, and the verdict row in
``claim_checks``."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

pytest.importorskip("torch")
pytest.importorskip("ray")

from assay.checks import ClaimSetting  # noqa: E402
from assay.checks._reproduce import reproduce  # noqa: E402
from assay.checks._sweep import WARMUP_STEPS  # noqa: E402
from assay.store import write_rows  # noqa: E402
from assay.store.queries import sql  # noqa: E402
from assay.store.queries_checks import checks_of  # noqa: E402
from assay.store.queries_jobs import job_events, job_metrics  # noqa: E402

pytestmark = pytest.mark.integration

STEPS = 16

# Our own sentence, written for this test.
CLAIM = {
    "claim_id": "claim-pp-over-tp-tiny", "doc_id": "doc-repro-test", "subject": "pipeline parallelism",
    "versus": "tensor parallelism", "metric": "training throughput", "value": 1.2, "unit": "x",
    "text": "pipeline parallelism trains gpt-tiny 1.2x faster than tensor parallelism on 2 workers",
    "measure": "throughput", "direction": "higher", "gpus": 2, "model": "gpt-tiny",
}


class KillOnce:
    """Kills one worker process of the first job that has trained a few steps, from inside a scheduler
    round (as a worker dying under a running job), once."""

    def __init__(self, after_step: int = 4):
        self.after_step = after_step
        self.killed: tuple[str, int] | None = None

    def __call__(self, sched, info) -> None:
        if self.killed is not None:
            return
        for job_id, sup in sched.sups.items():
            if sup.gang is not None and sup.outcome is None and self.after_step <= sup.step < STEPS - 4:
                victim = sup.gang.pids[-1]
                os.kill(victim, signal.SIGKILL)
                self.killed = (job_id, victim)
                return


def test_a_layout_claim_is_reproduced_through_the_live_scheduler_despite_a_killed_worker(ray_local, tmp_path,
                                                                                       monkeypatch):
    monkeypatch.setenv("ASSAY_JOBS_DIR", str(tmp_path / "jobs"))
    db = tmp_path / "claims.duckdb"
    write_rows(db, {"claims": [CLAIM]})
    row = sql(db, "SELECT * FROM claims WHERE claim_id = ?", [CLAIM["claim_id"]]).iloc[0].to_dict()
    setting = ClaimSetting.from_row(row)
    kill = KillOnce()
    lines: list[str] = []

    started = time.monotonic()
    # One round: this test is about a worker lost under a running job (rounds: tests/unit/test_checks_sweep.py).
    check = reproduce(db, setting, steps=STEPS, models=["gpt-tiny"], timeout_s=240, echo=lines.append,
                      on_round=kill, min_rounds=1, max_rounds=1)
    took = time.monotonic() - started
    print("\n".join(lines), f"\nreproduction took {took:.1f}s")
    write_rows(db, {"claim_checks": [check.row()]}, upsert=["claim_checks"])

    assert check.kind == "reproduction"
    assert check.verdict in ("consistent", "contradicted", "inconclusive"), check.reason
    assert check.claimed == pytest.approx(1.2) and check.unit == "x"
    assert check.low <= check.observed <= check.high
    assert "Scaled-down reproduction" in check.reason and "gpt-tiny" in check.reason

    jobs = {j["side"]: j for j in check.evidence["jobs"]}
    assert set(jobs) == {"subject", "baseline"}
    assert (jobs["subject"]["pp"], jobs["subject"]["tp"]) == (2, 1)
    assert (jobs["baseline"]["pp"], jobs["baseline"]["tp"]) == (1, 2)
    for j in jobs.values():
        assert j["state"] == "completed" and j["run_id"]
        # Warm-up steps are always left out; outlier steps (a checkpoint write, a busy neighbour on a loaded
        # 2-core CI machine) vary run to run, but most of the run is still measured.
        assert j["tokens_per_s"] > 0 and STEPS // 2 <= j["steps_measured"] <= STEPS - WARMUP_STEPS
        steps = job_metrics(db, j["job_id"], ["step_time_ms"]).step.tolist()
        assert sorted(steps) == list(range(1, STEPS + 1)), "each step once, the re-run ones included"
    measured = check.evidence["measured"]["gpt-tiny"]
    assert check.observed == pytest.approx(measured["subject_tokens_per_s"] / measured["baseline_tokens_per_s"])
    assert check.evidence["extrapolated_ratio"] > 0
    assert check.evidence["extrapolation"]["fit"]["n_runs"] == 2

    # The killed job restarted from its checkpoint and still finished.
    assert kill.killed is not None, "no worker was killed: the jobs ended before a round saw them train"
    killed_job, victim = kill.killed
    killed = next(j for j in jobs.values() if j["job_id"] == killed_job)
    assert killed["attempts"] == 1 and killed["restarts"]
    events = job_events(db, killed_job)
    assert {"failure", "restart"} <= set(events.kind)
    assert str(victim) in events[events.kind == "failure"].detail.iloc[0] or "rank" in events.detail.iloc[0]
    assert "lost a worker" in check.reason

    stored = checks_of(db, CLAIM["claim_id"])
    assert stored.kind.tolist() == ["reproduction"] and stored.verdict.iloc[0] == check.verdict
    evidence = stored.evidence.iloc[0]
    evidence = evidence if isinstance(evidence, dict) else json.loads(evidence)
    assert {j["job_id"] for j in evidence["jobs"]} == {j["job_id"] for j in jobs.values()}
