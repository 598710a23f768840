"""Layout planning for a worker count: the spec's layout when it fits, the planner's otherwise, always one the
workload can run, always the same global batch."""

from __future__ import annotations

from assay.jobs._layout import feasible_workers, plan
from assay.jobs.spec import check_layout, load_spec
from assay.scheduler.layout import Layout


def test_fixed_layout_is_used_at_its_own_size():
    spec = load_spec("gpt-3d")
    p = plan(spec, 8)
    assert p.layout == Layout(2, 2, 2) and p.source == "spec"
    assert p.micro_batch * p.num_micro * p.layout.dp == spec.global_batch


def test_replanning_keeps_model_parallelism_where_it_fits():
    spec = load_spec("gpt-3d")
    p = plan(spec, 4)
    assert p.workers == 4
    assert (p.layout.tp, p.layout.pp) == (2, 2)
    assert p.micro_batch * p.num_micro * p.layout.dp == spec.global_batch


def test_every_plan_is_runnable_and_preserves_the_global_batch():
    for name in ("gpt-dp", "gpt-3d", "gpt-auto", "tiny"):
        spec = load_spec(name)
        for workers in range(1, 9):
            if not feasible_workers(spec, workers) == workers:
                continue
            p = plan(spec, workers)
            check_layout(spec, p.layout, micro_batch=p.micro_batch)  # raises if not runnable
            assert p.layout.world_size == workers
            assert p.micro_batch * p.num_micro * p.layout.dp == spec.global_batch
            if p.bounds:
                assert p.bounds[0] == 0 and p.bounds[-1] == spec.model.layers and len(p.bounds) == p.layout.pp + 1


def test_feasible_workers_rounds_down_to_a_runnable_count():
    spec = load_spec("tiny")  # batch 8, 2 layers, 4 heads: 3 workers has no layout
    assert feasible_workers(spec, 3) == 2
    assert feasible_workers(spec, 4) == 4
    assert feasible_workers(spec, 0) == 0
