"""Simulation results are keyed by what was run: the same simulation written twice leaves the rows of one
(its jobs and allocations replaced with it), another seed or policy is a result of its own."""

from __future__ import annotations

from assay.scheduler.simulator import simulate, write_result
from assay.scheduler.workloads import philly_workload
from assay.store.queries import sql


def _counts(db):
    return {t: int(sql(db, f"SELECT count(*) AS n FROM {t}")["n"].iloc[0])
            for t in ("sim_runs", "sim_jobs", "sim_allocations")}


def test_the_same_simulation_twice_leaves_the_rows_of_one(tmp_path):
    db = tmp_path / "sims.duckdb"
    first = write_result(simulate(philly_workload(4, seed=0), "fifo", gpus=8), db)
    once = _counts(db)
    assert once["sim_runs"] == 1 and once["sim_jobs"] == 4 and once["sim_allocations"] > 0
    again = write_result(simulate(philly_workload(4, seed=0), "fifo", gpus=8), db)
    assert again == first and _counts(db) == once
    other_seed = write_result(simulate(philly_workload(4, seed=1), "fifo", gpus=8), db)
    other_policy = write_result(simulate(philly_workload(4, seed=0), "tiresias", gpus=8), db)
    assert len({first, other_seed, other_policy}) == 3
    assert _counts(db)["sim_runs"] == 3 and _counts(db)["sim_jobs"] == 12
