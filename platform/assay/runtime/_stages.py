"""Compiling a pipeline's steps into stages, and running records through a stage.

Consecutive steps are fused into one stage so records are serialised only between stages. A stage
starts at each stateful step: that step and the stateless steps after it run in an actor pool (the model
loads once per actor); the stateless steps before the first stateful one run as Ray tasks.

Records cross stage boundaries pickled in one binary column, because records are free-form dicts whose
nested lists and columnar payloads do not fit one Arrow schema.
"""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from assay.dsl import BoundOperator, Failure, Step

PAYLOAD = "payload"
#: Records the last stage yields per output block (to the driver). A stage before another yields batches of
#: the next stage's batch size instead: a Ray block goes to one downstream task. Ray Data still merges a
#: task's small yielded batches into one block up to its target block size (the chunk records of one log
#: are a few hundred bytes each), so this alone does not spread one file's chunks over the workers.
OUTPUT_BLOCK_RECORDS = 64


@dataclass(frozen=True)
class Stage:
    steps: tuple[Step, ...]
    stateful: bool

    @property
    def name(self) -> str:
        return "+".join(s.name for s in self.steps)

    @property
    def batch_size(self) -> int:
        return min((s.batch_size for s in self.steps if s.batch_size), default=32 if self.stateful else 8)

    @property
    def per_record(self) -> bool:
        """A stage that takes one record per call does heavy work on each (a chunk of a large log)."""
        return self.batch_size == 1


def plan_stages(steps: tuple[Step, ...]) -> list[Stage]:
    stages: list[list[Step]] = []
    stateful: list[bool] = []
    for step in steps:
        if step.op.stateful or not stages:
            stages.append([step])
            stateful.append(step.op.stateful)
        else:
            stages[-1].append(step)
    return [Stage(tuple(s), f) for s, f in zip(stages, stateful, strict=True)]


def encode(records: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    column = np.empty(len(records), dtype=object)
    column[:] = [pickle.dumps(r, protocol=5) for r in records]
    return {PAYLOAD: column}


def decode(batch: dict[str, np.ndarray]) -> list[dict[str, Any]]:
    return [pickle.loads(b) for b in batch[PAYLOAD]]


def decode_arrow(batch: pa.Table) -> list[dict[str, Any]]:
    """The records of a batch taken as an Arrow table (the driver's): each is unpickled from a view of the
    column's buffer. The numpy format would first copy every record to a bytes object, and a chunk of a large
    log carries its metric rows (tens of MB) in its record."""
    records: list[dict[str, Any]] = []
    for chunk in batch.column(PAYLOAD).chunks:
        if not len(chunk):
            continue
        width = np.int64 if pa.types.is_large_binary(chunk.type) else np.int32
        offsets = np.frombuffer(chunk.buffers()[1], dtype=width)[chunk.offset : chunk.offset + len(chunk) + 1]
        data = memoryview(chunk.buffers()[2])
        records.extend(pickle.loads(data[a:b]) for a, b in itertools.pairwise(offsets.tolist()))
    return records


def failure_record(failure: Failure) -> dict[str, Any]:
    rec = failure.record
    return {
        "_failure": {
            "source_uri": rec.get("source_uri"),
            "unit": rec.get("_unit") or rec.get("doc_id") or rec.get("source_uri"),
            "operator": failure.operator,
            "error": failure.error,
        }
    }


class StageRunner:
    """Runs one stage's steps over a batch; built once per worker (actor) or per task."""

    def __init__(self, steps: tuple[Step, ...], block_records: int = OUTPUT_BLOCK_RECORDS):
        self.bound: list[BoundOperator] = [s.op.bind(**s.config) for s in steps]
        self.block_records = max(1, block_records)

    def process(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        done: list[dict[str, Any]] = [r for r in records if "_failure" in r]
        live = [r for r in records if "_failure" not in r]
        for bound in self.bound:
            if not live:
                break
            live, failures = bound.process(live)
            done.extend(failure_record(f) for f in failures)
            for rec in live:
                # The accounting unit: the document, or the input file until a reader names a document.
                if "_unit" not in rec:
                    rec["_unit"] = rec.get("doc_id") or rec.get("source_uri")
        return live + done

    def __call__(self, batch: dict[str, np.ndarray]) -> Iterator[dict[str, np.ndarray]]:
        out = self.process(decode(batch))
        for i in range(0, len(out), self.block_records):
            yield encode(out[i : i + self.block_records])


def task_stage_fn(steps: tuple[Step, ...], block_records: int = OUTPUT_BLOCK_RECORDS):
    """A plain function for a stateless stage (Ray tasks build the operators per call: they are cheap)."""

    def run(batch: dict[str, np.ndarray]) -> Iterator[dict[str, np.ndarray]]:
        yield from StageRunner(steps, block_records)(batch)

    # Ray Data names the stage after the function: the watchdog's and Ray's messages then name the steps.
    run.__name__ = run.__qualname__ = Stage(steps, False).name
    return run


def actor_stage_class(steps: tuple[Step, ...]) -> type[StageRunner]:
    """A :class:`StageRunner` subclass named after the stage's steps (Ray Data names the pool after it)."""
    return type(Stage(steps, True).name, (StageRunner,), {"__module__": StageRunner.__module__})
