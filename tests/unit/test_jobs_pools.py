"""Node pools by GPU type from Ray's node resources (issue 31), without a cluster: which type each node is,
the slots of each pool, a worker bound to one pool, admission judged by the largest pool, and the live
scheduler's acting step on a cluster of two types (a start on the decided type, a move, per-type room)."""

from __future__ import annotations

import time

import pytest

from assay.domain import Job
from assay.jobs import SpecError, load_spec, submit
from assay.jobs._admission import pooled_capacity
from assay.jobs._gang import WorkerShape
from assay.jobs._pools import on_largest_pool
from assay.jobs.control import node_slots, pool_slots, read_pools, shape_on
from assay.jobs.runner import new_job
from assay.live.scheduler import LiveScheduler
from assay.scheduler.policies import Decision
from assay.store import queries_jobs as q

# Two labelled pools as `ray start --resources '{"gpu_type:a100": 4}'` makes them, and an unlabelled head.
A100 = {"CPU": 8.0, "GPU": 4.0, "gpu_type:a100": 4.0, "memory": 1e9}
T4 = {"CPU": 8.0, "GPU": 2.0, "gpu_type:t4": 2.0}
HEAD = {"CPU": 4.0}
GPU_SHAPE = WorkerShape(cpus=1.0, gpus=1.0)


def test_each_node_has_the_type_of_its_gpu_type_resource():
    pools = read_pools([A100, T4, HEAD])
    assert pools.node_types == ("a100", "t4", None)
    assert pools.types == ("a100", "t4") and pools.typed
    assert pool_slots(GPU_SHAPE, pools, [A100, T4, HEAD]) == {"a100": 4, "t4": 2}
    # A node without a type holds no scheduler workers on a typed cluster (its CPUs would fit 4).
    assert node_slots(WorkerShape(cpus=1.0), pools, [A100, T4, HEAD]) == [4, 2, 0]


def test_rays_own_accelerator_type_names_the_pools_when_no_node_is_labelled():
    v100 = {"CPU": 16.0, "GPU": 8.0, "accelerator_type:V100": 1.0}
    a10g = {"CPU": 16.0, "GPU": 4.0, "accelerator_type:A10G": 1.0}
    pools = read_pools([v100, a10g])
    assert pools.types == ("V100", "A10G")
    assert pool_slots(GPU_SHAPE, pools, [v100, a10g]) == {"V100": 8, "A10G": 4}
    bound = shape_on(GPU_SHAPE, pools, "A10G")
    assert bound.bundle() == {"CPU": 1.0, "GPU": 1.0, "accelerator_type:A10G": 0.001}
    assert bound.gpu_type == "A10G"


@pytest.mark.parametrize("nodes", [[HEAD, HEAD], [A100, {**A100}], [A100, HEAD]],
                         ids=["no-labels", "one-type", "one-type-and-an-unlabelled-node"])
def test_a_cluster_of_one_type_is_scheduled_as_before(nodes):
    pools = read_pools(nodes)
    assert not pools.typed
    shape = WorkerShape(cpus=1.0)
    assert shape_on(shape, pools, "a100") == shape  # nothing more asked of Ray than CPUs (and GPUs)
    assert node_slots(shape, pools, nodes) == [shape.fit(n) for n in nodes]
    assert list(pool_slots(shape, pools, nodes)) == [None]


def test_a_worker_bound_to_a_pool_asks_for_its_type_and_fits_only_there():
    pools = read_pools([A100, T4])
    bound = shape_on(GPU_SHAPE, pools, "t4")
    assert bound.bundle() == {"CPU": 1.0, "GPU": 1.0, "gpu_type:t4": 1.0}
    assert bound.fit(T4) == 2 and bound.fit(A100) == 0
    with pytest.raises(ValueError, match="no node pool of GPU type 'h100'; the cluster has a100, t4"):
        shape_on(GPU_SHAPE, pools, "h100")


