"""The one way assay connects to Ray, for pipelines and jobs alike: the cluster at ``address`` (else
``RAY_ADDRESS``), else an embedded local instance; Ray's flags set here and nowhere else.

Ray is imported on first use, so importing this module costs nothing.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import subprocess
import sys
import time
from collections.abc import Iterator

from assay.runtime import ClusterError, prefer_token_auth, serve_ray_data_helpers_here

#: Whether Ray's own log lines are hidden (assay prints its own progress); ``--verbose`` shows them.
_quiet = {"on": False}


def quiet_ray(quiet: bool = True) -> None:
    """Hide Ray's log lines (its warnings, its driver's C++ notes) unless asked for; call before connecting."""
    _quiet["on"] = quiet
    if quiet:
        os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "fatal")
        os.environ.setdefault("RAY_DATA_LOG_LEVEL", "ERROR")
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
    import ray

    if ray.is_initialized():
        return False, 0.0
    started = time.perf_counter()
    os.environ.setdefault("RAY_DEDUP_LOGS", "1")
    # No usage-statistics actor: one process less to start, and nothing that tries to reach the network.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    quiet = _quiet["on"]
    kwargs: dict = {"include_dashboard": False, "logging_level": logging.ERROR if quiet else logging.WARNING,
                    "log_to_driver": (not quiet) if log_to_driver is None else log_to_driver}
    address = cluster_address(address)
    with _stderr_hidden(quiet):
        if address:
            use_cluster_token(address)
            try:
                ray.init(address=address, **kwargs)
            except (ConnectionError, RuntimeError) as exc:
                raise ClusterError(_connection_problem(address, exc)) from None
        else:
            # "local" starts an embedded instance even when a `ray start` cluster runs on this machine.
            cpus = math.ceil(num_cpus) if num_cpus else (os.cpu_count() or 1)
            ray.init(address="local", num_cpus=cpus, **kwargs)
            # A new instance per run: Ray Data's three per-cluster helper actors would be three more worker
            # processes to start every time; on one node this process answers for them.
            serve_ray_data_helpers_here()
    # Ray Data logs every dataset's execution at INFO; assay prints its own progress and summary.
    logging.getLogger("ray.data").setLevel(logging.ERROR if quiet else logging.WARNING)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    if hasattr(ctx, "enable_operator_progress_bars"):
        ctx.enable_operator_progress_bars = False
    return True, time.perf_counter() - started


def shutdown_ray() -> None:
    """Disconnect from Ray, stopping the embedded instance if this process started one.

    Ray stops its autoscaler monitor after the GCS; the monitor's SIGTERM handler then reports its end to the
    GCS that is gone and is killed after Ray's one-second grace period: a second every embedded run paid at
    exit. A single local node's monitor has nothing to save, so it is killed first."""
    import ray

    try:
        monitors = ray._private.worker._global_node.all_processes.get("monitor", [])
    except AttributeError:  # not connected, or another Ray release
        monitors = []
    for info in monitors:
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            info.process.kill()
            info.process.wait(timeout=5)
    ray.shutdown()


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


def use_cluster_token(address: str) -> None:
    """Use the token at hand for a cluster ``address`` (see ``assay.runtime.prefer_token_auth``). Ray, already
    imported here, read the mode then: have it read again. The command line sets the mode before importing
    Ray instead."""
    if not prefer_token_auth(address):
        return
    try:
        from ray._raylet import AuthenticationTokenLoader, Config

        Config.initialize("")
        AuthenticationTokenLoader.instance().reset_cache()
    except (ImportError, AttributeError):  # pragma: no cover -- another Ray release
        pass


def _connection_problem(address: str, exc: Exception) -> str:
    text = " ".join(str(exc).split())
    cause = exc.__cause__ or exc.__context__
    while cause is not None:
        text += " " + " ".join(str(cause).split())
        cause = cause.__cause__ or cause.__context__
    if "InvalidAuthToken" in text or "Authentication" in text:
        return (f"--address {address}: the Ray cluster refused this driver's authentication token. Use the "
                "head's token: copy its ~/.ray/auth_token here (or set RAY_AUTH_TOKEN) and set "
                "RAY_AUTH_MODE=token, on every `ray start` and assay command.")
    return (f"--address {address}: no Ray cluster answers there ({text[:160]}). Start one with "
            "`ray start --head`, or leave --address out to use embedded Ray.")
