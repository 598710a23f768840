"""The readability checks of the browser tests (readable.py) can fail: a page given a `nan` label, two
compared series in one colour and a cut label fails each of them. The walk over every page and tab that
applies them is test_dashboard_browser.py's per-view test (one page load per view serves both).

Screenshots of another database (the demo's) through the same walk:
``ASSAY_DASHBOARD_DB=demo.duckdb ASSAY_SCREENSHOTS=DIR pytest tests/e2e -k every_view``.
"""

from __future__ import annotations

import pytest
from readable import assert_readable, problems
from test_dashboard_browser import wait_for_app

pytestmark = pytest.mark.e2e


def test_the_checks_fail_on_what_they_guard(page, dashboard_url):
    page.goto(f"{dashboard_url}/")
    wait_for_app(page)
    assert_readable(page)  # the page as served reads well ...
    page.evaluate(
        """() => {
        const main = document.querySelector("[data-testid='stMain']");
        const p = document.createElement("p"); p.innerText = "nan · nan · fa8dad"; main.prepend(p);
        const gd = document.createElement("div"); gd.className = "js-plotly-plot"; main.append(gd);
        gd.data = [{meta: 'series', name: 'a', line: {color: '#1f77b4'}},
                   {meta: 'series', name: 'b', marker: {color: '#1f77b4'}}];
        const box = document.createElement("div"); box.setAttribute("data-testid", "stWidgetLabel");
        const label = document.createElement("p"); box.append(label); main.prepend(box);
        label.style.cssText = 'display:block;width:20px;overflow:hidden;white-space:nowrap';
        label.innerText = 'a label much too long for its box';
    }"""
    )
    found = problems(page)  # ... and each planted problem is found
    assert found["text"] == ["nan · nan · fa8dad"], found
    assert found["colours"] and found["clipped"], found
    with pytest.raises(AssertionError):
        assert_readable(page)
