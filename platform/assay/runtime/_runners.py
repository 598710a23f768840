"""Which runner runs a pipeline: ``local`` (this process) or ``ray`` (embedded Ray, or the cluster at an address).

Both runners run the same stages (``assay.runtime._stages``) into the same sink, so they write the same rows;
they differ in where the operator batches run. Ray pays a fixed price before the first record moves (5-7 s
to start an embedded instance on a 2-core laptop, then a worker process per task and actor), which a handful
of papers never wins back. ``auto`` therefore runs small inputs locally and everything else on Ray:

1. an address (``--address``, ``RAY_ADDRESS``): Ray, the user asked for that cluster;
2. a process already connected to Ray (``assay demo``, a notebook that called ``ray.init``): Ray, it is paid;
3. more than :data:`LOCAL_MAX_FILES` files or :data:`LOCAL_MAX_BYTES` bytes of input: Ray;
4. otherwise: local.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

#: The input ``auto`` runs locally at most: about what one process reads (spaCy over some 8,000 abstracts, or
#: 8 MiB of logs in a few seconds) in the time embedded Ray takes to start and spread the work over its CPUs.
LOCAL_MAX_BYTES = 8 << 20
#: Files ``auto`` runs locally at most (each file is a task's worth of work on Ray).
LOCAL_MAX_FILES = 200
RUNNERS = ("auto", "local", "ray")


@dataclass(frozen=True)
class RunnerChoice:
    name: str  # "local" or "ray"
    reason: str  # why, in words, for the run's first line

    @property
    def local(self) -> bool:
        return self.name == "local"


def input_bytes(files: list[str]) -> int:
    size = 0
    for f in files:
        try:
            size += os.path.getsize(f)
        except OSError:
            pass
    return size


def ray_connected() -> bool:
    """Whether this process is connected to Ray already (without importing Ray when it is not imported)."""
    ray = sys.modules.get("ray")
    return ray is not None and ray.is_initialized()


def choose_runner(runner: str, address: str | None, files: list[str]) -> RunnerChoice:
    """The runner for ``files`` when the caller asked for ``runner`` (``auto``, ``local`` or ``ray``), with
    ``address`` the cluster asked for (``--address`` or ``RAY_ADDRESS``, None for none)."""
    if runner not in RUNNERS:
        raise ValueError(f"runner {runner!r}: choose one of {', '.join(RUNNERS)}")
    if runner == "local":
        return RunnerChoice("local", "asked for" + (f"; the Ray address {address} is not used" if address else ""))
    if runner == "ray":
        return RunnerChoice("ray", "asked for")
    if address:
        return RunnerChoice("ray", f"auto: the cluster at {address} was given")
    if ray_connected():
        return RunnerChoice("ray", "auto: this process is connected to Ray already")
    size = input_bytes(files)
    mib = f"{size / (1 << 20):.1f} MiB"
    if len(files) > LOCAL_MAX_FILES or size > LOCAL_MAX_BYTES:
        return RunnerChoice("ray", f"auto: {len(files)} file(s), {mib}, over the local runner's "
                                   f"{LOCAL_MAX_FILES} files or {LOCAL_MAX_BYTES >> 20} MiB")
    return RunnerChoice("local", f"auto: {len(files)} file(s), {mib}, within the local runner's "
                                 f"{LOCAL_MAX_FILES} files and {LOCAL_MAX_BYTES >> 20} MiB")
