"""Recording a job: its rows in the database (jobs, runs, metrics, events, allocations) and its plain-text
log in Megatron-LM's format.

The database file is shared with the dashboard and pipelines, so every write is one short transaction
(``assay.store.write_rows``), metrics are buffered and flushed about once a second, and a database held by
someone else delays the flush instead of failing the run. Writes from the threads of one process are
serialised by a lock, since DuckDB refuses a second connection of another kind from the same process.
"""

from __future__ import annotations

import json
import logging
import math
import os
import socket
import threading
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from assay.clock import utc_now
from assay.domain.job import Job
from assay.domain.job_spec import JobSpec
from assay.domain.placement import Placement
from assay.store import DatabaseBusy, rewind_run, write_rows
from assay.store.job_state import job_to_row

log = logging.getLogger(__name__)

#: One lock per process around database access: see the module docstring.
DB_LOCK = threading.RLock()
FLUSH_EVERY_S = 1.0




def owner_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def owner_alive(owner: str | None, heartbeat_at: datetime | None, stale_s: float = 60.0) -> bool:
    """Whether the process named ``owner`` (``host:pid``) still runs its jobs: its pid is alive when it is
    on this host, and its heartbeat is recent in any case."""
    if not owner:
        return False
    host, _, pid = owner.rpartition(":")
    if host == socket.gethostname() and pid.isdigit():
        # On this machine the process table is the truth; the heartbeat is for drivers elsewhere.
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True
    if heartbeat_at is None:
        return False
    return (utc_now() - heartbeat_at).total_seconds() < stale_s


def db_call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with DB_LOCK:
        return fn(*args, **kwargs)


def run_row(run_id: str, job: Job, spec: JobSpec, placement: Placement | None, status: str, log_path: Path,
            hardware: str) -> dict[str, Any]:
    """The ``runs`` row of a job's run as it stands (``status``: running, or how it ended), so the job's
    training shows beside every parsed log."""
    p, m = placement, spec.model
    return {
        "run_id": run_id, "source_uri": str(log_path), "framework": "assay",
        "status": status, "model": f"gpt-{m.layers}l-{m.hidden}h", "job_id": job.job_id,
        "world_size": p.workers if p else None, "dp": p.layout.dp if p else None,
        "tp": p.layout.tp if p else None, "pp": p.layout.pp if p else None,
        "micro_batch_size": p.micro_batch if p else None, "global_batch_size": spec.global_batch,
        "started_at": job.started_at, "ended_at": utc_now() if status != "running" else None,
        "hardware": hardware,
        "config": json.dumps({"spec": spec.to_dict(), "plan": p.to_dict() if p else None},
                             sort_keys=True, default=str),
    }


class MegatronLog:
    """A training log in Megatron-LM's plain-text format, so assay's logs pipeline reads it like any other."""

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)

    def _write(self, text: str) -> None:
        with open(self.path, "a") as fh:
            fh.write(text)

    def header(self, world: int, dp: int, tp: int, pp: int, spec: Any, micro_batch: int) -> None:
        m = spec.model
        self._write(
            f"using world size: {world}, data-parallel size: {dp}, context-parallel size: 1, "
            f"tensor-model-parallel size: {tp}, pipeline-model-parallel size: {pp}\n"
            "------------------------ arguments ------------------------\n"
            f"  num_layers ...................................... {m.layers}\n"
            f"  hidden_size ..................................... {m.hidden}\n"
            f"  num_attention_heads ............................. {m.heads}\n"
            f"  seq_length ...................................... {m.seq_len}\n"
            f"  padded_vocab_size ............................... {m.vocab}\n"
            f"  micro_batch_size ................................ {micro_batch}\n"
            f"  global_batch_size ............................... {spec.global_batch}\n"
            f"  train_iters ..................................... {spec.steps}\n"
            f"  lr .............................................. {spec.lr}\n"
            f"  seed ............................................ {spec.seed}\n"
            "-------------------- end of arguments ---------------------\n"
        )

    def loaded(self, path: Path, step: int, tp: int, pp: int) -> None:
        self._write(f"successfully loaded checkpoint from {path} [ t {tp}, p {pp} ] at iteration {step}\n")

    def saved(self, path: Path, step: int) -> None:
        self._write(f"saving checkpoint at iteration {step:8d} to {path}\n"
                    f"  successfully saved checkpoint at iteration {step:8d} to {path}\n")

    def restarting(self, step: int, why: str) -> None:
        self._write(f"Restarting worker group from the checkpoint at iteration {step}: {why}\n")

    def done(self) -> None:
        self._write("[after training is done]\n")

    def note(self, text: str) -> None:
        self._write(text.rstrip("\n") + "\n")

    def iteration(self, step: int, total: int, m: Mapping[str, float], global_batch: int) -> None:
        loss = m.get("loss", float("nan"))
        nan = 1 if isinstance(loss, float) and math.isnan(loss) else 0
        self._write(
            f" iteration {step:8d}/{total:8d} | consumed samples: {step * global_batch:12d} | "
            f"elapsed time per iteration (ms): {m.get('step_time_ms', 0.0):.1f} | "
            f"learning rate: {m.get('lr', 0.0):.6E} | global batch size: {global_batch:5d} | "
            f"lm loss: {loss:.6E} | loss scale: 1.0 | grad norm: {m.get('grad_norm', 0.0):.3f} | "
            f"number of skipped iterations: {0:3d} | number of nan iterations: {nan:3d} |\n"
        )


