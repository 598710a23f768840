"""Planning files in the driver while Ray starts: which pipelines qualify, and where the planner stops."""

from __future__ import annotations

import threading

from assay.dsl import Pipeline, operator
from assay.runtime._early import EarlyPlanner, planning_stage, plans_every_file


@operator(requires=["source_uri"], produces=["part"], planning=True, register=False)
def cut_in_two(record):
    if record["source_uri"].endswith("bad"):
        raise ValueError("cannot plan this file")
    return [{**record, "part": 0}, {**record, "part": 1}]


@operator(requires=["source_uri"], produces=["part"], register=False)
def cut_without_planning(record):
    return [{**record, "part": 0}]


@operator(requires=["part"], produces=["runs"], register=False)
class Parse:
    def __call__(self, record):
        return record


def test_only_a_leading_stage_of_planning_steps_runs_early():
    assert planning_stage(Pipeline("p").then(cut_in_two).then(Parse)).name == "cut_in_two"
    assert planning_stage(Pipeline("p").then(cut_without_planning).then(Parse)) is None
    # a planning step beside one that is not: the stage as a whole is not cheap
    assert planning_stage(Pipeline("p").then(cut_in_two).then(cut_without_planning).then(Parse)) is None
    # nothing after it: the planning step is the whole pipeline, and Ray runs it
    assert planning_stage(Pipeline("p").then(cut_in_two)) is None


def test_records_come_out_as_a_ray_task_would_yield_them_failures_included():
    on_last = threading.Event()

    @operator(requires=["source_uri"], produces=["part"], planning=True, register=False)
    def cut(record):
        if record["source_uri"] == "/c":
            on_last.set()
        return cut_in_two.impl(record)

    planner = EarlyPlanner(planning_stage(Pipeline("p").then(cut).then(Parse)), ["/a", "/b.bad", "/c"]).start()
    assert on_last.wait(10)  # Ray is up while the last file is being planned: it is finished
    planned = planner.finish()
    assert planned.left == []
    assert [(r["source_uri"], r["part"]) for r in planned.records if "_failure" not in r] == [
        ("/a", 0), ("/a", 1), ("/c", 0), ("/c", 1)]
    failures = [r["_failure"] for r in planned.records if "_failure" in r]
    assert [(f["source_uri"], f["operator"]) for f in failures] == [("/b.bad", "cut")]
    assert "cannot plan this file" in failures[0]["error"]
    assert all(r["_unit"] == r["source_uri"] for r in planned.records if "_failure" not in r)


def test_finishing_waits_for_the_file_being_planned_and_leaves_the_rest():
    reached, release = threading.Event(), threading.Event()

    @operator(requires=["source_uri"], produces=["part"], planning=True, register=False)
    def slow_on_b(record):
        if record["source_uri"] == "/b":
            reached.set()
            release.wait(10)
        return {**record, "part": 0}

    stage = planning_stage(Pipeline("p").then(slow_on_b).then(Parse))
    planner = EarlyPlanner(stage, ["/a", "/b", "/c", "/d"]).start()
    assert reached.wait(10)
    threading.Timer(0.2, release.set).start()  # Ray is up while /b is being planned
    planned = planner.finish()
    assert [r["source_uri"] for r in planned.records] == ["/a", "/b"]
    assert planned.left == ["/c", "/d"]


def test_a_planner_never_started_leaves_every_file():
    stage = planning_stage(Pipeline("p").then(cut_in_two).then(Parse))
    planned = EarlyPlanner(stage, ["/a", "/b"]).finish()
    assert planned.records == [] and planned.left == ["/a", "/b"]


def test_before_a_one_record_per_call_stage_the_driver_plans_every_file():
    # Only the driver can cut records one per block on Ray's public API: it plans them all, Ray up or not.
    assert plans_every_file(Pipeline("p").then(cut_in_two).then(Parse, batch_size=1))
    assert not plans_every_file(Pipeline("p").then(cut_in_two).then(Parse))
    assert not plans_every_file(Pipeline("p").then(cut_without_planning).then(Parse, batch_size=1))
    reached, release = threading.Event(), threading.Event()

    @operator(requires=["source_uri"], produces=["part"], planning=True, register=False)
    def slow_on_b(record):
        if record["source_uri"] == "/b":
            reached.set()
            release.wait(10)
        return {**record, "part": 0}

    stage = planning_stage(Pipeline("p").then(slow_on_b).then(Parse, batch_size=1))
    planner = EarlyPlanner(stage, ["/a", "/b", "/c"], every_file=True).start()
    assert reached.wait(10)
    threading.Timer(0.2, release.set).start()  # Ray is up while /b is being planned: /c is planned too
    planned = planner.finish()
    assert [r["source_uri"] for r in planned.records] == ["/a", "/b", "/c"] and planned.left == []
