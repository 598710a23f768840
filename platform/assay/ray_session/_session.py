"""Connecting to Ray, for pipelines and jobs alike: the cluster at ``address`` (else ``RAY_ADDRESS``), else
an embedded local instance; Ray's flags set here and nowhere else.

Ray is imported on first use, so importing this module costs nothing. Only Ray's public API is used here
(design pitfall 14): token authentication through its documented environment (``RAY_AUTH_MODE``, and the
token in ``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH`` or ``~/.ray/auth_token``), the embedded instance's
processes through the operating system.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import re
import signal
import sys
import time
import warnings
from collections.abc import Iterator

from assay.ray_session._auth import prefer_token_auth
from assay.ray_session._data import configure_quiet_data, note_dashboard
from assay.ray_session._errors import ClusterError

#: The modules a Ray warning is attributed to: Ray's own, or (Ray Data warns with ``stacklevel=2``) the assay
#: modules that call Ray's API; assay's own messages are printed, not raised as warnings, there.
_RAY_CALLERS = r"(ray|assay\.runtime|assay\.jobs|assay\.ray_session)(\.|$)"

#: Whether Ray's own log lines are hidden (assay prints its own progress); ``--verbose`` shows them.
_quiet = {"on": False}


def quiet_ray(quiet: bool = True) -> None:
    """Hide Ray's log lines (its warnings, its driver's C++ notes, the Python warnings its modules raise)
    unless asked for; call before connecting. Every ``assay`` command is quiet (``assay.cli.main`` calls
    this); ``--verbose`` calls it with False. All by public means: Ray's documented log-level variables
    (read when Ray starts), the ``ray`` loggers, a :mod:`warnings` filter on Ray's modules."""
    _quiet["on"] = quiet
    if quiet:
        os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "fatal")
        os.environ.setdefault("RAY_DATA_LOG_LEVEL", "ERROR")
        warnings.filterwarnings("ignore", module=_RAY_CALLERS)
    else:
        with contextlib.suppress(ValueError):
            warnings.filters.remove(("ignore", None, Warning, re.compile(_RAY_CALLERS), 0))
    for name in ("ray", "ray.data", "ray.train", "ray.tune"):
        logging.getLogger(name).setLevel(logging.ERROR if quiet else logging.INFO)


def cluster_address(address: str | None = None) -> str | None:
    """The cluster to connect to: ``address``, else ``RAY_ADDRESS``; None means embedded Ray."""
    return address or os.environ.get("RAY_ADDRESS") or None


def ensure_ray(address: str | None = None, *, num_cpus: float | None = None,
               log_to_driver: bool | None = None) -> tuple[bool, float]:
    """Connect to (or start) Ray unless this process already has. ``num_cpus`` sizes an embedded instance
    (default: this machine's cores); ``log_to_driver`` (default: unless quiet) prints the workers' output
    here. Returns (whether this call connected, seconds it took)."""
    imported = sys.modules.get("ray")
    if imported is not None and imported.is_initialized():
        return False, 0.0
    address = cluster_address(address)
    _late_token.clear()
    if address and not use_cluster_token(address):
        _late_token["mode_set_after_import"] = True
    import ray

    started = time.perf_counter()
    os.environ.setdefault("RAY_DEDUP_LOGS", "1")
    # No usage-statistics actor: one process less to start, and nothing that tries to reach the network.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    quiet = _quiet["on"]
    kwargs: dict = {"include_dashboard": False, "logging_level": logging.ERROR if quiet else logging.WARNING,
                    "log_to_driver": (not quiet) if log_to_driver is None else log_to_driver}
    with _stderr_hidden(quiet):
        if address:
            try:
                context = ray.init(address=address, **kwargs)
            except (ConnectionError, RuntimeError) as exc:
                raise ClusterError(_connection_problem(address, exc)) from None
        else:
            # "local" starts an embedded instance even when a `ray start` cluster runs on this machine.
            cpus = math.ceil(num_cpus) if num_cpus else (os.cpu_count() or 1)
            context = ray.init(address="local", num_cpus=cpus, **kwargs)
    with contextlib.suppress(Exception):  # for a stall's message only: it never fails the connection
        note_dashboard(ray.get_runtime_context().gcs_address, context)
    configure_quiet_data(quiet)
    return True, time.perf_counter() - started


