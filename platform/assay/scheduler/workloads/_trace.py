"""What a workload is: jobs with a submission time, a model and what their user asked for."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class TraceJob:
    """One job of a workload trace (a row of its CSV), not a training job spec (that is ``assay.jobs.JobSpec``).

    ``num_gpus``/``batch_size``: what the user asked for (fifo and tiresias run the job so). ``duration``:
    seconds the job runs at that size when alone; None means "the profile's full number of epochs" (the
    AdaptDL workloads). ``max_workers``/``fixed_batch`` bound what an elastic policy may choose.
    """

    job_id: str
    submit_time: float
    model: str
    num_gpus: int
    duration: float | None = None
    batch_size: int | None = None
    priority: int = 0
    min_workers: int = 1
    max_workers: int | None = None
    fixed_batch: int | None = None


@dataclass
class Workload:
    """Jobs sorted by submission time, the rows that could not be read (``issues``), and where the
    per-application profiles come from (None: the packaged ones)."""

    name: str
    jobs: list[TraceJob]
    issues: list[str] = field(default_factory=list)
    profiles_dir: Path | None = None
    kind: str = "csv"

    def __post_init__(self) -> None:
        self.jobs = sorted(self.jobs, key=lambda j: j.submit_time)

    def __len__(self) -> int:
        return len(self.jobs)
