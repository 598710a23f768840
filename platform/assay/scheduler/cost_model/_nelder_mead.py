"""A small Nelder-Mead minimiser (scipy is not a dependency), with the dimension-adaptive coefficients
of Gao and Han (2012) so it stays effective for the cost model's eight constants."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Minimum:
    x: np.ndarray
    value: float
    evaluations: int
    converged: bool


def minimize(fun: Callable[[np.ndarray], float], x0: Sequence[float], *, step: float = 0.5,
             max_evals: int = 4000, xtol: float = 1e-4, ftol: float = 1e-9) -> Minimum:
    """Minimise ``fun`` from ``x0``; the initial simplex moves each coordinate by ``step``."""
    x0 = np.asarray(x0, dtype=float)
    n = len(x0)
    if n == 0:
        return Minimum(x0, float(fun(x0)), 1, True)
    alpha, gamma = 1.0, 1.0 + 2.0 / n
    rho, sigma = 0.75 - 1.0 / (2 * n), 1.0 - 1.0 / n
    simplex = np.vstack([x0] + [x0 + step * np.eye(n)[i] for i in range(n)])
    values = np.array([_safe(fun, x) for x in simplex])
    evals = n + 1
    converged = False
    while evals < max_evals:
        order = np.argsort(values)
        simplex, values = simplex[order], values[order]
        if (np.max(np.abs(simplex[1:] - simplex[0])) <= xtol
                and np.max(np.abs(values[1:] - values[0])) <= ftol):
            converged = True
            break
        centroid = simplex[:-1].mean(axis=0)
        worst = simplex[-1]
        reflected = centroid + alpha * (centroid - worst)
        f_r = _safe(fun, reflected)
        evals += 1
        if values[0] <= f_r < values[-2]:
            simplex[-1], values[-1] = reflected, f_r
            continue
        if f_r < values[0]:
            expanded = centroid + gamma * (reflected - centroid)
            f_e = _safe(fun, expanded)
            evals += 1
            if f_e < f_r:
                simplex[-1], values[-1] = expanded, f_e
            else:
                simplex[-1], values[-1] = reflected, f_r
            continue
        if f_r < values[-1]:
            contracted = centroid + rho * (reflected - centroid)
        else:
            contracted = centroid + rho * (worst - centroid)
        f_c = _safe(fun, contracted)
        evals += 1
        if f_c < min(f_r, values[-1]):
            simplex[-1], values[-1] = contracted, f_c
            continue
        simplex[1:] = simplex[0] + sigma * (simplex[1:] - simplex[0])
        values[1:] = [_safe(fun, x) for x in simplex[1:]]
        evals += n
    best = int(np.argmin(values))
    return Minimum(simplex[best].copy(), float(values[best]), evals, converged)


def _safe(fun: Callable[[np.ndarray], float], x: np.ndarray) -> float:
    value = float(fun(x))
    return value if np.isfinite(value) else float("inf")
