"""Memory of a process and all its descendants (Ray's raylet, GCS and workers included), and its peak.

The figure is the proportional set size (``/proc/PID/smaps_rollup``): pages shared between processes (Ray's
object store, shared libraries) are counted once overall. Reading it makes the kernel walk every page
table of every process, which is far from free for Ray's workers (each maps the object store): a profile
(``perf record -a``) of the logs pipeline with a sample every 0.1 s showed the sampler's ``smaps_account``
taking 13-16 % of both cores, time the measured pipeline lost. So :class:`PeakMemory` times each sample
and waits at least ``BUDGET`` times as long before the next one: the sampler never takes more than about
1/``BUDGET`` of one core, whatever the process tree.

Each sample also reads every process's CPU time (``/proc/PID/stat``), so ``cpu_s`` is the CPU-seconds the tree
spent inside the block: wall-clock rates swing with the machine's other load, CPU-seconds much less. Two
counts, each short only where the other may be exact, and ``cpu_s`` is the larger: every process's own time
as last sampled (short by what an ended process spent after its last sample), and the processes alive at the
end with the time of the children they reaped (the kernel charges a parent with a reaped child's whole time;
short by what ended unreaped or outlived its parent, as Ray's processes at shutdown do). Both count from each
process's value at the start; the sampler's own time (about 1/``BUDGET`` of a core, in this process) is in.
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


def _cpu_s(pid: int) -> tuple[float, float] | None:
    """CPU-seconds of ``pid`` itself, and of the children it has reaped; None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / tick, (int(fields[13]) + int(fields[14])) / tick
    except (OSError, ValueError, IndexError):
        return None


def tree_pids(root: int) -> list[int]:
    """``root`` and all its descendants (Linux /proc)."""
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
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def tree_memory_mb(root: int, pids: list[int] | None = None) -> float:
    """Memory of ``root`` and all its descendants (Linux /proc; PSS where the kernel has it), in MB."""
    return sum(_pss_kb(pid) for pid in (pids if pids is not None else tree_pids(root))) * 1024 / 1e6


class PeakMemory:
    """``with PeakMemory() as mem: ...`` then ``mem.peak`` (MB, this process and its descendants) and
    ``mem.samples``, sampled in a thread at a rate that keeps the sampler's own cost small; ``mem.cpu_s``, the
    CPU-seconds the tree spent in the block (a lower bound, see the module's note)."""

    def __init__(self) -> None:
        self.peak = 0.0
        # each process's (own, reaped children's) CPU time when first seen (0 if born inside), and last seen
        self._cpu_first: dict[int, tuple[float, float]] = {}
        self._cpu_last: dict[int, tuple[float, float]] = {}
        self._alive: set[int] = set()  # the processes of the last sample
        self.samples = 0
        self.sampling_s = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> float:
        started = time.perf_counter()
        pids = tree_pids(os.getpid())
        first_sample = not self.samples
        self._alive = set()
        for pid in pids:
            cpu = _cpu_s(pid)
            if cpu is not None:
                self._cpu_first.setdefault(pid, cpu if first_sample else (0.0, 0.0))
                self._cpu_last[pid] = cpu
                self._alive.add(pid)
        self.peak = max(self.peak, tree_memory_mb(os.getpid(), pids))
        took = time.perf_counter() - started
        self.samples += 1
        self.sampling_s += took
        return took

    @property
    def cpu_s(self) -> float:
        own = sum(self._cpu_last[pid][0] - first[0] for pid, first in self._cpu_first.items())
        # an ended process's whole time is in its parent's reaped-children figure; what it spent before the block
        # is taken off
        reaped = sum(
            sum(self._cpu_last[pid]) - sum(first) if pid in self._alive else -sum(first)
            for pid, first in self._cpu_first.items()
        )
        return max(own, reaped)

    def _run(self) -> None:
        took = self.sample()
        while not self._stop.wait(max(MIN_EVERY_S, BUDGET * took)):
            took = self.sample()

    def __enter__(self) -> PeakMemory:
        self.sample()  # CPU times at the start, before the thread (which samples again) runs
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()
