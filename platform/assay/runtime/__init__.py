"""Runs pipelines into the DuckDB store, on Ray (embedded, or a cluster with ``address``) or in this process
(the local runner, for small inputs): ``run_pipeline(..., runner="auto"|"local"|"ray")``.

The errors load without Ray (``ClusterError`` and ``prefer_token_auth`` are the Ray boundary's,
``assay.ray_session``, named here too); everything else loads on first use, so a command that only needs to name an
error (every CLI command does) does not pay for importing Ray, DuckDB and pandas.
"""

from __future__ import annotations

import importlib
from typing import Any

from assay.ray_session import ClusterError, prefer_token_auth
from assay.runtime._errors import StalledError
from assay.runtime._inputs import InputError, expand_inputs

_LAZY = {"RunSummary": "_run", "run_pipeline": "_run"}

__all__ = ["ClusterError", "InputError", "RunSummary", "StalledError", "expand_inputs", "prefer_token_auth",
           "run_pipeline"]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"assay.runtime.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'assay.runtime' has no attribute {name!r}")
