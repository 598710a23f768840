"""The Claims page's interval chart: each kind of evidence a point with its bar, coloured by its verdict, and
the claimed value beside them; the verdict's reason on one line."""

from __future__ import annotations

from assay.dashboards import _verdicts


def _check(verdict, observed, low, high, reason="", why=None):
    return {"verdict": verdict, "observed": observed, "low": low, "high": high, "unit": "x", "reason": reason,
            "evidence": {"why": why} if why else {}}


def test_each_kind_is_a_point_with_its_bar_beside_the_claimed_value():
    by_kind = {"runs": _check("consistent", 1.4, 1.3, 1.5), "reproduction": _check("inconclusive", 1.1, 0.7, 1.8),
               "cost_model": _check("untestable", None, None, None)}
    fig = _verdicts.interval_figure(1.5, "x", by_kind)
    points = {t.y[0]: t for t in fig.data}
    assert set(points) == {"Measured (runs)", "Reproduced"}  # nothing to draw for an untestable check
    runs = points["Measured (runs)"]
    assert (runs.x[0] - runs.error_x.arrayminus[0], runs.x[0] + runs.error_x.array[0]) == (1.3, 1.5)
    assert runs.marker.color != points["Reproduced"].marker.color
    assert any(s.x0 == 1.5 for s in fig.layout.shapes)  # the claim


def test_a_reason_is_one_line_its_judgement_where_stored():
    long = "Scaled-down reproduction (pp=2 vs tp=2 on 2 workers) " * 10
    assert _verdicts.one_line(_check("consistent", 1, 1, 1, long, why="claimed 1.2x lies inside")) == (
        "claimed 1.2x lies inside")
    cut = _verdicts.one_line(_check("consistent", 1, 1, 1, long))
    assert len(cut) <= _verdicts.REASON_CHARS and "\n" not in cut and cut.endswith("…")