def shutdown_ray() -> None:
    """Disconnect from Ray, stopping the embedded instance if this process started one.

    Ray stops its autoscaler monitor after the GCS; the monitor's SIGTERM handler then reports its end to the
    GCS that is gone and is killed after Ray's one-second grace period: a second every embedded run paid at
    exit. A single local node's monitor has nothing to save, so it is killed first. Ray's own handle on its
    processes is private: the monitor is found as what it is to the operating system, a child of this
    process running Ray's ``monitor.py`` (only an instance this process started has one). Where that cannot
    be read (no ``/proc``), or a Ray release runs its monitor otherwise, nothing is killed and the
    shutdown takes its second."""
    import ray

    for pid in own_autoscaler_monitors():
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
            _wait_dead(pid)
    ray.shutdown()


def own_autoscaler_monitors() -> list[int]:
    """Process ids of the autoscaler monitors this process started (its children running Ray's monitor)."""
    return [pid for pid, argv in _children() if any(
        a.endswith("monitor.py") and "autoscaler" in a for a in argv)]


def _children() -> list[tuple[int, list[str]]]:
    """This process's live children and their command lines, read from ``/proc`` (empty where there is none)."""
    me, found = os.getpid(), []
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return []
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                state, ppid = f.read().rsplit(")", 1)[1].split()[:2]
            if int(ppid) != me or state == "Z":
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
        except (OSError, ValueError, IndexError):
            continue
        found.append((int(entry), argv))
    return found


def _wait_dead(pid: int, timeout_s: float = 5.0) -> None:
    """Wait until ``pid`` has exited (a zombie: Ray, its parent's owner of the handle, reaps it)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    return
        except OSError:
            return
        time.sleep(0.01)


@contextlib.contextmanager
def _stderr_hidden(hide: bool) -> Iterator[None]:
    """Ray's start-up writes notes straight to file descriptor 2 (its C++ logger, its auth notice); a quiet
    run hides them. A failed start-up still raises, and its message is assay's own."""
    if not hide:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


#: Set when the token mode was set for a cluster after Ray had been imported (see :func:`use_cluster_token`).
_late_token: dict[str, bool] = {}


def use_cluster_token(address: str) -> bool:
    """Use the token at hand for a cluster ``address`` (see :func:`prefer_token_auth`). Ray reads
    ``RAY_AUTH_MODE`` once, when it is imported, and has no public way to read it again: the command line sets
    it before importing Ray. Returns False when the mode was set only now, after Ray was imported in this
    process (a library caller that imported Ray first): that driver presents no token, and a refused
    connection says to set the mode before Python starts."""
    ray_imported = "ray" in sys.modules
    return not (prefer_token_auth(address) and ray_imported)


def _connection_problem(address: str, exc: Exception) -> str:
    text = " ".join(str(exc).split())
    cause = exc.__cause__ or exc.__context__
    while cause is not None:
        text += " " + " ".join(str(cause).split())
        cause = cause.__cause__ or cause.__context__
    if "InvalidAuthToken" in text or "Authentication" in text:
        if _late_token.pop("mode_set_after_import", False):
            return (f"--address {address}: the Ray cluster asks for a token, and Ray was imported in this "
                    "process before assay could set RAY_AUTH_MODE=token (Ray reads it once, on import). Set "
                    "RAY_AUTH_MODE=token in the environment before starting Python, or call assay before "
                    "importing ray.")
        return (f"--address {address}: the Ray cluster refused this driver's authentication token. Use the "
                "head's token: copy its ~/.ray/auth_token here (or set RAY_AUTH_TOKEN) and set "
                "RAY_AUTH_MODE=token, on every `ray start` and assay command.")
    return (f"--address {address}: no Ray cluster answers there ({text[:160]}). Start one with "
            "`ray start --head`, or leave --address out to use embedded Ray.")
