"""Runs pipelines on Ray (embedded by default, a cluster with ``address``) into the DuckDB store."""

from assay.runtime._cluster import ClusterError, ensure_ray, quiet_ray
from assay.runtime._inputs import InputError, expand_inputs
from assay.runtime._run import RunSummary, run_pipeline
from assay.runtime._watchdog import StalledError

__all__ = ["ClusterError", "InputError", "RunSummary", "StalledError", "ensure_ray", "expand_inputs", "quiet_ray", "run_pipeline"]