def test_admission_judges_a_job_by_the_largest_pool_it_can_run_in(tmp_path):
    """Six GPUs in all, but a job runs on one type: four at most. Through the public submit."""
    nodes = [A100, T4]
    cap = pooled_capacity(GPU_SHAPE, nodes, {"CPU": 16.0, "GPU": 6.0})
    assert cap.slots == 4 and cap.pools == (("a100", 4), ("t4", 2))
    db = tmp_path / "pools.duckdb"
    with pytest.raises(SpecError) as info:
        submit(load_spec("gpt-3d", ["min_workers=6", "max_workers=8"]), db, capacity=cap)
    text = str(info.value)
    assert "6 workers can never fit" in text and "largest of 2 GPU-type pools" in text and "a100: 4, t4: 2" in text
    job_id = submit(load_spec("gpt-3d", ["min_workers=4"]), db, capacity=cap)
    assert q.job(db, job_id)["state"] == "queued"


# -- the live scheduler's acting step on two pools -------------------------------------------------------
class FakeSupervisor:
    placement = gang = None  # not measured yet: what the scheduler's views read of a supervisor
    recent_step_ms: tuple = ()

    def __init__(self, workers: int, gpu_type: str):
        self.allocated = workers
        self.gpu_type = gpu_type
        self.done = False
        self.outcome = None
        self.calls: list[tuple] = []

    def resize(self, workers, reason, source="runner"):
        self.calls.append(("resize", workers))

    def move(self, shape, workers, reason, source="runner"):
        self.calls.append(("move", shape.gpu_type, workers, shape.bundle()))

    def stop(self, kind, reason, source="runner"):
        self.calls.append((kind,))


@pytest.fixture
def sched(tmp_path, monkeypatch):
    """Two nodes of two CPUs each, one ``gpu_type:a``, one ``gpu_type:b``; one CPU per worker."""
    s = LiveScheduler(tmp_path / "db.duckdb", "goodput", worker_cpus=1.0, min_change_s=10.0)
    nodes = [{"CPU": 2.0, "gpu_type:a": 2.0}, {"CPU": 2.0, "gpu_type:b": 2.0}]
    s._pools, s._node_types, s._shape = read_pools(nodes), ("a", "b"), WorkerShape(cpus=1.0)
    s.started = []
    monkeypatch.setattr(s, "_start", lambda row, workers, reason, gpu_type=None:
                        s.started.append((row.job_id, workers, gpu_type)))
    monkeypatch.setattr(s, "_record_wait", lambda row, reason: None)
    return s


def _row(name: str) -> Job:
    return new_job(load_spec("tiny", [f"name={name}", "parallel=auto", "min_workers=1", "max_workers=2"]))


def _running(sched, row, workers: int, gpu_type: str) -> FakeSupervisor:
    sup = sched.sups[row.job_id] = FakeSupervisor(workers, gpu_type)
    sched._track(row).changed_at = time.monotonic() - 100
    return sup


def _apply(sched, rows, decisions):
    return sched._apply(rows, decisions, total=4, capacity=(2, 2))


def test_a_job_starts_in_the_pool_the_policy_chose(sched):
    a = _row("a")
    lines = _apply(sched, [a], {a.job_id: Decision(2, "p", gpu_type="b")})
    assert sched.started == [(a.job_id, 2, "b")]
    assert "of type b" in lines[0]


def test_a_policy_that_only_places_puts_the_job_on_the_type_of_its_nodes(sched):
    a = _row("a")
    _apply(sched, [a], {a.job_id: Decision(1, "fifo", placement=(1,))})
    assert sched.started == [(a.job_id, 1, "b")]


def test_a_running_job_decided_onto_another_type_moves_there(sched):
    a = _row("a")
    sup = _running(sched, a, 2, "a")
    lines = _apply(sched, [a], {a.job_id: Decision(2, "faster on b", gpu_type="b")})
    assert sup.calls == [("move", "b", 2, {"CPU": 1.0, "gpu_type:b": 1.0})]
    assert lines[0].startswith(f"move {a.job_id} from a (2 workers) to b (2 workers)")


