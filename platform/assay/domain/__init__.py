"""The types the job side speaks, at the bottom of it: a parallel layout, a model's shape, a job's spec,
the placement a running job has, a job and its states.

Job control (:mod:`assay.jobs`), the training workers (:mod:`assay.training`), the scheduler's core
(:mod:`assay.scheduler`) and the live scheduler (:mod:`assay.live`) all pass these values to one another;
keeping them here, importing nothing of assay's but the base modules (errors, registry), is what lets each of
those packages depend on the domain and never on another in both directions (``tests/unit/test_layers.py``).

    from assay.domain import from_dict
    spec = from_dict({"model": "gpt-tiny", "steps": 10, "parallel": {"dp": 2}})   # a validated JobSpec
    spec.parallel.world_size, spec.model.heads
"""

from assay.domain.job import Job
from assay.domain.job_spec import JobSpec, SpecError, check_layout, from_dict, from_json, validate
from assay.domain.job_state import IllegalMove, JobState
from assay.domain.layout import DEGREES, Layout
from assay.domain.model_spec import ModelSpec, find_model, get_model, preset_names
from assay.domain.placement import Placement

__all__ = ["DEGREES", "IllegalMove", "Job", "JobSpec", "JobState", "Layout", "ModelSpec", "Placement", "SpecError",
           "check_layout", "find_model", "from_dict", "from_json", "get_model", "preset_names", "validate"]
