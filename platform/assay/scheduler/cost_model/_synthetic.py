"""Synthetic runs for testing and benchmarking the fit: random valid layouts of preset models whose
"measured" step time is the model's own prediction under known constants, times log-normal noise."""

from __future__ import annotations

import math
import random

from assay.scheduler.cluster import get_cluster
from assay.scheduler.cost_model._analytic import estimate_step
from assay.scheduler.cost_model._fit import Observation
from assay.scheduler.cost_model._params import CostParams
from assay.scheduler.layout import Layout
from assay.scheduler.model_spec import get_model

_GPU_MODELS = ("gpt-1.7b", "gpt-3.6b", "gpt-7.5b", "gpt-18b", "gpt-39b", "gpt-175b")
_CPU_MODELS = ("gpt-tiny", "gpt-mini")


def synthetic_observations(n: int, truth: dict[str, CostParams], *, noise: float = 0.03, seed: int = 0
                           ) -> list[Observation]:
    """``n`` runs spread over the hardware named in ``truth`` (preset names), each a random layout that
    fits in memory; measured = predicted under ``truth`` x exp(N(0, noise))."""
    rng = random.Random(seed)
    hardware = sorted(truth)
    out: list[Observation] = []
    attempts = 0
    while len(out) < n:
        attempts += 1
        if attempts > 100 * n + 1000:
            raise RuntimeError("could not draw enough layouts that fit")
        name = hardware[len(out) % len(hardware)]
        cluster = get_cluster(name)
        model = get_model(rng.choice(_CPU_MODELS if cluster.device_kind == "cpu" else _GPU_MODELS))
        tp = rng.choice([t for t in (1, 2, 4, 8) if model.heads % t == 0])
        pp = rng.choice([p for p in (1, 2, 4, 8) if p <= model.layers])
        dp = rng.choice((1, 2, 4, 8, 16, 32) if cluster.device_kind == "gpu" else (1, 2))
        b = rng.choice((1, 2, 4))
        layout = Layout(dp, tp, pp, b, dp * b * rng.choice((1, 2, 4, 8, 32)), recompute=rng.random() < 0.5)
        if layout.problems(model):
            continue
        sized = cluster.for_workers(layout.world_size)
        est = estimate_step(model, layout, sized, truth[name])
        if not est.fits:
            continue
        measured = est.step_time_s * math.exp(rng.gauss(0.0, noise))
        out.append(Observation(f"synthetic-{len(out)}", model, layout, sized, measured))
    return out
