"""``CostModel``: the analytic model with one set of constants per kind of hardware (fitted or default)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from assay.scheduler.cluster import Cluster
from assay.scheduler.cost_model._analytic import StepEstimate, estimate_step
from assay.scheduler.cost_model._params import CostParams, default_params
from assay.scheduler.layout import Layout
from assay.scheduler.model_spec import ModelSpec

MODEL_VERSION = "assay-analytic-v1"


class CostModel:
    """Predicts step time and memory per device. Constants are looked up by the cluster's name (the
    hardware a fit saw); a cluster with none uses the analytic defaults of its device kind."""

    def __init__(self, params: Mapping[str, CostParams] | None = None, *, fit_id: str | None = None) -> None:
        self._params = dict(params or {})
        self.fit_id = fit_id

    @classmethod
    def default(cls) -> CostModel:
        return cls()

    def params_for(self, cluster: Cluster) -> CostParams:
        return self._params.get(cluster.name) or default_params(cluster.device_kind)

    @property
    def fitted_hardware(self) -> list[str]:
        return sorted(self._params)

    def with_params(self, hardware: str, params: CostParams) -> CostModel:
        return CostModel({**self._params, hardware: params}, fit_id=self.fit_id)

    def with_fit_id(self, fit_id: str | None) -> CostModel:
        return CostModel(self._params, fit_id=fit_id)

    def estimate(self, model: ModelSpec, layout: Layout, cluster: Cluster) -> StepEstimate:
        return estimate_step(model, layout, cluster, self.params_for(cluster))

    def step_time(self, model: ModelSpec, layout: Layout, cluster: Cluster) -> float:
        return self.estimate(model, layout, cluster).step_time_s

    # -- serialisation (the ``params`` column of ``cost_model_fits``) ------------------------------------
    def params_json(self, extra: Mapping[str, Any] | None = None) -> str:
        body = {"model": MODEL_VERSION, "params": {k: p.to_dict() for k, p in sorted(self._params.items())}}
        body.update(extra or {})
        return json.dumps(body, sort_keys=True)

    @classmethod
    def from_params_json(cls, text: str | Mapping[str, Any], *, fit_id: str | None = None) -> CostModel:
        """A model from a stored fit; constants for hardware it does not list fall back to defaults."""
        body = json.loads(text) if isinstance(text, str) else dict(text)
        params = {}
        for hardware, values in (body.get("params") or {}).items():
            base = default_params("cpu" if hardware == "cpu" else "gpu")
            params[hardware] = CostParams.from_dict(values, base=base)
        return cls(params, fit_id=fit_id)

    def __repr__(self) -> str:
        return f"CostModel(fit_id={self.fit_id!r}, fitted={self.fitted_hardware})"
