"""Running a pipeline: on Ray (a Ray Data plan) or locally, rows in DuckDB out, one ``pipeline_runs`` row to
account for it."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from assay.clock import utc_now
from assay.dsl import TASK_CPUS, Pipeline
from assay.ray_session import (
    add_actor_stage,
    add_task_stage,
    arrow_batches,
    cluster_address,
    ensure_ray,
    items_dataset,
    node_cpus,
    ship_by_value,
    shutdown_ray,
    union,
)
from assay.runtime._early import EarlyPlanner, Planned, planning_stage, plans_every_file
from assay.runtime._inputs import InputError, expand_inputs, skip_unread
from assay.runtime._local import LocalRunner
from assay.runtime._progress import Progress
from assay.runtime._runners import choose_runner, ray_connected
from assay.runtime._sink import Sink
from assay.runtime._stages import (
    OUTPUT_BLOCK_RECORDS,
    StageRunner,
    actor_stage_class,
    decode_arrow,
    encode,
    plan_stages,
    task_stage_fn,
)
from assay.runtime._watchdog import Watchdog
from assay.store import default_db_path, write_rows

#: Input that is worth one more actor at the start: about what one actor reads while another loads its
#: model (a spaCy pipeline: 2-3 s, some 1,000 abstracts). Smaller input starts fewer actors, so a handful of
#: papers does not pay for two models loading at once on a small machine.
INPUT_BYTES_PER_ACTOR = 1 << 20
#: Tasks queued on one actor of a batch stage (Ray Data's default is 4).
ACTOR_TASKS_IN_FLIGHT = 2


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
    #: quarantine rows about single lines of inputs counted as ok (their file was read; one line was not)
    n_line_issues: int = 0
    #: the runner that ran it: "local" (this process) or "ray"
    runner: str = "ray"
    #: where it ran, as `pipeline_runs.address` says: "local", "embedded" (Ray started here) or the address
    address: str = "embedded"
    #: whether the Ray runner joined a Ray instance that was running already (an address, or this process's)
    joined: bool = False

    @property
    def headline(self) -> str:
        """``N in, N ok, N quarantined`` and, where any, the lines in `quarantine` of inputs that were read."""
        lines = f", {self.n_line_issues} line(s) of read inputs in quarantine" if self.n_line_issues else ""
        return f"{self.n_in} in, {self.n_ok} ok, {self.n_quarantined} quarantined{lines}"

    @property
    def where(self) -> str:
        """Which runner ran it, in words: ``local runner``, ``embedded Ray, start-up 5.1s``, ``joined Ray at
        auto``."""
        if self.runner == "local":
            return "local runner"
        if self.joined:
            return "joined Ray " + ("already connected" if self.address == "embedded" else f"at {self.address}")
        return f"embedded Ray, start-up {self.startup_s:.1f}s"

    @property
    def docs_per_s(self) -> float:
        return self.n_in / self.seconds if self.seconds else 0.0


def run_pipeline(
    pipeline: Pipeline,
    inputs: list[str | os.PathLike[str]],
    *,
    db: str | os.PathLike[str] | None = None,
    address: str | None = None,
    progress: bool = True,
    num_cpus: int | None = None,
    stall_s: float | None = None,
    stall_fail: bool = False,
    runner: str | None = None,
) -> RunSummary:
    """Run ``pipeline`` over the files under ``inputs`` and write the results to ``db``.

    ``runner`` says where the operator batches run: ``ray`` (embedded Ray, or the cluster at ``address`` /
    ``RAY_ADDRESS``), ``local`` (this process, no Ray), or ``auto`` (local for small inputs with no address
    and no Ray connected here, see ``assay.runtime._runners``); default ``ASSAY_RUNNER``, else ``auto``.
    Both write the same rows.
    Record-level errors go to the quarantine and never stop the run; a retried task or a second run over
    the same input writes no row twice. When no record moves for ``stall_s`` seconds (default
    ``ASSAY_STALL_S`` or 120; 0 turns the watchdog off) the stages' state is printed, and with
    ``stall_fail`` the run stops with :class:`StalledError` saying which stage waits on what.
    """
    pipeline.check()
    db_path = str(Path(db) if db is not None else default_db_path())
    files, skipped = skip_unread(expand_inputs(inputs), pipeline.skips)
    if not files:  # nothing to read: no Ray started, no empty pipeline run written
        names = ", ".join(str(i) for i in inputs)
        raise InputError(
            f"--input {names}: no file to read"
            + (f" ({len(skipped)} file(s) of kinds {pipeline.name} does not read skipped)" if skipped else ""),
            "give a folder or file that holds the pipeline's inputs.",
        )
    address = cluster_address(address)
    choice = choose_runner(runner or os.environ.get("ASSAY_RUNNER") or "auto", address, files)
    if choice.local:
        # Accepted or refused as embedded Ray on this machine would: the runner must not change that.
        pipeline.check(nodes=[float(num_cpus or os.cpu_count() or 1)])
    joined = not choice.local and (bool(address) or ray_connected())
    where = "local" if choice.local else address or "embedded"
    run_id = uuid.uuid4().hex[:16]
    started_at = utc_now()
    write_rows(db_path, {"pipeline_runs": [{
        "pipeline_run_id": run_id, "pipeline": pipeline.name, "status": "running", "started_at": started_at,
        "address": where, "n_in": 0, "n_ok": 0, "n_quarantined": 0,
    }]})
    combiner = pipeline.combiner
    sink = Sink(
        db_path, run_id,
        keep_fields=tuple(combiner.op.requires) if combiner else (),
        group_by=pipeline.combine_by if combiner else None,
        scope=pipeline.fingerprint,
        background=True,
    )
    status = "failed"
    started_ray, startup_s = False, 0.0
    t0 = time.perf_counter()
    bar = Progress(pipeline.name, len(files), enabled=progress)
    bar.phase(f"runner {choice.name} ({choice.reason})")
    if skipped:
        kinds = ", ".join(sorted({Path(f).suffix or Path(f).name for f in skipped}))
        bar.phase(f"skipped {len(skipped)} file(s) this pipeline does not read ({kinds})")
    planner = None if choice.local else _early_planner(pipeline, files)
    stall = float(os.environ.get("ASSAY_STALL_S", 120)) if stall_s is None else stall_s
    try:
        if choice.local:
            local = LocalRunner(pipeline, files)
            batches = local.batches()
            watchdog = Watchdog(pipeline.name, stall, fail=stall_fail, local=local.where)
        else:
            started_ray, startup_s = ensure_ray(address, num_cpus=num_cpus)
            batches, watchdog = _on_ray(pipeline, files, bar, planner, address, started_ray, startup_s,
                                        stall, stall_fail)
        t0 = time.perf_counter()
        with bar, watchdog:
            try:
                for records in watchdog.watch(batches):
                    watchdog.moved()
                    for record in records:
                        sink.add(record)
                    bar.update(sink.n_in, sink.n_quarantined)
                    sink.maybe_flush()
            except KeyboardInterrupt:
                if watchdog.tripped is None:
                    raise
                raise watchdog.tripped from None
            elapsed = time.perf_counter() - t0
            bar.phase(f"{sink.n_in} docs from {len(files)} files in {elapsed:.1f}s "
                      f"({sink.n_in / max(elapsed, 1e-9):,.1f} docs/s), {sink.n_quarantined} quarantined")
            if combiner is not None:
                t_combine = time.perf_counter()
                combine = StageRunner((combiner,))
                for group in sink.groups.values():
                    for record in combine.process(group):
                        sink.add(record)
                bar.phase(f"combined {len(sink.groups)} group(s) in {time.perf_counter() - t_combine:.1f}s")
                sink.groups.clear()
            sink.flush()
        status = "completed"
    finally:
        if planner is not None:
            planner.finish()
        seconds = time.perf_counter() - t0
        try:
            sink.flush()
        finally:
            sink.close()
        write_rows(db_path, {"pipeline_runs": [{
            "pipeline_run_id": run_id, "pipeline": pipeline.name, "status": status, "n_in": sink.n_in,
            "n_ok": sink.n_ok, "n_quarantined": sink.n_quarantined, "started_at": started_at,
            "finished_at": utc_now(), "address": where, "n_records": sink.n_records,
            "seconds": seconds,
        }]}, upsert=["pipeline_runs"])
        if started_ray and os.environ.get("ASSAY_KEEP_RAY") != "1":
            shutdown_ray()
    return RunSummary(run_id, pipeline.name, status, sink.n_in, sink.n_ok, sink.n_quarantined, sink.n_records,
                      seconds, startup_s, db_path, sink.n_line_issues, choice.name, where,
                      joined=joined)


def _on_ray(pipeline: Pipeline, files: list[str], bar: Progress, planner: EarlyPlanner | None,
            address: str | None, started_ray: bool, startup_s: float, stall: float,
            stall_fail: bool) -> tuple[Iterator[list[dict]], Watchdog]:
    """The Ray runner's part of a run, once connected: the plan, and its batches as lists of records."""
    ship_by_value(pipeline.source_module)
    nodes = node_cpus()
    pipeline.check(nodes=nodes)
    pools = pipeline.plan_resources(nodes)
    cpus = f"{len(nodes)} node(s), {sum(nodes):g} CPUs"
    if started_ray and not address:
        bar.phase(f"embedded Ray: {cpus}, started in {startup_s:.1f}s")
    elif started_ray:
        bar.phase(f"joined the running Ray at {address}: {cpus}, connected in {startup_s:.1f}s")
    else:
        bar.phase(f"joined the Ray this process is connected to: {cpus}")
    plan = [f"{p.step}: {p.min_size}-{p.max_size} actors of {p.cpus_per_actor:.3g} CPU" for p in pools]
    if plan:
        bar.phase("plan: " + "; ".join(plan))
    watchdog = Watchdog(pipeline.name, stall, fail=stall_fail, plan=plan)
    early = planner.finish() if planner is not None else None
    if early is not None and len(early.left) < len(files):
        bar.phase(f"planned {len(files) - len(early.left)} of {len(files)} file(s) while Ray started")

    def batches() -> Iterator[list[dict]]:
        # The dataset is made on first iteration, inside the watchdog's block: a dataset takes the process's
        # DataContext when created, so one made here would miss the no-progress guard the watchdog sets.
        for b in _batches(pipeline, files, nodes, early):
            yield decode_arrow(b)

    return batches(), watchdog