class Recorder:
    """A job's writes. ``job`` is the :class:`Job` its supervisor carries through its transitions; each flush
    writes a snapshot of it as its row (its heartbeat). Metrics are buffered."""

    def __init__(self, db: str | os.PathLike[str] | None, job: Job, run_id: str, log_path: Path):
        self.db = db
        self.job = job
        self.run_id = run_id
        self.log = MegatronLog(log_path)
        self._buffer: list[dict[str, Any]] = []
        self._pending: dict[str, list[dict[str, Any]]] = {}
        self._last_flush = 0.0
        self._lock = threading.Lock()

    # -- rows --------------------------------------------------------------------------------------------
    def metrics(self, step: int, values: Mapping[str, float], ts: float | None = None) -> None:
        at = datetime.fromtimestamp(ts, UTC).replace(tzinfo=None) if ts else utc_now()
        with self._lock:
            for name, value in values.items():
                self._buffer.append({"run_id": self.run_id, "step": step, "name": name,
                                     "value": float(value), "rank": 0, "ts": at})

    def event(self, kind: str, step: int, detail: str) -> None:
        self._queue("events", {"run_id": self.run_id, "step": step, "kind": kind, "detail": detail, "ts": utc_now()})
        self.flush(force=True)

    def allocation(self, workers: int, plan: Mapping[str, Any] | None, reason: str, source: str) -> None:
        self._queue("allocations", {"job_id": self.job.job_id, "at": utc_now(), "workers": workers,
                                    "plan": json.dumps(plan, sort_keys=True, default=str) if plan else None,
                                    "reason": reason, "source": source,
                                    # the node pool its workers are bound to (None on a one-type cluster)
                                    "gpu_type": self.job.gpu_type})

    def run_row(self, row: Mapping[str, Any]) -> None:
        self._queue("runs", dict(row))

    def _queue(self, table: str, row: dict[str, Any]) -> None:
        with self._lock:
            self._pending.setdefault(table, []).append(row)

    # -- writing -----------------------------------------------------------------------------------------
    def flush(self, force: bool = False) -> bool:
        """Write buffered rows and the job's row (its heartbeat) if due; False if the database stayed busy
        (the rows stay buffered for the next flush)."""
        if not force and time.monotonic() - self._last_flush < FLUSH_EVERY_S:
            return True
        # Snapshot and write under one lock: two flushes (the supervisor's and its heartbeat's) must not
        # land an older snapshot of the job's row after a newer one.
        with DB_LOCK:
            return self._flush()

    def flush_final(self, timeout_s: float = 120.0, wait_s: float = 1.0) -> bool:
        """Flush until written: a job's last rows (its final state) must land, or its row would read
        ``running`` under a live owner for as long as that driver lives. False if the database stayed busy
        for ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while not self.flush(force=True):
            if time.monotonic() > deadline:
                log.error("job %s: its final state could not be written in %.0fs", self.job.job_id, timeout_s)
                return False
            time.sleep(wait_s)
        return True

    def _flush(self) -> bool:
        with self._lock:
            metrics, pending = self._buffer, self._pending
            self._buffer, self._pending = [], {}
        self.job.beat(utc_now())
        tables: dict[str, Any] = {**pending, "jobs": [job_to_row(self.job)]}
        if metrics:
            tables["metrics"] = metrics
        try:
            write_rows(self.db, tables, upsert=["jobs", "runs"])
        except DatabaseBusy as exc:
            log.warning("job %s: database busy, keeping %d rows for the next flush: %s",
                        self.job.job_id, len(metrics), exc)
            with self._lock:
                self._buffer = metrics + self._buffer
                for table, rows in pending.items():
                    self._pending[table] = rows + self._pending.get(table, [])
            return False
        self._last_flush = time.monotonic()
        return True

    def rewind(self, step: int, kind: str, detail: str) -> None:
        """Forget metrics after ``step`` (buffered or written) and record ``kind`` (a restart) at ``step``,
        in one transaction: the steps after the checkpoint run again and are recorded once."""
        with DB_LOCK:  # no flush may slip between the snapshot and the delete
            with self._lock:
                metrics = [r for r in self._buffer if r["step"] <= step]
                pending = self._pending
                self._buffer, self._pending = [], {}
            pending.setdefault("events", []).append(
                {"run_id": self.run_id, "step": step, "kind": kind, "detail": detail, "ts": utc_now()})
            self.job.beat(utc_now())
            tables: dict[str, Any] = {**pending, "jobs": [job_to_row(self.job)]}
            if metrics:
                tables["metrics"] = metrics
            while True:
                try:
                    rewind_run(self.db, self.run_id, step, tables, upsert=["jobs", "runs"])
                    break
                except DatabaseBusy as exc:  # the rewind must land before new steps are written
                    log.warning("job %s: database busy during rewind, retrying: %s", self.job.job_id, exc)
                    time.sleep(1.0)
        self._last_flush = time.monotonic()
