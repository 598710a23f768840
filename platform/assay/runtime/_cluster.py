"""Connecting to Ray: an embedded local instance by default, a running cluster with --address."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from collections.abc import Iterator

import ray

from assay.runtime._auth import prefer_token_auth
from assay.runtime._errors import ClusterError

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


def ensure_ray(address: str | None = None, *, num_cpus: int | None = None) -> tuple[bool, float]:
    """Connect to (or start) Ray. Returns (whether this call started it, seconds it took)."""
    if ray.is_initialized():
        return False, 0.0
    started = time.perf_counter()
    os.environ.setdefault("RAY_DEDUP_LOGS", "1")
    # No usage-statistics actor: one process less to start, and nothing that tries to reach the network.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    quiet = _quiet["on"]
    kwargs: dict = {"include_dashboard": False, "logging_level": logging.ERROR if quiet else logging.WARNING,
                    "log_to_driver": not quiet}
    with _stderr_hidden(quiet):
        if address:
            use_cluster_token(address)
            try:
                ray.init(address=address, **kwargs)
            except (ConnectionError, RuntimeError) as exc:
                raise ClusterError(_connection_problem(address, exc)) from None
        else:
            # "local" starts an embedded instance even when a `ray start` cluster runs on this machine.
            ray.init(address="local", num_cpus=num_cpus or os.cpu_count() or 1, **kwargs)
    # Ray Data logs every dataset's execution at INFO; assay prints its own progress and summary.
    logging.getLogger("ray.data").setLevel(logging.ERROR if quiet else logging.WARNING)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    if hasattr(ctx, "enable_operator_progress_bars"):
        ctx.enable_operator_progress_bars = False
    return True, time.perf_counter() - started


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
    """Use the token at hand for a cluster ``address`` (see ``_auth``). Ray, already imported here, read
    the mode then: have it read again. The command line sets the mode before importing Ray instead."""
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


def ship_by_value(module_name: str | None) -> None:
    """Pickle a user's pipeline module by value, so its operators reach workers that cannot import it."""
    if not module_name or module_name.startswith("assay."):
        return
    from ray import cloudpickle

    module = sys.modules.get(module_name)
    if module is not None:
        cloudpickle.register_pickle_by_value(module)


def node_cpus() -> list[float]:
    """CPUs of each live node of the connected cluster."""
    cpus = [float(n["Resources"].get("CPU", 0)) for n in ray.nodes() if n.get("Alive")]
    return [c for c in cpus if c > 0] or [1.0]


def spread_one_per_block(ds: ray.data.Dataset, num_cpus: float, rows: int = 1) -> ray.data.Dataset:
    """``ds`` streamed ``rows`` records per block (one by default), its repartition tasks asking for ``num_cpus``.

    Ray Data gives a streaming repartition a whole CPU per task and no argument to ask for less; on a
    1-CPU node beside an actor it would never get one (the run hangs). With the CPUs of the task stage
    before it, it also fuses into that stage (Ray fuses map -> repartition when their resources match).
    """
    ds = ds.repartition(target_num_rows_per_block=rows)
    op = ds._logical_plan.dag
    if hasattr(op, "ray_remote_args"):
        object.__setattr__(op, "ray_remote_args", {**op.ray_remote_args, "num_cpus": num_cpus})
    return ds
