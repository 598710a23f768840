"""One Layout for job specs and the cost model: a spec stores only its degrees, the cost model its split."""

from assay.jobs.spec import from_dict, from_json
from assay.scheduler.layout import Layout
from assay.scheduler.model_spec import get_model


def test_a_job_spec_stores_only_the_parallel_degrees():
    spec = from_dict({"name": "t", "model": {"layers": 2, "hidden": 32, "heads": 4}, "steps": 4,
                      "parallel": {"dp": 2, "tp": 1, "pp": 2}})
    assert spec.to_dict()["parallel"] == {"dp": 2, "tp": 1, "pp": 2}
    assert from_json(spec.to_json()).parallel == Layout(dp=2, pp=2)
    assert str(spec.parallel) == "dp=2 tp=1 pp=2"


def test_a_layout_without_a_batch_split_cannot_be_estimated():
    model = get_model("gpt-tiny")
    assert Layout(dp=2).problems(model) == ["micro_batch_size must be at least 1", "global_batch must be at least 1"]
    assert Layout(dp=2, micro_batch_size=4, global_batch=32).problems(model) == []
    assert Layout(dp=2, tp=2, pp=2).world_size == 8
