"""Runs pipelines on Ray (embedded by default, a cluster with ``address``) into the DuckDB store."""

from assay.runtime._inputs import InputError, expand_inputs
from assay.runtime._run import RunSummary, run_pipeline

__all__ = ["InputError", "RunSummary", "expand_inputs", "run_pipeline"]
