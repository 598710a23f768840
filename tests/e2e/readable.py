"""What a newcomer sees, checked in the browser: no missing value shown as a word (`nan`, `None`, `NaN`) in
the page's text, in a chart's labels or in its hover texts; no two compared series of a chart in one colour;
no control or label cut off (its text wider than its box) or pushed past the page's right edge.

The checks read the rendered page (the DOM and each Plotly chart's own figure data), so they hold for any
database: the sample of the tests or the demo's.
"""

from __future__ import annotations

#: Runs in the page; returns what a reader would stumble on, per kind of problem.
PROBLEMS_JS = r"""
() => {
  const word = /(^|[^A-Za-z0-9_])(nan|NaN|None)(?![A-Za-z0-9_])/;
  const out = {text: [], charts: [], colours: [], clipped: []};
  const main = document.querySelector("[data-testid='stMain']");
  for (const line of (main ? main.innerText : "").split("\n")) {
    if (word.test(line)) out.text.push(line.slice(0, 160));
  }
  const strings = (v) => Array.isArray(v) ? v.flat(3) : [v];
  document.querySelectorAll(".js-plotly-plot").forEach((gd, i) => {
    const title = (gd.layout && gd.layout.title && (gd.layout.title.text || gd.layout.title)) || `chart ${i}`;
    const seen = {};
    for (const t of gd.data || []) {
      // An event marker's hover quotes its log line ("loss is NaN"): data, not a label; its name is checked.
      const fields = t.meta === "events" ? ["name"] : ["name", "text", "hovertext", "hovertemplate"];
      for (const field of fields) {
        for (const s of strings(t[field])) {
          if (typeof s === "string" && word.test(s.replace(/%\{[^}]*\}/g, ""))) {
            out.charts.push(`${title}: ${field} ${s.slice(0, 120)}`);
          }
        }
      }
      for (const x of [...strings(t.x), ...strings(t.y)]) {
        if (typeof x === "string" && word.test(x)) out.charts.push(`${title}: axis label ${x}`);
      }
      if (t.meta === "series") {
        const c = (t.line && t.line.color) || (t.marker && t.marker.color);
        if (typeof c === "string") {
          if (seen[c]) out.colours.push(`${title}: ${seen[c]} and ${t.name || "?"} are both ${c}`);
          seen[c] = t.name || "?";
        }
      }
    }
    gd.querySelectorAll("text").forEach((el) => {
      if (word.test(el.textContent)) out.charts.push(`${title}: drawn text ${el.textContent.slice(0, 120)}`);
    });
  });
  const right = document.documentElement.clientWidth;
  const controls = [
    "[data-testid='stWidgetLabel'] p", "[data-testid='stMetricLabel'] p", "[data-testid='stMetricValue'] div",
    "[data-baseweb='select'] [value]", "[data-baseweb='tag'] span", "[data-testid='stBaseButton-secondary'] p",
    "[data-testid='stTab'] p", "[data-testid='stRadio'] label p",
  ];
  for (const el of main ? main.querySelectorAll(controls.join(",")) : []) {
    if (!el.offsetParent) continue;  // hidden (another tab, a closed expander)
    const box = el.getBoundingClientRect();
    const cut = el.scrollWidth > el.clientWidth + 1 || box.right > right + 1;
    if (cut) out.clipped.push(`${(el.innerText || el.getAttribute("value") || "").slice(0, 80)} `
      + `(${el.scrollWidth}px of text in ${el.clientWidth}px)`);
  }
  return out;
}
"""


def problems(page) -> dict[str, list[str]]:
    return page.evaluate(PROBLEMS_JS)


def assert_readable(page) -> None:
    """Fail with every problem found on the page as it is now (missing words, same colours, cut controls)."""
    found = problems(page)
    assert not any(found.values()), {k: v for k, v in found.items() if v}
