"""The Ray boundary's error, importable without Ray (the CLI names it on every command)."""

from __future__ import annotations

from assay.errors import AssayError


class ClusterError(AssayError, ConnectionError):
    """The Ray cluster at ``--address`` cannot be reached or refuses this driver; the message says why."""

    code = "E041"
