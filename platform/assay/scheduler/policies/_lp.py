"""A small exact linear-program solver for the allocation programs of the baselines (Gavel's policies are
linear programs over the jobs' per-type throughputs); the project has no LP library, and these programs
are small (one row per active job and per GPU type).

``maximize c @ x  subject to  A @ x <= b, x >= 0`` with ``b >= 0``: the origin is feasible, so the
tableau simplex needs no first phase. Bland's rule (the lowest-index improving column, the lowest-index
row among ties of the ratio test) cannot cycle on the degenerate vertices these programs have plenty of
(many jobs with equal throughputs).
"""

from __future__ import annotations

import numpy as np


def maximize(c: np.ndarray, a: np.ndarray, b: np.ndarray, *, tol: float = 1e-9,
             max_pivots: int | None = None) -> np.ndarray:
    """An optimal ``x`` of ``max c @ x, a @ x <= b, x >= 0`` (``b >= 0``). Raises ``ValueError`` when the
    program is unbounded, ``RuntimeError`` when the pivot budget runs out."""
    c = np.asarray(c, dtype=float)
    a = np.atleast_2d(np.asarray(a, dtype=float))
    b = np.asarray(b, dtype=float)
    m, n = a.shape
    if c.shape != (n,) or b.shape != (m,):
        raise ValueError(f"shapes do not agree: c {c.shape}, a {a.shape}, b {b.shape}")
    if (b < 0).any():
        raise ValueError("b must be non-negative (the origin must be feasible)")
    # tableau: [a | I | b] over the constraints, the objective row [-c | 0 | 0] last
    t = np.zeros((m + 1, n + m + 1))
    t[:m, :n] = a
    t[:m, n:n + m] = np.eye(m)
    t[:m, -1] = b
    t[m, :n] = -c
    basis = list(range(n, n + m))
    budget = max_pivots if max_pivots is not None else 50 * (m + n) + 100
    for _ in range(budget):
        improving = np.flatnonzero(t[m, :-1] < -tol)
        if improving.size == 0:
            x = np.zeros(n + m)
            x[basis] = t[:m, -1]
            return np.clip(x[:n], 0.0, None)
        col = int(improving[0])
        column = t[:m, col]
        rows = np.flatnonzero(column > tol)
        if rows.size == 0:
            raise ValueError("the program is unbounded")
        ratios = t[rows, -1] / column[rows]
        best = ratios.min()
        ties = rows[ratios <= best + tol]
        row = int(min(ties, key=lambda r: basis[r]))
        t[row] /= t[row, col]
        others = np.arange(m + 1) != row
        t[others] -= np.outer(t[others, col], t[row])
        basis[row] = col
    raise RuntimeError("simplex: pivot budget exhausted")
