"""The runtime's errors, importable without Ray (the CLI names them on every command)."""

from __future__ import annotations

from assay.errors import AssayError


class ClusterError(AssayError, ConnectionError):
    """The Ray cluster at ``--address`` cannot be reached or refuses this driver; the message says why."""

    code = "E041"


class StalledError(AssayError, RuntimeError):
    """No record moved for the watchdog's limit; the message names the stages and what they wait for."""

    code = "E042"