def _early_planner(pipeline: Pipeline, files: list[str]) -> EarlyPlanner | None:
    """A planner of the files for the time Ray takes to start (or to connect); none when this process is
    connected already or the pipeline does not start with planning steps. Before a stage that takes one
    record per call the driver plans every file, connected or not: only here can its records be cut one
    per block (``assay.runtime._early``)."""
    stage = planning_stage(pipeline) if files else None
    every_file = stage is not None and plans_every_file(pipeline)
    if stage is None or (ray_connected() and not every_file):
        return None
    return EarlyPlanner(stage, files, every_file=every_file).start()


def _input_batches(files: list[str], batch_size: int) -> int:
    """Batches the input is likely to fill: one per ``batch_size`` files, and one per ``INPUT_BYTES_PER_ACTOR``
    of input, since a collection file (a JSON-lines shard of abstracts) holds many records."""
    size = 0
    for f in files:
        try:
            size += os.path.getsize(f)
        except OSError:
            pass
    return max(-(-len(files) // batch_size), -(-size // INPUT_BYTES_PER_ACTOR))


def _batches(pipeline: Pipeline, files: list[str], nodes: list[float], early: Planned | None = None):
    if not files or (early is not None and not early.records and not early.left):
        return iter(())
    return arrow_batches(_dataset(pipeline, files, nodes, early))


def _dataset(pipeline: Pipeline, files: list[str], nodes: list[float], early: Planned | None = None):
    """The Ray Data plan of ``pipeline`` over ``files``. With ``early`` (the driver's planner ran the first
    stage on some of the files), that stage runs on the files left only and its output joins the records
    planned early, cut into the next stage's blocks here (Ray Data would merge the records a task yields
    into one block, and a block goes to one worker)."""
    pools = iter(pipeline.plan_resources(nodes))
    stages = plan_stages(pipeline.steps)
    n_blocks = int(sum(nodes)) * 8
    unread = files if early is None else early.left
    ds = None
    if unread:
        sources = encode([{"source_uri": f} for f in unread])["payload"]
        ds = items_dataset(sources, min(len(unread), n_blocks))
    first = 0
    if early is not None:
        first = 1
        if ds is not None:
            ds = _add_stage(ds, stages, 0, pools, files)
        if early.records:
            # Records made here can be cut into the next stage's blocks here, with no repartition task.
            nxt = stages[1]
            per_block = 1 if nxt.per_record else nxt.batch_size if nxt.stateful else len(early.records)
            planned = items_dataset(list(encode(early.records)["payload"]), -(-len(early.records) // per_block))
            ds = planned if ds is None else union(planned, ds)
    for i in range(first, len(stages)):
        ds = _add_stage(ds, stages, i, pools, files)
    return ds


def _add_stage(ds, stages: list, i: int, pools, files: list[str]):
    """``ds`` with stage ``i`` of ``stages`` added.

    Blocks are cut only where they are made: the input files in the driver, the planned records in the
    driver, each task's output by its own yields (Ray Data merges them up to its block size). A stage is
    never given a repartition of its own: Ray Data's asks for a whole CPU per task and has no public
    argument for less, and on a 1-CPU node beside an actor it would never run (design pitfall 10)."""
    stage = stages[i]
    # Blocks sized to the next stage's batches: each downstream task gets one batch's worth.
    block_records = stages[i + 1].batch_size if i + 1 < len(stages) else OUTPUT_BLOCK_RECORDS
    if stage.stateful:
        pool = next(pools)
        # A pool that may grow starts with no more actors than the input has batches for: on a small
        # input, actors started in parallel only compete for the CPUs while each loads its model. Not
        # for a per-record stage: one file fans out into many records there (a large log's chunks).
        initial = pool.initial_size
        if not stage.per_record:
            initial = max(pool.min_size, min(initial, _input_batches(files, stage.batch_size)))
        # Two tasks in flight per actor hide the hand-over; Ray's default (4) queues the whole input on the
        # first actor before a second one is up, which then sits idle.
        return add_actor_stage(
            ds, actor_stage_class(stage.steps), (stage.steps, block_records), batch_size=stage.batch_size,
            min_size=pool.min_size, max_size=pool.max_size, initial_size=initial,
            tasks_in_flight=None if stage.per_record else ACTOR_TASKS_IN_FLIGHT, num_cpus=pool.cpus_per_actor)
    cpus_each = min((s.num_cpus for s in stage.steps if s.num_cpus is not None), default=TASK_CPUS)
    return add_task_stage(ds, task_stage_fn(stage.steps, block_records), batch_size=stage.batch_size,
                          num_cpus=cpus_each)
