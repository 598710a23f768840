"""The runtime's errors, importable without Ray (the CLI names them on every command)."""

from __future__ import annotations


class ClusterError(ConnectionError):
    """The Ray cluster at ``--address`` cannot be reached or refuses this driver; the message says why."""


class StalledError(RuntimeError):
    """No record moved for the watchdog's limit; the message names the stages and what they wait for."""
