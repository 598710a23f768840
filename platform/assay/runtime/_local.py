"""The local runner: a pipeline's stages run in this process, streaming, with no Ray at all.

The stages are the Ray runner's (``plan_stages``), each a :class:`StageRunner` built once, as one actor of
its pool would be (a stateful step's model loads once), fed batches of the stage's ``batch_size`` as Ray
Data's ``map_batches`` feeds them. Records pass from stage to stage as generators, so a large log's chunks
are parsed and handed to the sink one at a time instead of all held at once. Failures, unit keys and the
sink are the ones the Ray runner uses: the runner changes where the batches run, not what they do.

What it does not do: spread work over CPUs (one process, one batch at a time), pickle records between
stages (Ray does; a record that cannot be pickled fails there and not here), or retry a crashed worker
(there is none: an exception outside an operator's record-level handling stops the run, as on Ray once its
retries are spent).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from assay.dsl import Pipeline
from assay.runtime._stages import Stage, StageRunner, plan_stages

Record = dict[str, Any]


class LocalRunner:
    """Iterate :meth:`batches` for the records the last stage yields, in lists as they come out of it."""

    def __init__(self, pipeline: Pipeline, files: list[str]):
        self.files = files
        self.stages = plan_stages(pipeline.steps)
        #: the stage running a batch now (for the watchdog's message), None between batches
        self.current: str | None = None
        self.n_batches = 0

    def batches(self) -> Iterator[list[Record]]:
        stream: Iterable[list[Record]] = ([{"source_uri": f}] for f in self.files)
        for stage in self.stages:
            stream = self._run(stage, stream)
        for out in stream:
            if out:
                yield out

    def _run(self, stage: Stage, upstream: Iterable[list[Record]]) -> Iterator[list[Record]]:
        runner: StageRunner | None = None
        pending: list[Record] = []
        size = stage.batch_size
        for records in upstream:
            pending.extend(records)
            full = len(pending) - len(pending) % size
            if full:
                runner = runner or self._build(stage)
                for i in range(0, full, size):
                    yield self._process(stage, runner, pending[i : i + size])
                pending = pending[full:]
        if pending:
            runner = runner or self._build(stage)
            yield self._process(stage, runner, pending)

    def _build(self, stage: Stage) -> StageRunner:
        self.current = f"{stage.name}: building its operators"
        return StageRunner(stage.steps)

    def _process(self, stage: Stage, runner: StageRunner, batch: list[Record]) -> list[Record]:
        self.current = f"{stage.name}: a batch of {len(batch)} record(s) in this process"
        out = runner.process(batch)
        self.current = None
        self.n_batches += 1
        return out

    def where(self) -> list[str]:
        """What the run is doing now, one line (the watchdog's message)."""
        return [self.current] if self.current else ["between batches (the sink or the input)"]
