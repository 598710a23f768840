"""Planning files in the driver while Ray starts, and cutting their records into the next stage's blocks.

Starting an embedded Ray takes seconds in which this process mostly waits, and the first Ray task of a run
waits again for a worker process. A pipeline whose first stage holds only planning steps (``log_split``:
a format check and one hashing pass per file) has that stage run here meanwhile, over the files in order.
When Ray is up, the file being planned is finished and the rest are left to Ray tasks: a driver never
plans alone what a cluster's tasks would plan in parallel for longer than the start-up it hides.

Except before a stage that takes one record per call (``log_parse``, one chunk of a large log each): Ray
Data merges the small records a task yields into one block, and a block goes to one worker, so the chunks
of a log planned by a Ray task would all be parsed by one actor. Ray's public API cuts blocks where they
are made, ``from_items(..., override_num_blocks=...)`` in the driver, so there the driver plans every file
(:func:`plans_every_file`), also when Ray is up already; planning is one hashing pass per file.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from assay.dsl import Pipeline
from assay.runtime._stages import Stage, StageRunner, plan_stages


def planning_stage(pipeline: Pipeline) -> Stage | None:
    """The pipeline's first stage when it holds only planning steps and other stages follow it."""
    stages = plan_stages(pipeline.steps)
    first = stages[0] if stages else None
    if first is None or first.stateful or len(stages) < 2 or not all(s.op.planning for s in first.steps):
        return None
    return first


def plans_every_file(pipeline: Pipeline) -> bool:
    """Whether the planning stage feeds a stage that takes one record per call: its records must be cut one
    per block, which only the driver can do, so the driver plans every file."""
    stages = plan_stages(pipeline.steps)
    return planning_stage(pipeline) is not None and stages[1].per_record


@dataclass(frozen=True)
class Planned:
    """What the early planner did: the records of the files it planned, and the files left to Ray."""

    records: list[dict[str, Any]]
    left: list[str]


class EarlyPlanner:
    """Runs ``stage`` over ``files`` in a background thread until :meth:`finish` (to the last file when
    ``every_file``).

    The stage's steps release the GIL for their heavy part (hashing a file), so the thread costs the
    waiting main thread little. Records come out as the Ray task would yield them, failures included.
    """

    def __init__(self, stage: Stage, files: list[str], every_file: bool = False):
        self.stage = stage
        self.files = files
        self.every_file = every_file
        self._records: list[dict[str, Any]] = []
        self._n_done = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._plan, name="assay-early-planner", daemon=True)

    def start(self) -> EarlyPlanner:
        self._thread.start()
        return self

    def _plan(self) -> None:
        try:
            runner = StageRunner(self.stage.steps)
        except Exception:  # noqa: BLE001 -- the same steps fail again in Ray, where the error is reported
            return
        for path in self.files:
            if self._stop.is_set():
                return
            records = runner.process([{"source_uri": path}])
            self._records.extend(records)
            self._n_done += 1

    def finish(self) -> Planned:
        """Stop after the file being planned (after the last one when planning every file)."""
        if not self.every_file:
            self._stop.set()
        if self._thread.ident is not None:
            self._thread.join()
        return Planned(self._records, self.files[self._n_done:])
