"""Running a pipeline: Ray Data plan in, rows in DuckDB out, one ``pipeline_runs`` row to account for it."""

from __future__ import annotations

import datetime as dt
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from assay.dsl import Pipeline
from assay.runtime._cluster import cluster_cpus, ensure_ray, ship_by_value
from assay.runtime._inputs import expand_inputs
from assay.runtime._progress import Progress
from assay.runtime._sink import Sink
from assay.runtime._stages import (
    OUTPUT_BLOCK_RECORDS,
    StageRunner,
    decode,
    encode,
    plan_stages,
    task_stage_fn,
)
from assay.store import default_db_path, write_rows


@dataclass(frozen=True)
class RunSummary:
    pipeline_run_id: str
    pipeline: str
    status: str
    n_in: int
    n_ok: int
    n_quarantined: int
    n_records: int
    seconds: float
    startup_s: float
    db: str

    @property
    def docs_per_s(self) -> float:
        return self.n_in / self.seconds if self.seconds else 0.0


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def run_pipeline(
    pipeline: Pipeline,
    inputs: list[str | os.PathLike[str]],
    *,
    db: str | os.PathLike[str] | None = None,
    address: str | None = None,
    progress: bool = True,
    num_cpus: int | None = None,
) -> RunSummary:
    """Run ``pipeline`` over the files under ``inputs`` on Ray and write the results to ``db``.

    Record-level errors go to the quarantine and never stop the run; a retried task or a second run over
    the same input writes no row twice.
    """
    pipeline.check()
    db_path = str(Path(db) if db is not None else default_db_path())
    files = expand_inputs(inputs)
    run_id = uuid.uuid4().hex[:16]
    started_at = _now()
    write_rows(db_path, {"pipeline_runs": [{
        "pipeline_run_id": run_id, "pipeline": pipeline.name, "status": "running", "started_at": started_at,
        "address": address or "embedded", "n_in": 0, "n_ok": 0, "n_quarantined": 0,
    }]})
    combiner = pipeline.combiner
    sink = Sink(
        db_path, run_id,
        keep_fields=tuple(combiner.op.requires) if combiner else (),
        group_by=pipeline.combine_by if combiner else None,
    )
    status = "failed"
    started_ray, startup_s = False, 0.0
    t0 = time.perf_counter()
    try:
        started_ray, startup_s = ensure_ray(address, num_cpus=num_cpus)
        ship_by_value(pipeline.source_module)
        t0 = time.perf_counter()
        with Progress(pipeline.name, len(files), enabled=progress) as bar:
            if files:
                for batch in _dataset(pipeline, files).iter_batches(batch_size=None, batch_format="numpy"):
                    for record in decode(batch):
                        sink.add(record)
                    bar.update(sink.n_in, sink.n_quarantined)
                    sink.maybe_flush()
            if combiner is not None:
                runner = StageRunner((combiner,))
                for group in sink.groups.values():
                    for record in runner.process(group):
                        sink.add(record)
                sink.groups.clear()
            sink.flush()
            bar.update(sink.n_in, sink.n_quarantined)
        status = "completed"
    finally:
        seconds = time.perf_counter() - t0
        sink.flush()
        write_rows(db_path, {"pipeline_runs": [{
            "pipeline_run_id": run_id, "pipeline": pipeline.name, "status": status, "n_in": sink.n_in,
            "n_ok": sink.n_ok, "n_quarantined": sink.n_quarantined, "started_at": started_at,
            "finished_at": _now(), "address": address or "embedded", "n_records": sink.n_records,
            "seconds": seconds,
        }]}, upsert=["pipeline_runs"])
        if started_ray and os.environ.get("ASSAY_KEEP_RAY") != "1":
            import ray

            ray.shutdown()
    return RunSummary(run_id, pipeline.name, status, sink.n_in, sink.n_ok, sink.n_quarantined, sink.n_records,
                      seconds, startup_s, db_path)


#: CPUs each task of a stateless stage reserves: stateless steps (readers, splitters) are light next to the
#: actors' models and parsers.
TASK_CPUS = 0.5
#: Actors a one-record-per-call stage starts with; the pool grows from there to one per CPU.
INITIAL_POOL_CAP = 8


def _dataset(pipeline: Pipeline, files: list[str]):
    import ray

    cpus = cluster_cpus()
    sources = [encode([{"source_uri": f}])["payload"][0] for f in files]
    ds = ray.data.from_items([{"payload": s} for s in sources],
                             override_num_blocks=max(1, min(len(files), cpus * 8)))
    stages = plan_stages(pipeline.steps)
    for i, stage in enumerate(stages):
        if i > 0 and stage.per_record:
            # Ray Data merges an upstream task's small yielded blocks into one, which would send all of
            # those records (the chunks of one log) to one worker in one task; streaming them one per block
            # spreads them over the pool.
            ds = ds.repartition(target_num_rows_per_block=1)
        # Blocks sized to the next stage's batches: each downstream task gets one batch's worth.
        block_records = stages[i + 1].batch_size if i + 1 < len(stages) else OUTPUT_BLOCK_RECORDS
        cpus_each = min((s.num_cpus for s in stage.steps if s.num_cpus is not None), default=None)
        if stage.stateful:
            asked = next((s.concurrency for s in stage.steps if s.concurrency), None)
            # A pool that may shrink to one actor leaves CPUs for the task stages before it.
            low, high = (asked, asked) if asked else (1, cpus)
            initial, actor_cpus = low, 1.0
            if stage.per_record and not asked and cpus > 1:
                # Heavy records: the actors start together (up to a cap, so a small input on a big cluster
                # does not start an actor per CPU), as the pool would otherwise grow by one actor every few
                # seconds. Together they reserve one CPU less than the cluster has, which the task stage
                # and the repartition feeding them need (a full pool of whole-CPU actors would starve
                # those for good, and the pool with them).
                initial = min(high, INITIAL_POOL_CAP)
                actor_cpus = (cpus - 1) / high
            ds = ds.map_batches(
                StageRunner,
                fn_constructor_args=(stage.steps, block_records),
                batch_size=stage.batch_size,
                batch_format="numpy",
                # Ray Data restarts lost actors and retries their tasks by default.
                compute=ray.data.ActorPoolStrategy(min_size=low, max_size=high, initial_size=initial),
                num_cpus=cpus_each if cpus_each is not None else actor_cpus,
            )
        else:
            ds = ds.map_batches(
                task_stage_fn(stage.steps, block_records),
                batch_size=stage.batch_size,
                batch_format="numpy",
                num_cpus=cpus_each if cpus_each is not None else TASK_CPUS,
            )
    return ds
