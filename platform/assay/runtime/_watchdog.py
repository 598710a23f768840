"""A progress watchdog: when no record has reached the driver for a while, say which stage waits on what.

A Ray Data run that cannot make progress (a stage without a CPU, an operator stuck on a lock or a network
call) waits forever without an error. The watchdog notices that no record has moved for ``stall_s``
seconds, prints each stage's state (tasks, actors, queued blocks, CPUs held) with the cluster's free CPUs,
and, when asked to, fails the run with that message instead of waiting on.

It reads the state through a Ray Data execution callback. The state is Ray's own (its operator summaries),
read for a message only: if a Ray release changes it, the message loses that detail, never the run.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

import ray
from ray.data._internal.execution.execution_callback import ExecutionCallback

from assay.runtime._errors import StalledError

#: The executor of the dataset this process is running now (one at a time: the driver runs one pipeline).
_current: dict[str, object] = {}


class _ExecutorWatch(ExecutionCallback):
    """Registered with Ray Data: hands the watchdog the running executor, to describe its stages."""

    def before_execution_starts(self, executor) -> None:
        _current["executor"] = executor

    def after_execution_succeeds(self, executor) -> None:
        _current.pop("executor", None)

    def after_execution_fails(self, executor, error: Exception) -> None:
        _current.pop("executor", None)


def install() -> None:
    """Register the callback with this process's Ray Data context (once)."""
    ctx = ray.data.DataContext.get_current()
    if _ExecutorWatch not in ctx.custom_execution_callback_classes:
        ctx.custom_execution_callback_classes.append(_ExecutorWatch)


def describe_stages() -> list[str]:
    """One line per running stage, from Ray Data's own operator summaries; empty when unavailable."""
    executor = _current.get("executor")
    if executor is None:
        return []
    try:
        from ray.data._internal.execution.streaming_executor_state import format_op_state_summary

        return [f"{op.name}: {format_op_state_summary(state, executor._resource_manager)}"
                for op, state in list(executor._topology.items())]
    except Exception:  # noqa: BLE001 -- a diagnostic must not fail the run it describes
        return []


def free_cpus() -> str:
    try:
        free = ray.available_resources().get("CPU", 0.0)
        total = ray.cluster_resources().get("CPU", 0.0)
        return f"{free:g} of {total:g} CPUs free"
    except Exception:  # noqa: BLE001
        return "free CPUs unknown"


class Watchdog:
    """Call :meth:`moved` whenever a record arrives; a daemon thread reports (or fails) a stall."""

    def __init__(self, pipeline: str, stall_s: float, *, fail: bool = False,
                 report: Callable[[str], None] | None = None, plan: list[str] | None = None):
        self.pipeline = pipeline
        self.stall_s = stall_s
        self.fail = fail
        self.report = report or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.plan = plan or []
        self.tripped: StalledError | None = None
        self._last = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="assay-watchdog", daemon=True)

    def __enter__(self) -> Watchdog:
        if self.stall_s > 0:
            install()
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()

    def moved(self) -> None:
        self._last = time.monotonic()

    def message(self, waited_s: float) -> str:
        lines = [f"{self.pipeline}: no record has moved for {waited_s:.0f} s ({free_cpus()})."]
        stages = describe_stages()
        lines += [f"  stage {s}" for s in stages] or ["  (Ray Data reported no stage state)"]
        lines += [f"  planned: {p}" for p in self.plan]
        if not self.fail:
            lines.append("  Still waiting; pass --fail-on-stall (or stall_fail=True) to stop the run instead.")
        return "\n".join(lines)

    def _watch(self) -> None:
        reported_at = 0.0
        while not self._stop.wait(min(1.0, self.stall_s / 4)):
            waited = time.monotonic() - self._last
            if waited < self.stall_s or self._last <= reported_at:
                continue
            msg = self.message(waited)
            reported_at = self._last
            if self.fail:
                self.tripped = StalledError(msg)
                self._abort(self.tripped)
                return
            self.report(msg)

    @staticmethod
    def _abort(error: StalledError) -> None:
        """Make the driver's blocked read raise ``error`` (Ray Data re-raises an output node's exception)."""
        executor = _current.get("executor")
        try:
            _, state = executor._output_node
            state._exception = error
        except Exception:  # noqa: BLE001 -- then interrupt the driver thread as a last resort
            import _thread

            _thread.interrupt_main()
