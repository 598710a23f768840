"""What a person reads about a job: one job's state, last metrics and events (``assay jobs show``), and the
lines a foreground run prints as it goes and when it ends (``assay jobs run``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from assay.jobs._record import db_call
from assay.jobs.runner import PathLike, get_job
from assay.store import queries_jobs as q

#: The metrics ``describe_job`` reports the last value of.
SHOWN_METRICS = ("loss", "tokens_per_s")


@dataclass
class JobDescription:
    job: dict[str, Any]  # the ``jobs`` row without its spec
    last_metrics: list[tuple[str, float, int]] = field(default_factory=list)  # (name, value, step)
    checkpoints: int = 0
    last_checkpoint_step: int | None = None
    events: list[tuple[int, str, str]] = field(default_factory=list)  # (step, kind, detail), not checkpoints

    def lines(self) -> list[str]:
        """The text after the job's row: last metrics, checkpoints, then each event."""
        out = []
        if self.last_metrics:
            out.append("last: " + ", ".join(f"{n}={v:.4g} @ step {s}" for n, v, s in self.last_metrics))
        if self.checkpoints:
            out.append(f"{self.checkpoints} checkpoints, the last at step {self.last_checkpoint_step}")
        out += [f"event step {step}: {kind} {detail}" for step, kind, detail in self.events]
        return out


def describe_job(db: PathLike, job_id: str) -> JobDescription:
    """The job ``job_id`` (or a unique prefix of it; ``KeyError`` otherwise) with its last metrics, how many
    checkpoints it wrote and its other events."""
    job = get_job(db, job_id)
    described = JobDescription({k: v for k, v in job.items() if k != "spec"})
    metrics = db_call(q.job_metrics, db, job["job_id"], list(SHOWN_METRICS))
    if not metrics.empty:
        last = metrics.sort_values("step").groupby("name").tail(1)
        described.last_metrics = [(r.name, r.value, r.step) for r in last.itertuples()]
    events = db_call(q.job_events, db, job["job_id"])
    checkpoints = events[events.kind == "checkpoint"]
    if len(checkpoints):
        described.checkpoints, described.last_checkpoint_step = len(checkpoints), checkpoints.step.max()
    described.events = [(e.step, e.kind, e.detail or "") for e in events[events.kind != "checkpoint"].itertuples()]
    return described


def progress_printer(echo: Callable[[str], Any], every_s: float = 1.0) -> Callable[[Any, int, dict], None]:
    """An ``on_progress`` for :func:`assay.jobs.run` that prints a job's step, loss, throughput and layout at
    most once every ``every_s`` seconds, and always its last step."""
    last = [0.0]

    def progress(sup: Any, step: int, m: dict[str, float]) -> None:
        if time.monotonic() - last[0] < every_s and step < sup.spec.steps:
            return
        last[0] = time.monotonic()
        p = sup.placement
        echo(f"[{sup.job_id}] step {step:>5}/{sup.spec.steps}  loss {m['loss']:.4f}  "
             f"{m['tokens_per_s']:>9,.0f} tokens/s  {m['step_time_ms']:7.1f} ms/step  {p.layout if p else ''}")

    return progress


def outcome_line(sup: Any, seconds: float) -> str:
    """How a foreground run ended: state, step, time, last loss, failures, and where its log is."""
    return (f"{sup.job_id}: {sup.outcome} at step {sup.step}/{sup.spec.steps} in {seconds:.1f}s "
            f"(loss {sup.last_metrics.get('loss', float('nan')):.4f}, "
            f"failures {sup.job.attempts}); log {sup.recorder.log.path}")
