"""Workloads for the simulator: CSV files (assay's columns or AdaptDL's), the eight packaged AdaptDL
workloads of Pollux's evaluation, Philly-shaped generated ones, and the catalogue of job profiles.

    from assay.scheduler.workloads import load_workload, adaptdl_workload, philly_workload
    named_workload("philly:160")   # as `assay simulate --workload` names one: a CSV path, philly:N, adaptdl:N
"""

from assay.scheduler.workloads._csv import (
    ADAPTDL_COLUMNS,
    ADAPTDL_WORKLOADS,
    ASSAY_COLUMNS,
    WorkloadError,
    adaptdl_workload,
    load_workload,
)
from assay.scheduler.workloads._from_runs import StoredTypedProfile, fit_typed_profiles
from assay.scheduler.workloads._named import named_workload
from assay.scheduler.workloads._philly import GPU_MIX, philly_workload
from assay.scheduler.workloads._profiles import (
    ADAPTDL_APPS,
    ADAPTDL_TRACES,
    DATA_DIR,
    AnalyticProfile,
    MeasuredProfile,
    Profile,
    canonical,
    catalogue,
    get_profile,
)
from assay.scheduler.workloads._trace import TraceJob, Workload
from assay.scheduler.workloads._typed import (
    CALIBRATIONS,
    NO_CALIBRATION,
    SIA_CALIBRATION,
    Calibration,
    TypedProfile,
    typed_profile,
)

__all__ = [
    "ADAPTDL_APPS",
    "CALIBRATIONS",
    "NO_CALIBRATION",
    "SIA_CALIBRATION",
    "Calibration",
    "TypedProfile",
    "typed_profile",
    "StoredTypedProfile",
    "fit_typed_profiles",
    "ADAPTDL_COLUMNS",
    "ADAPTDL_TRACES",
    "ADAPTDL_WORKLOADS",
    "ASSAY_COLUMNS",
    "AnalyticProfile",
    "DATA_DIR",
    "GPU_MIX",
    "TraceJob",
    "MeasuredProfile",
    "Profile",
    "Workload",
    "WorkloadError",
    "adaptdl_workload",
    "canonical",
    "catalogue",
    "get_profile",
    "load_workload",
    "named_workload",
    "philly_workload",
]
