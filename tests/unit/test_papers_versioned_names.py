"""A system's name with a dotted version (``Zeta-2.5``, ``Qwen3-0.6B``) is named whole, not cut at its dot
where the tokenizer splits it. Through the public papers path."""

from __future__ import annotations

from papers_extract import extracted_claims


def test_a_versioned_name_keeps_its_dotted_version():
    # the tokenizer cuts "Zeta-2.5" at its dot; the name the paper proposes is the whole of it
    claims = extracted_claims(
        "We present Zeta-2.5, a serving engine for large models.\n\n"
        "Zeta-2.5 serves 3.1x more requests per second than BarServe on eight GPUs.\n"
    )
    assert [(c["subject"], c["versus"]) for c in claims if c["unit"] == "x"] == [("Zeta-2.5", "BarServe")]
