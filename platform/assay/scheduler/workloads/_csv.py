"""Workloads from CSV files: assay's own columns or AdaptDL's, told apart by the header.

assay: ``job_id, submit_time, num_gpus, duration, model`` and optionally ``batch_size, priority,
min_workers, max_workers``. AdaptDL (Pollux's artifact): ``name, time, application, num_replicas,
batch_size``; each job trains its application's full number of epochs, and NCF jobs are held at batch
32768 on one GPU as in Pollux's simulator. A row that cannot be read is reported in ``Workload.issues``
and skipped; the rest of the file still loads.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

from assay.errors import AssayError
from assay.scheduler.workloads._profiles import DATA_DIR
from assay.scheduler.workloads._trace import TraceJob, Workload

ADAPTDL_COLUMNS = ("name", "time", "application", "num_replicas", "batch_size")
ASSAY_COLUMNS = ("job_id", "submit_time", "num_gpus", "duration", "model")
ADAPTDL_WORKLOADS = DATA_DIR / "adaptdl" / "workloads"
NCF_BATCH = 32768


class WorkloadError(AssayError, ValueError):
    """The file as a whole cannot be a workload (missing, or a header with neither known layout)."""

    code = "E072"


def load_workload(path: str | Path, *, profiles_dir: str | Path | None = None, name: str | None = None) -> Workload:
    path = Path(path)
    if not path.is_file():
        raise WorkloadError(f"workload file {path} does not exist")
    with path.open(newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        header = [h.strip() for h in (reader.fieldnames or [])]
        reader.fieldnames = header
        rows = list(reader)
    if all(c in header for c in ADAPTDL_COLUMNS):
        jobs, issues = _adaptdl_rows(rows)
        kind = "adaptdl"
    elif all(c in header for c in ASSAY_COLUMNS):
        jobs, issues = _assay_rows(rows)
        kind = "csv"
    else:
        raise WorkloadError(f"{path}: header {header} has neither assay's columns ({', '.join(ASSAY_COLUMNS)}) "
                            f"nor AdaptDL's ({', '.join(ADAPTDL_COLUMNS)})")
    return Workload(name or path.stem, jobs, issues, Path(profiles_dir) if profiles_dir else None, kind)


def adaptdl_workload(number: int) -> Workload:
    """One of the eight packaged AdaptDL workloads (160 jobs each), named ``adaptdl/workload-N``."""
    path = ADAPTDL_WORKLOADS / f"workload-{number}.csv"
    if not path.exists():
        raise WorkloadError(f"there is no AdaptDL workload {number}; choose 1..8")
    return load_workload(path, name=f"adaptdl/workload-{number}")


def _number(row: dict, key: str, line: int, *, integer: bool = False, positive: bool = True,
            optional: bool = False) -> float | int | None:
    raw = (row.get(key) or "").strip()
    if raw == "":
        if optional:
            return None
        raise ValueError(f"line {line}: {key} is empty")
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"line {line}: {key} is not a number: {raw!r}") from None
    if not math.isfinite(value) or value < 0 or (positive and value <= 0):
        raise ValueError(f"line {line}: {key} must be {'positive' if positive else 'non-negative'}, got {raw}")
    if integer:
        if value != int(value):
            raise ValueError(f"line {line}: {key} must be a whole number, got {raw}")
        return int(value)
    return value


def _text(row: dict, key: str, line: int) -> str:
    value = (row.get(key) or "").strip()
    if not value:
        raise ValueError(f"line {line}: {key} is empty")
    return value


def _assay_rows(rows: list[dict]) -> tuple[list[TraceJob], list[str]]:
    jobs: list[TraceJob] = []
    issues: list[str] = []
    seen: set[str] = set()
    for line, row in enumerate(rows, start=2):
        try:
            job_id = _text(row, "job_id", line)
            if job_id in seen:
                raise ValueError(f"line {line}: job_id {job_id!r} repeats an earlier row")
            min_workers = _number(row, "min_workers", line, integer=True, optional=True) or 1
            max_workers = _number(row, "max_workers", line, integer=True, optional=True)
            if max_workers is not None and max_workers < min_workers:
                raise ValueError(f"line {line}: max_workers {max_workers} is below min_workers {min_workers}")
            priority = _number(row, "priority", line, integer=True, positive=False, optional=True) or 0
            jobs.append(TraceJob(
                job_id=job_id,
                submit_time=float(_number(row, "submit_time", line, positive=False)),
                model=_text(row, "model", line),
                num_gpus=int(_number(row, "num_gpus", line, integer=True)),
                duration=float(_number(row, "duration", line)),
                batch_size=_number(row, "batch_size", line, integer=True, optional=True),
                priority=int(priority),
                min_workers=int(min_workers),
                max_workers=max_workers,
            ))
            seen.add(job_id)
        except ValueError as exc:
            issues.append(str(exc))
    return jobs, issues


def _adaptdl_rows(rows: list[dict]) -> tuple[list[TraceJob], list[str]]:
    jobs: list[TraceJob] = []
    issues: list[str] = []
    seen: set[str] = set()
    for line, row in enumerate(rows, start=2):
        try:
            name = _text(row, "name", line)
            if name in seen:
                raise ValueError(f"line {line}: name {name!r} repeats an earlier row")
            app = _text(row, "application", line)
            ncf = app == "ncf"
            jobs.append(TraceJob(
                job_id=name,
                submit_time=float(_number(row, "time", line, positive=False)),
                model=app,
                num_gpus=int(_number(row, "num_replicas", line, integer=True)),
                batch_size=int(_number(row, "batch_size", line, integer=True)),
                max_workers=1 if ncf else None,
                fixed_batch=NCF_BATCH if ncf else None,
            ))
            seen.add(name)
        except ValueError as exc:
            issues.append(str(exc))
    return jobs, issues
