"""Memory of a process and all its descendants (Ray's raylet, GCS and workers included), and its peak.

The figure is the proportional set size (``/proc/PID/smaps_rollup``): pages shared between processes (Ray's
object store, shared libraries) are counted once overall. Reading it makes the kernel walk every page
table of every process, which is far from free for Ray's workers (each maps the object store): a profile
(``perf record -a``) of the logs pipeline with a sample every 0.1 s showed the sampler's ``smaps_account``
taking 13-16 % of both cores, time the measured pipeline lost. So :class:`PeakMemory` times each sample
and waits at least ``BUDGET`` times as long before the next one: the sampler never takes more than about
1/``BUDGET`` of one core, whatever the process tree.
"""

from __future__ import annotations

import os
import threading
import time

#: The sampler waits this many times as long as its last sample took (and at least ``MIN_EVERY_S``).
BUDGET = 20
MIN_EVERY_S = 0.1


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except OSError:
        return 0


def tree_memory_mb(root: int) -> float:
    """Memory of ``root`` and all its descendants (Linux /proc; PSS where the kernel has it), in MB."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += _pss_kb(pid)
        todo.extend(children.get(pid, ()))
    return total * 1024 / 1e6


class PeakMemory:
    """``with PeakMemory() as mem: ...`` then ``mem.peak`` (MB, this process and its descendants) and
    ``mem.samples``, sampled in a thread at a rate that keeps the sampler's own cost small."""

    def __init__(self) -> None:
        self.peak = 0.0
        self.samples = 0
        self.sampling_s = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> float:
        started = time.perf_counter()
        self.peak = max(self.peak, tree_memory_mb(os.getpid()))
        took = time.perf_counter() - started
        self.samples += 1
        self.sampling_s += took
        return took

    def _run(self) -> None:
        took = self.sample()
        while not self._stop.wait(max(MIN_EVERY_S, BUDGET * took)):
            took = self.sample()

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()
