"""The live scheduler on a Ray cluster of two GPU types (issue 31): two real nodes on this machine, each
labelled with its type as a custom resource (``gpu_type:a``, ``gpu_type:b``), CPU workers standing in for
GPUs. A policy registered here decides the job's type; when it switches the job to the other type, the
scheduler moves it (checkpoint, stop, restart in the other pool) and its steps carry on from the
checkpoint.

Why real services: placement binds to a pool only through Ray's placement groups asking for the node's
custom resource, which no fake shows, and a move is a real checkpoint and restart of real workers.
Cost on the shared 2-core machine: the job (two gang starts and 400 steps) takes ~20-30 s; the two labelled
nodes are the 1-CPU pair ``one_cpu_nodes`` that the two-node pipeline tests also run on (starting them took
10-15 s more). Joining two labelled nodes to the shared session instead failed: two raylets of one session
on one machine collide on a port.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
ray = pytest.importorskip("ray")

from assay.jobs import load_spec, submit  # noqa: E402
from assay.jobs._record import db_call  # noqa: E402
from assay.live.scheduler import LiveScheduler  # noqa: E402
from assay.scheduler.policies import Decision, register_policy  # noqa: E402
from assay.store import queries_jobs as _queries  # noqa: E402

pytestmark = pytest.mark.integration

STEPS = 400  # long enough (a few seconds of 0.5 s chunks) that the move lands before the job ends, even under load
MOVE_AFTER = 20


def q(name, *args):
    return db_call(getattr(_queries, name), *args)


class OneTypeAtATime:
    """Every job on one worker of ``self.gpu_type``; the test switches the type."""

    name = "test-one-type-at-a-time"

    def __init__(self):
        self.gpu_type = "a"

    def decide(self, jobs, cluster, now):
        assert set(cluster.types) == {"a", "b"}, cluster  # the scheduler sees both pools
        return {j.job_id: Decision(1, f"test: on {self.gpu_type}", gpu_type=self.gpu_type) for j in jobs}


@pytest.fixture
def jobs_db(tmp_path, monkeypatch):
    monkeypatch.setenv("ASSAY_JOBS_DIR", str(tmp_path / "jobs"))
    return tmp_path / "jobs.duckdb"


def test_a_job_moves_between_two_gpu_type_pools_with_its_steps_continuous(one_cpu_nodes, jobs_db):
    ray.init(address=one_cpu_nodes.address, log_to_driver=False)  # a 1-CPU node of type a, one of type b
    node_type = {n["NodeID"]: next(k for k in n["Resources"] if k.startswith("gpu_type:")).split(":")[1]
                 for n in ray.nodes() if n["Alive"]}
    assert sorted(node_type.values()) == ["a", "b"]

    policy = OneTypeAtATime()
    register_policy(policy.name, lambda **_: policy)
    db = jobs_db
    job_id = submit(load_spec("tiny", ["name=mover", f"steps={STEPS}", "checkpoint_every=50", "parallel=auto",
                                       "min_workers=1", "max_workers=1"]), db)

    def switch(sched, info):
        sup = sched.sups.get(job_id)
        if policy.gpu_type == "a" and sup is not None and sup.step >= MOVE_AFTER:
            policy.gpu_type = "b"

    sched = LiveScheduler(db, policy.name, worker_cpus=1.0, interval_s=0.3, min_change_s=0.5, on_round=switch)
    sched.run(until=lambda: q("job", db, job_id)["state"] in ("completed", "failed"), timeout_s=180)

    job = q("job", db, job_id)
    assert job["state"] == "completed", job["error"]
    # Every step recorded once, 1..STEPS: the move neither lost nor repeated one.
    steps = sorted(q("job_metrics", db, job_id, ["loss"]).step)
    assert steps == list(range(1, STEPS + 1))

    allocs = q("allocations", db, job_id)
    placed = allocs[allocs.workers > 0]
    assert placed.gpu_type.tolist() == ["a", "b"], placed[["workers", "gpu_type", "reason"]]
    assert placed.reason.iloc[0].startswith("start:")
    assert placed.reason.iloc[1].startswith("move: GPU type a -> b")
    # The workers really sat in each pool: the nodes in each allocation's plan are of its type.
    for _, row in placed.iterrows():
        assert {node_type[n] for n in json.loads(row.plan)["nodes"]} == {row.gpu_type}

    events = q("job_events", db, job_id)
    moved = events[(events.kind == "resize") & events.detail.str.contains("moved from GPU type a to b")]
    assert len(moved) == 1
    at = int(moved.step.iloc[0])
    assert MOVE_AFTER <= at < STEPS
    assert "checkpoint" in events[events.step == at].kind.tolist()  # it moved from a checkpoint of that step
