"""The runtime's errors, importable without Ray (the CLI names them on every command); ``ClusterError`` is
the Ray boundary's (``assay.ray_session``)."""

from __future__ import annotations

from assay.errors import AssayError


class StalledError(AssayError, RuntimeError):
    """No record moved for the watchdog's limit; the message names the stages and what they wait for."""

    code = "E042"
