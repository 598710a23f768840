"""Parallel-training jobs on Ray: GPT workloads with data, tensor and pipeline parallelism, elastic and
fault tolerant.

    from assay.jobs import load_spec, run, submit
    spec = load_spec("gpt-dp", ["steps=60"])
    run(spec)            # in the foreground, on the local or given Ray cluster
    submit(spec)         # for ``assay scheduler``; refused if it can never fit the cluster
    describe_job(None, job_id).lines()   # what ``assay jobs show`` prints after the job's row

Importing this package imports neither torch nor Ray; the workers and the supervisor do, when a job runs.
"""

from assay.domain.job import Job
from assay.jobs._admission import Capacity, admit, capacity
from assay.jobs._report import JobDescription, describe_job, outcome_line, progress_printer
from assay.jobs.runner import (
    Submission,
    get_job,
    jobs_dir,
    load_job,
    request_cancel,
    request_resize,
    resume,
    run,
    submit,
    submit_all,
    wait,
)
from assay.jobs.spec import JobSpec, SpecError, builtin_names, load_spec, load_specs

__all__ = [
    "Capacity",
    "Job",
    "JobDescription",
    "JobSpec",
    "SpecError",
    "Submission",
    "admit",
    "builtin_names",
    "capacity",
    "describe_job",
    "get_job",
    "jobs_dir",
    "load_job",
    "load_spec",
    "load_specs",
    "outcome_line",
    "progress_printer",
    "request_cancel",
    "request_resize",
    "resume",
    "run",
    "submit",
    "submit_all",
    "wait",
]
