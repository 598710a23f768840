"""Planning files in the driver while Ray starts.

Starting an embedded Ray takes seconds in which this process mostly waits, and the first Ray task of a run
waits again for a worker process. A pipeline whose first stage holds only planning steps (``log_split``:
a format check and one hashing pass per file) has that stage run here meanwhile, over the files in order.
When Ray is up, the file being planned is finished and the rest are left to Ray tasks: a driver never
plans alone what a cluster's tasks would plan in parallel for longer than the start-up it hides.
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


@dataclass(frozen=True)
class Planned:
    """What the early planner did: the records of the files it planned, and the files left to Ray."""

    records: list[dict[str, Any]]
    left: list[str]


class EarlyPlanner:
    """Runs ``stage`` over ``files`` in a background thread until :meth:`finish`.

    The stage's steps release the GIL for their heavy part (hashing a file), so the thread costs the
    waiting main thread little. Records come out as the Ray task would yield them, failures included.
    """

    def __init__(self, stage: Stage, files: list[str]):
        self.stage = stage
        self.files = files
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
        """Stop after the file being planned."""
        self._stop.set()
        if self._thread.ident is not None:
            self._thread.join()
        return Planned(self._records, self.files[self._n_done:])