def test_free_workers_are_counted_per_type(sched):
    """Pool b is full: a move there waits, and so does a start there, though pool a has room."""
    a, b, c = _row("a"), _row("b"), _row("c")
    sup_a = _running(sched, a, 1, "a")
    _running(sched, b, 2, "b")
    _apply(sched, [a, b, c], {a.job_id: Decision(1, "to b", gpu_type="b"),
                              b.job_id: Decision(2, "keep", gpu_type="b"),
                              c.job_id: Decision(1, "start on b", gpu_type="b")})
    assert sup_a.calls == [] and sched.started == []
    _apply(sched, [a, b, c], {a.job_id: Decision(1, "stay", gpu_type="a"),
                              b.job_id: Decision(2, "keep", gpu_type="b"),
                              c.job_id: Decision(1, "start on a", gpu_type="a")})
    assert sched.started == [(c.job_id, 1, "a")]


def test_the_goodput_policy_chooses_a_type_for_each_job_from_the_live_views(sched):
    """The scheduler's own views on a two-type cluster go to the typed goodput policy, whose (type,
    workers) the acting step carries out, each job in the pool chosen for it."""
    from assay.scheduler.policies import ClusterView

    rows = [_row("x"), _row("y")]
    cluster = ClusterView(capacity=(2, 2), node_types=sched._node_types)
    views = [sched._view(row, cluster) for row in rows]
    assert all(v.type_speed == {"a": 1.0, "b": 1.0} and v.gpu_type is None for v in views)
    decisions = sched.policy.decide(views, cluster, time.time())
    assert {d.gpu_type for d in decisions.values()} <= {"a", "b"}
    _apply(sched, rows, decisions)
    started = {job_id: (workers, gpu_type) for job_id, workers, gpu_type in sched.started}
    assert set(started) == {r.job_id for r in rows}
    for job_id, (workers, gpu_type) in started.items():
        assert gpu_type == decisions[job_id].gpu_type and workers == decisions[job_id].workers


def test_a_job_larger_than_every_pool_waits_for_the_pools_to_grow(sched):
    """Four slots in all, two per type: a job of at least three workers can never start here, and says so
    in the words of the pools, not of the whole cluster."""
    big = new_job(load_spec("gpt-3d", ["name=big", "parallel=auto", "min_workers=4", "max_workers=8"]))
    recorded = []
    sched._record_wait = lambda row, reason: recorded.append(reason)
    lines = _apply(sched, [big], {big.job_id: Decision(0, "p: too big")})
    assert recorded and recorded[0].startswith("needs 4 workers, its largest GPU-type pool has 2: cannot start")
    assert lines == [f"wait {big.job_id}: {recorded[0]}"]


def test_a_job_nobody_placed_runs_in_the_pool_that_holds_most_of_its_workers():
    """``assay jobs run`` on a mixed cluster: bound to one pool (the A100s hold 4 one-GPU workers, the T4s
    2), never straddling both; on a one-type cluster the shape is left as it was."""
    bound = on_largest_pool(GPU_SHAPE, [T4, A100, HEAD])
    assert bound.gpu_type == "a100" and bound.bundle()["gpu_type:a100"] == 1.0
    assert on_largest_pool(GPU_SHAPE, [A100, HEAD]) == GPU_SHAPE


def test_the_goodput_policy_keeps_a_running_job_where_it_is_on_types_it_cannot_tell_apart(sched):
    """A job running on pool a, with nothing known that makes b faster: no move (each costs a restart)."""
    from assay.scheduler.policies import ClusterView

    a = _row("a")
    sup = _running(sched, a, 1, "a")
    cluster = ClusterView(capacity=(2, 2), node_types=sched._node_types)
    for _ in range(3):
        view = sched._view(a, cluster)
        assert view.gpu_type == "a" and view.workers == 1
        decisions = sched.policy.decide([view], cluster, time.time())
        assert decisions[a.job_id].gpu_type == "a"
        _apply(sched, [a], decisions)
    assert not [c for c in sup.calls if c[0] == "move"]
