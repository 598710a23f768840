"""A plot's tick and bar labels read as runs of short lines, some fused by the reader, and multiples that set a
point of a swept setting: no claims, through the whole extraction path. The texts are the tests' own."""

from __future__ import annotations

from papers_extract import claims_in_order

BARS = """Wren: Frozen-Aware Pipelines

5.2 Stage Balance
Figure 6 compares the measured and the shortest step time of each model mix.
Step Time (s)
Measured step time
Shortest step time
9
+5.2%
+19.0%
8.41s8.02s
+2.7%
7.95s
+21.6%
6
5.12s4.98s
3
0
Wren balances the stages and cuts the step time by 14% over Lark.
"""

TICKS = """Heron meets its deadlines across the sweep.
Attainment
0.90.7
0.50.3
1.0x
1.2x Slack Scale1.4x
1.6x
Heron (ours)Lark (SP=2)
Heron is 1.3x faster than Lark at the tightest slack.
"""


def test_bar_labels_among_fused_numbers_are_no_claims():
    claims = claims_in_order(BARS)
    assert [(c["value"], c["unit"]) for c in claims if c["unit"] in ("%", "x")] == [(14.0, "%")]


def test_tick_labels_beside_fused_ticks_are_no_claims():
    claims = claims_in_order(TICKS)
    assert [(c["value"], c["unit"]) for c in claims if c["unit"] == "x"] == [(1.3, "x")]


def test_a_flattened_table_one_cell_a_line_keeps_its_cells():
    text = """Kite: Faster Shuffles

Table 3. Speedup of Kite over Lark per workload.
Sort
2.31x
Join
1.84x
Scan
3.07x
"""
    values = [c["value"] for c in claims_in_order(text) if c["unit"] == "x"]
    assert values == [2.31, 1.84, 3.07]


def test_a_multiple_closing_a_bracket_after_at_is_the_point_it_was_measured_at():
    text = (
        "Heron admits more requests than Lark (up to 0.14 more on the skewed mix at 1.5×), and it cuts "
        "the tail latency by 11%."
    )
    claims = claims_in_order(text)
    assert [(c["value"], c["unit"]) for c in claims if c["unit"] in ("%", "x")] == [(11.0, "%")]


def test_a_unit_multiple_in_a_sentence_that_compares_nothing_is_a_reference_point():
    text = (
        "Heron stays ahead from 1.0× as the arrival rate rises to 18 requests per minute. "
        "At the same rate it is 1.0× as fast as the oracle and 1.6× faster than Lark."
    )
    claims = claims_in_order(text)
    assert [c["value"] for c in claims if c["unit"] == "x"] == [1.0, 1.6]
    assert claims[0]["start"] == text.index("1.0× as fast")
