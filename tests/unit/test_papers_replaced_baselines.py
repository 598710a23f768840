"""A baseline named as what the system replaces ("... with Quokka instead of BarAttention"), and a multiple
written as a lower bound in Chinese ("2+倍"). Own-written sentences through the public path (``segment_text``
then ``extract_knowledge``)."""

from __future__ import annotations

from papers_extract import claims_by_text


def test_what_the_system_replaces_is_the_baseline():
    text = (
        "# Quokka attention\n\n"
        "We present Quokka, a sparse attention kernel.\n\n"
        "We measured up to 2.8x faster training replacing the dense layer with Quokka instead of BarAttention.\n"
    )
    c = claims_by_text(text)
    assert (c["2.8x"]["subject"], c["2.8x"]["versus"]) == ("Quokka", "BarAttention")


def test_a_multiple_written_as_a_lower_bound_in_chinese():
    c = claims_by_text("# 测试\n\nQuokka 的新版本带来了 2+倍快的 KV8 kernels。\n")
    assert (c["2+倍"]["value"], c["2+倍"]["unit"]) == (2.0, "x")
