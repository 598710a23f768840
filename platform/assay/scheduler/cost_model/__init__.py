"""The cost model: step time and memory per device of a training job under a parallel layout.

    from assay.scheduler.cost_model import CostModel
    from assay.scheduler.layout import Layout
    est = CostModel.default().estimate(get_model("gpt-175b"), Layout(dp=8, tp=8, pp=16, micro_batch_size=1,
                                       global_batch=1536), get_cluster("a100-80g"))
    est.step_time_s, est.tflops_per_device, est.memory_bytes, est.fits

``fit_from_db(db)`` fits the constants to the runs in the knowledge graph and records the fit;
``refit_if_new_runs(db)`` does so only when runs changed since the latest fit; ``latest_model(db)`` loads
the latest one (analytic defaults when none exists).
"""

from assay.scheduler.cost_model._analytic import (
    Rates,
    StepEstimate,
    estimate_step,
    even_stages,
    layer_costs,
    precision_bytes,
    stage_extras,
)
from assay.scheduler.cost_model._fit import (
    FITTED,
    FitReport,
    GroupReport,
    Observation,
    fit,
    observations_from_rows,
)
from assay.scheduler.cost_model._model import MODEL_VERSION, CostModel
from assay.scheduler.cost_model._params import CPU_DEFAULTS, GPU_DEFAULTS, CostParams, default_params
from assay.scheduler.cost_model._stored import fit_from_db, latest_model, refit_if_new_runs

__all__ = [
    "CPU_DEFAULTS",
    "CostModel",
    "CostParams",
    "FITTED",
    "FitReport",
    "GPU_DEFAULTS",
    "GroupReport",
    "MODEL_VERSION",
    "Observation",
    "Rates",
    "StepEstimate",
    "default_params",
    "estimate_step",
    "even_stages",
    "fit",
    "fit_from_db",
    "latest_model",
    "layer_costs",
    "observations_from_rows",
    "precision_bytes",
    "refit_if_new_runs",
    "stage_extras",
]
