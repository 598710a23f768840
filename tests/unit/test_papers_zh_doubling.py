"""Chinese says a doubling with a verb: 翻倍 and 翻一番 are twice, 翻两番 four times; a resource that doubles (the
GPUs a run is given) is a setting, no claim. Texts written for the test."""

from __future__ import annotations

from papers_extract import extracted_claims


def _values(text: str) -> list[tuple[float, str]]:
    return [(c["value"], c["unit"]) for c in extracted_claims(text)]


def test_a_doubling_said_with_its_verb_is_twice():
    assert _values("与 BarServe 相比，FooServe 的解码吞吐量接近翻倍。") == [(2.0, "x")]
    assert _values("启用流水线后，FooTrain 的训练速度翻了一番。") == [(2.0, "x")]


def test_doubled_twice_is_four_times():
    assert _values("在长序列上，FooTrain 的吞吐量翻两番。") == [(4.0, "x")]


def test_a_resource_that_doubles_is_a_setting():
    assert _values("当 GPU 数量翻倍时，我们重新调整学习率。") == []


def test_the_claim_keeps_its_baseline():
    (claim,) = extracted_claims("与 BarServe 相比，FooServe 的解码吞吐量接近翻倍。")
    assert (claim["subject"], claim["versus"]) == ("FooServe", "BarServe")


def test_a_comparison_closing_a_list_item_holds_with_its_links_after_it():
    text = (
        "## 推理\n\n"
        "- FooInfer 解码速度接近翻倍，与 BarServe 的离线推理性能相比 [[代码]](https://example.org/foo) "
        "[[博客]](https://example.org/blog)\n"
    )
    (claim,) = extracted_claims(text)
    assert claim["value"] == 2.0
    assert claim["versus"].startswith("BarServe")
