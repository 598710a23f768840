"""Resource planning for a whole pipeline: actor pools never take the CPUs a task stage needs, a request
that cannot fit is refused before anything runs, with the step named and the largest value that fits."""

from __future__ import annotations

import itertools

import pytest

from assay import Pipeline, operator
from assay.dsl import TASK_CPUS, PipelineError
from assay.dsl._resources import MIN_ACTOR_CPUS, plan_pools


@operator(requires=["text"], produces=["tags"], batch=True)
class Tagger:
    def __call__(self, records):
        return records


def readme_shaped(concurrency: int | None = 2, num_cpus: float | None = None) -> Pipeline:
    return Pipeline("p").then("read_paper").then(Tagger, concurrency=concurrency, num_cpus=num_cpus)


def worst_packing_leaves_a_task_slot(nodes: list[float], n: int, share: float) -> bool:
    """Place ``n`` actors of ``share`` CPUs in every order Ray might choose (first fit on each node order);
    True when every placement leaves some node ``TASK_CPUS`` free for a task."""
    for order in itertools.permutations(range(len(nodes))):
        free = list(nodes)
        for _ in range(n):
            target = next((i for i in order if free[i] + 1e-9 >= share), None)
            if target is None:
                return False  # the pool would not even start
            free[target] -= share
        if max(free) + 1e-9 < TASK_CPUS:
            return False
    return True


@pytest.mark.parametrize("nodes", [[1], [2], [1, 1], [2, 2], [4], [16], [1, 2, 4]])
@pytest.mark.parametrize("concurrency", [None, 1, 2, 3, 4])
def test_every_plan_that_is_accepted_leaves_reading_a_cpu(nodes, concurrency):
    try:
        (plan,) = plan_pools([("tag", concurrency, None)], nodes)
    except PipelineError:
        assert concurrency and concurrency * MIN_ACTOR_CPUS > sum(nodes) - TASK_CPUS * len(nodes) - 1e-9
        return
    assert MIN_ACTOR_CPUS <= plan.cpus_per_actor <= 1.0
    assert worst_packing_leaves_a_task_slot(nodes, plan.max_size, plan.cpus_per_actor)
    if concurrency:
        assert plan.min_size == plan.max_size == plan.initial_size == concurrency


def test_the_readme_example_on_a_two_cpu_laptop_gets_two_fractional_actors():
    (plan,) = readme_shaped().plan_resources([2])
    assert plan.max_size == 2 and plan.cpus_per_actor == pytest.approx(0.875)


def test_a_pool_that_sizes_itself_grows_to_the_cluster():
    assert plan_pools([("tag", None, None)], [16])[0].max_size == 16
    assert plan_pools([("tag", None, None)], [1, 1])[0].max_size == 2
    one = plan_pools([("tag", None, None)], [1])[0]
    assert (one.max_size, one.cpus_per_actor) == (1, 0.75)


def test_two_pools_share_each_node():
    a, b = plan_pools([("a", None, None), ("b", None, None)], [2])
    assert a.max_size * a.cpus_per_actor + b.max_size * b.cpus_per_actor <= 2 - TASK_CPUS + 1e-9


def test_an_impossible_concurrency_names_the_step_and_what_fits():
    with pytest.raises(PipelineError) as err:
        readme_shaped(concurrency=16).check(nodes=[2])
    message = str(err.value)
    assert "'tagger'" in message and "concurrency=16" in message and "at most 7" in message
    assert "lower concurrency to 7" in message


def test_a_fixed_cpu_share_that_does_not_fit_says_which_share_would():
    with pytest.raises(PipelineError) as err:
        readme_shaped(concurrency=2, num_cpus=1.0).check(nodes=[2])
    assert "num_cpus=1" in str(err.value) and "lower concurrency to 1 or num_cpus to 0.88" in str(err.value)


def test_check_without_a_cluster_checks_fields_only():
    readme_shaped(concurrency=64).check()  # no nodes given: nothing to plan against
    with pytest.raises(PipelineError, match="concurrency=0"):
        readme_shaped(concurrency=0).check(nodes=[2])
