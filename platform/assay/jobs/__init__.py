"""Parallel-training jobs on Ray: GPT workloads with data, tensor and pipeline parallelism, elastic and
fault tolerant.

    from assay.jobs import load_spec, run, submit
    spec = load_spec("gpt-dp", ["steps=60"])
    run(spec)            # in the foreground, on the local or given Ray cluster
    submit(spec)         # for ``assay scheduler``; refused if it can never fit the cluster

Importing this package imports neither torch nor Ray; the workers and the supervisor do, when a job runs.
"""

from assay.jobs._admission import Capacity, admit, capacity
from assay.jobs.runner import (
    get_job,
    jobs_dir,
    request_cancel,
    request_resize,
    resume,
    run,
    submit,
    wait,
)
from assay.jobs.spec import JobSpec, Layout, ModelConfig, SpecError, builtin_names, load_spec, load_specs

__all__ = [
    "Capacity",
    "JobSpec",
    "Layout",
    "ModelConfig",
    "SpecError",
    "admit",
    "builtin_names",
    "capacity",
    "get_job",
    "jobs_dir",
    "load_spec",
    "load_specs",
    "request_cancel",
    "request_resize",
    "resume",
    "run",
    "submit",
    "wait",
]
