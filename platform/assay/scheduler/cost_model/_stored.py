"""The cost model and the store: fitting to the runs in the knowledge graph, recording fits, loading the
latest. The one module of the cost model that does I/O, and only through ``assay.store``."""

from __future__ import annotations

import math
from typing import Any

from assay.scheduler.cost_model._fit import FitReport, fit, fit_id_of, observations_from_rows
from assay.scheduler.cost_model._model import CostModel
from assay.store import write_rows
from assay.store.queries_costmodel import latest_fit, runs_for_fit


def latest_model(db: Any = None) -> CostModel:
    """The latest fit stored in ``cost_model_fits``, or the analytic defaults when there is none."""
    row = latest_fit(db)
    if row is None:
        return CostModel.default()
    try:
        return CostModel.from_params_json(row["params"], fit_id=row["fit_id"])
    except (ValueError, TypeError, KeyError):
        return CostModel.default()


def fit_from_db(db: Any = None, *, store: bool = True, default_hardware: str | None = None,
                base: CostModel | None = None) -> tuple[CostModel, FitReport]:
    """Fit to the runs in the knowledge graph and (``store``) record the fit in ``cost_model_fits``.

    The fit's id is a hash of the runs and their step times, so refitting the same runs writes nothing
    new; a new run changes the id and adds a row. With no usable runs the analytic defaults come back
    (and nothing is stored)."""
    frame = runs_for_fit(db)
    observations, skipped = observations_from_rows(frame.to_dict("records"), default_hardware=default_hardware)
    model, report = fit(observations, base=base, skipped=skipped)
    if store and report.n_runs:
        write_rows(db, {"cost_model_fits": [report.row(model)]})
    return model, report


def refit_if_new_runs(db: Any = None, *, default_hardware: str | None = None
                      ) -> tuple[CostModel, FitReport | None]:
    """The cost model for the runs in the graph, fitting only when they changed since the latest stored
    fit (cheap enough to call whenever a run ends). Returns the model and the new fit's report, or None
    when the stored fit is current (or there are no runs to fit)."""
    frame = runs_for_fit(db)
    observations, skipped = observations_from_rows(frame.to_dict("records"), default_hardware=default_hardware)
    observations = [o for o in observations if o.step_time_s > 0 and math.isfinite(o.step_time_s)]
    latest = latest_fit(db)
    if not observations or (latest is not None and latest["fit_id"] == fit_id_of(observations, skipped)):
        return latest_model(db), None
    return fit_from_db(db, default_hardware=default_hardware)
