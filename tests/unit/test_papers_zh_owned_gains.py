"""Chinese "X 的 N% 增益" (X's gain of N%) is X's own change, not a share of X's figure: X is no baseline. "是X的
1.6倍" (1.6 times X's) still sets the number against X."""

from __future__ import annotations

from papers_extract import extracted_claims

_OWN = "# 推理加速\n\n我们介绍 Quill 优化方案。\n\n"


def _got(text: str) -> list[tuple[float, str | None]]:
    return [(c["value"], c["versus"]) for c in extracted_claims(_OWN + text) if c["unit"] in ("x", "%")]


def test_a_gain_of_x_names_no_baseline():
    assert _got("真正受益的只有 decoder head 的 41% 增益，encoder 的 3% 提升不值得额外的编译时间。\n") == [
        (41.0, None),
        (3.0, None),
    ]


def test_a_multiple_of_x_s_figure_keeps_x_as_baseline():
    assert _got("Quill 的吞吐量是 BarServe 的 1.6 倍。\n") == [(1.6, "BarServe")]
