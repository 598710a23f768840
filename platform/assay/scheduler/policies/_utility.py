"""What the goodput policies on one GPU type (``_goodput``) and on several (``_goodput_typed``) share: the
Box-Cox utility of a speedup and the upper concave hull along which workers are handed out. Its own module
so the two policies import it and not each other."""

from __future__ import annotations

import numpy as np

_SMOOTH = 1e-2  # keeps U_p finite at a speedup of 0 for p <= 0


def utility(speedup: np.ndarray, p: float) -> np.ndarray:
    s = np.asarray(speedup, dtype=float) + _SMOOTH
    if abs(p) < 1e-9:
        return np.log(s)
    return (s ** p - 1.0) / p


def hull(ks: list[int], values: list[float]) -> list[tuple[int, int, float]]:
    """Segments (from index, to index, value per worker) of the upper concave hull of (ks, values) from
    the first point, keeping only rising segments."""
    hull: list[int] = [0]
    for i in range(1, len(ks)):
        ki, vi = ks[i], values[i]
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            # b lies on or under the line a -> i: drop it.
            if (values[b] - values[a]) * (ki - ks[a]) <= (vi - values[a]) * (ks[b] - ks[a]):
                hull.pop()
            else:
                break
        hull.append(i)
    segments = []
    for a, b in zip(hull, hull[1:], strict=False):
        slope = (values[b] - values[a]) / (ks[b] - ks[a])
        if slope <= 0:
            break
        segments.append((a, b, slope))
    return segments
