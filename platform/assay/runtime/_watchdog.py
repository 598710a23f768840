"""A progress watchdog: when a run stops moving, say which stage waits on what, and (when asked) stop it.

A Ray Data run that cannot make progress (a stage without a CPU, an operator stuck on a lock or a network
call) waits forever without an error. Two public mechanisms watch it:

* Ray Data's own no-progress guard (``DataContext.execution_no_progress_timeout_s``): when no operator has
  taken or queued a block for that long, the execution fails with ``ExecutionTimeoutError``, whose message
  lists the operators still running. With ``fail`` the watchdog sets it to ``stall_s`` for the run and turns
  that error into :class:`StalledError`, its message assay's own (the cluster's free CPUs, the stages, the
  planned pools). Ray Data stops its tasks and actors itself; nothing of its state is touched from here.
* A thread of the driver notices that no record has reached it for ``stall_s`` seconds and prints the same
  message while the run waits on. Where Ray Data's guard cannot run (it leaves out plans with an all-to-all
  operator), the thread is the backstop of ``fail``: it interrupts the driver's blocked read.

The stages named are those Ray Data's error lists as still running, and the running tasks and live pool
actors that Ray's public state API (``ray.util.state``) reports. The state API answers only where the
cluster runs Ray's dashboard (an embedded instance starts without one, to start faster); without it and
without Ray Data's error, the message says the state is not at hand. A diagnostic never fails the run it
describes. Every call into Ray is the Ray boundary's (``assay.ray_session``); this module imports no Ray.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from assay.ray_session import (
    free_cpus,
    ray_datas_timeout_error,
    restore_no_progress_timeout,
    running_stages,
    set_no_progress_timeout,
)
from assay.runtime._errors import StalledError


def stages_in_ray_datas_error(error: BaseException) -> list[str]:
    """The operators Ray Data's no-progress error lists as still running (its ``  - name: ...`` lines)."""
    return [line.strip()[2:] for line in str(error).splitlines() if line.strip().startswith("- ")]


class _NotRaised(Exception):
    """What the local runner's watch catches: it has no Ray Data guard."""


class Watchdog:
    """Call :meth:`moved` whenever a record arrives and read the run's batches through :meth:`watch`."""

    def __init__(self, pipeline: str, stall_s: float, *, fail: bool = False,
                 report: Callable[[str], None] | None = None, plan: list[str] | None = None,
                 local: Callable[[], list[str]] | None = None):
        self.pipeline = pipeline
        #: for a run of the local runner: what it does now (lines); no Ray is asked or imported then
        self.local = local
        self.stall_s = stall_s
        self.fail = fail
        self.report = report or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.plan = plan or []
        self.tripped: StalledError | None = None
        self._last = time.monotonic()
        self._stop = threading.Event()
        #: who trips first (the driver on Ray Data's error, or this thread) and the end of the run are decided
        #: under it: the thread interrupts the driver only while the run is on and nobody has tripped yet
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._watch, name="assay-watchdog", daemon=True)
        self._kept_timeout: float | None = None
        self._kept_sigint: Any = None

    def __enter__(self) -> Watchdog:
        if self.stall_s > 0:
            if self.fail and self.local is None:
                # Datasets take the process's context when created: the run's is made inside this block.
                # Ray Data before 2.58 has no such guard: ``fail`` is then left to the thread's backstop.
                self._kept_timeout = set_no_progress_timeout(self.stall_s)
            if self.fail and self.local is not None and threading.current_thread() is threading.main_thread():
                # The local runner is stopped by an interrupt of this thread: a SIGINT handler a library left
                # behind (one that swallows the first Ctrl-C) would lose it, so Python's own is used for the run.
                self._kept_sigint = signal.signal(signal.SIGINT, signal.default_int_handler)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._stop.set()
        if self._kept_sigint is not None:
            signal.signal(signal.SIGINT, self._kept_sigint)
            self._kept_sigint = None
        if self._kept_timeout is not None:
            restore_no_progress_timeout(self._kept_timeout)
            self._kept_timeout = None

    def moved(self) -> None:
        self._last = time.monotonic()

    def watch(self, batches: Iterable[Any]) -> Iterator[Any]:
        """``batches``, with Ray Data's no-progress error raised as :class:`StalledError`."""
        timeout_error = _NotRaised if self.local is not None else ray_datas_timeout_error()
        try:
            yield from batches
        except timeout_error as exc:
            error = StalledError(self.message(time.monotonic() - self._last, ray_data=exc))
            with self._lock:
                if self.tripped is None:
                    self.tripped = error
            raise self.tripped from None

    def message(self, waited_s: float, ray_data: BaseException | None = None) -> str:
        if self.local is not None:
            lines = [f"{self.pipeline}: no record has moved for {waited_s:.0f} s (local runner)."]
            lines += [f"  stage {s}" for s in self.local()]
            if not self.fail:
                lines.append("  Still waiting; pass --fail-on-stall (or stall_fail=True) to stop the run instead.")
            return "\n".join(lines)
        lines = [f"{self.pipeline}: no record has moved for {waited_s:.0f} s ({free_cpus()})."]
        stages = (stages_in_ray_datas_error(ray_data) if ray_data is not None else []) + running_stages()
        lines += [f"  stage {s}" for s in stages] or [
            "  (no stage state at hand: Ray's state API needs the cluster's dashboard; --fail-on-stall "
            "names the stages Ray Data still runs)"]
        lines += [f"  planned: {p}" for p in self.plan]
        if not self.fail:
            lines.append("  Still waiting; pass --fail-on-stall (or stall_fail=True) to stop the run instead.")
        return "\n".join(lines)

    def _watch(self) -> None:
        reported_at = 0.0
        while not self._stop.wait(min(1.0, self.stall_s / 4)):
            waited = time.monotonic() - self._last
            if self.fail:
                # Ray Data's guard stops the run at stall_s; interrupt the driver only where it did not
                # (the local runner has no such guard: it is interrupted at stall_s).
                limit = self.stall_s if self.local is not None else 2 * self.stall_s + 10
                if waited >= limit and self.tripped is None:
                    # The message takes seconds (the state API): the run may have ended, or tripped on Ray
                    # Data's own error, meanwhile; an interrupt then would land in whatever runs next.
                    error = StalledError(self.message(waited))
                    with self._lock:
                        if self.tripped is None and not self._stop.is_set():
                            self.tripped = error
                            import _thread

                            _thread.interrupt_main()
                    return
                continue
            if waited < self.stall_s or self._last <= reported_at:
                continue
            reported_at = self._last
            self.report(self.message(waited))
