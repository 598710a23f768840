"""A range whose line breaks before the dash ("1.40x" / "– 3.20x", as a PDF or a wrapped Markdown line gives it)
is one range claim, as it is when the line breaks after the dash; a hyphen opening a list item is no dash."""

from papers_extract import extracted_claims


def test_ratio_range_broken_before_the_dash_is_one_claim():
    claims = extracted_claims("FooSys speeds up training (1.40x\n– 3.20x across sizes) over BarRun.\n")
    ratios = [c for c in claims if c["unit"] == "x"]
    assert len(ratios) == 1, ratios
    assert (ratios[0]["value_low"], ratios[0]["value_high"]) == (1.4, 3.2)


def test_percent_range_broken_before_the_dash_is_one_claim():
    claims = extracted_claims("QuxServe lowers tail latency by 18%\n–\t35% compared with the default router.\n")
    pcts = [c for c in claims if c["unit"] == "%"]
    assert len(pcts) == 1, pcts
    assert (pcts[0]["value_low"], pcts[0]["value_high"]) == (18.0, 35.0)


def test_a_list_item_after_a_line_is_not_the_end_of_a_range():
    claims = extracted_claims("Results:\n\n- FooSys is 1.5x faster than BarRun.\n- FooSys uses 30% less memory.\n")
    assert sorted(c["value"] for c in claims if c["unit"] == "x") == [1.5]
