"""Numeric claims: which numbers are results, their values, ranges and units, and their exact spans."""

from __future__ import annotations

import pytest

from assay.operators.papers._claims import find_claims


def found(text: str) -> list[tuple]:
    out = []
    for c in find_claims(text):
        assert text[c.start : c.end] == c.text  # spans are exact
        value = (c.value_low, c.value_high) if c.value is None else c.value
        out.append((value, c.unit))
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Strata is up to 2.3x faster", [(2.3, "x")]),
        ("a 1.9× speedup and 3.2X more", [(1.9, "x"), (3.2, "x")]),
        ("runs 1.61 x faster", [(1.61, "x")]),
        ("7.6-171$\\times$ speed-up in completion time", [((7.6, 171.0), "x")]),
        ("by $1.45\\times$ and 1.3~$\\times$ and 2\\times faster", [(1.45, "x"), (1.3, "x"), (2.0, "x")]),
        (
            "from 1.3x-2.4x, 4×–6×, and 2 to 5 times faster",
            [((1.3, 2.4), "x"), ((4.0, 6.0), "x"), ((2.0, 5.0), "x")],
        ),
        ("between 20% and 30% higher", [((20.0, 30.0), "%")]),
        ("cuts memory by 40–60% and by ~30 percent", [((40.0, 60.0), "%"), (30.0, "%")]),
        (
            "减少26.4 \\％，提高了34.2 \\％ and 91.7％ and 0.3\\％",
            [(26.4, "%"), (34.2, "%"), (91.7, "%"), (0.3, "%")],
        ),
        (
            "平均优于现有系统20.68倍，最高可达3.9倍，2~3倍，1.5至2.8倍",
            [(20.68, "x"), (3.9, "x"), ((2.0, 3.0), "x"), ((1.5, 2.8), "x")],
        ),
        (
            "训练速度提高了三倍，通信量减少了一个数量级，最多减少两个数量级",
            [(3.0, "x"), (1.0, "orders of magnitude"), (2.0, "orders of magnitude")],
        ),
        (
            "an order of magnitude less data and 2 orders of magnitude faster",
            [(1.0, "orders of magnitude"), (2.0, "orders of magnitude")],
        ),
        ("three times faster, 2.5 times the throughput, twice as fast", [(3.0, "x"), (2.5, "x"), (2.0, "x")]),
        ("by a factor of 3 and a factor of two", [(3.0, "x"), (2.0, "x")]),
        ("a speedup of 2.5 over X; 加速比达到3.1", [(2.5, "x"), (3.1, "x")]),
        ("a 2-fold speedup", [(2.0, "x")]),
        ("提高了百分之三十", [(30.0, "%")]),
        ("cuts the cost per iteration by half; 通信量减半", [(50.0, "%"), (50.0, "%")]),
        # "快一倍": faster by one whole again (twice); "缩短了一倍": cut by half
        ("从内存恢复比读磁盘快一倍以上，加载时间缩短了一倍", [(2.0, "x"), (50.0, "%")]),
        (
            "12.8~Tbps per node, 157 TFLOPS per GPU, 1,200 tokens/s and 300 GB/s",
            [(12.8, "Tbps"), (157.0, "TFLOPS"), (1200.0, "tokens/s"), (300.0, "GB/s")],
        ),
        ("effective time rose by 9.6 percentage points", [(9.6, "percentage points")]),
    ],
)
def test_claims_values_and_units(text, expected):
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "We ran every configuration 3 times and report the median.",
        "The key findings are threefold. 关键发现是三倍的。",
        "We use 5-fold cross-validation.",
        "It uses 3x3 convolutions, 1x1 kernels and a 4 x 4 mesh of 2 x 10^5 cells.",
        "Servers with 8x A100 GPUs and 4× V100, on p3.16xlarge and p3.2xlarge instances.",
        "Mixtral 8x7B and Llama-3 8x22B",
        "In 2023 we trained GPT-3 175B and a 530B model on 1,024 A100 GPUs, see [12] and Section 4.2.",
        "This survey reviews 120 papers published between 2015 and 2023 (Table 2).",
        "graphs of up to 2K nodes, 260亿参数, 1.5、2.5、8.3和20亿的模型",
        "at 90% sparsity with a 95% confidence interval",
        "on 25 Gbps networks over a 100 Gbps link",
        "我们在2020年至2023年的数据集上进行了评估",
    ],
)
def test_numbers_that_are_not_claims(text):
    assert found(text) == []


def test_bare_numbers_listed_before_a_unit_share_it():
    assert found("speedups of 1.3, 1.5 and 2.0x respectively") == [(1.3, "x"), (1.5, "x"), (2.0, "x")]
    assert found("by 12, 15, and 20%") == [(12.0, "%"), (15.0, "%"), (20.0, "%")]
    assert found("1.42x，1.39x，1.43x和1.61 x分别") == [(1.42, "x"), (1.39, "x"), (1.43, "x"), (1.61, "x")]


def test_list_sharing_ignores_years_and_table_numbers():
    assert found("In 2021 and 45% of jobs") == [(45.0, "%")]
    assert found("see Table 3 and 2.1x") == [(2.1, "x")]
    assert found("GPT-3 and 2.1x") == [(2.1, "x")]


def test_before_and_after_values_are_one_claim_of_the_value_reached():
    (claim,) = find_claims("overhead drops from 18% to 2% of training time")
    assert (claim.value, claim.unit, claim.text, claim.notes) == (2.0, "%", "18% to 2%", ["from 18%"])
    (claim,) = find_claims("utilization rises to 85% from 41%.")
    assert (claim.value, claim.notes) == (85.0, ["from 41%"])
    (claim,) = find_claims("利用率从41%提高到85%")
    assert (claim.value, claim.notes) == (85.0, ["from 41%"])
    # another verb of the rise, the ends set in bold with a blank after the "from"
    (claim,) = find_claims("命中率从 **9% 跃升至 88%**。")
    assert (claim.value, claim.value_low, claim.value_high, claim.notes) == (88.0, 9.0, 88.0, ["from 9%"])


def test_limit_stops_the_scan_early():
    text = "It is 1.5x faster. " * 5000
    claims = find_claims(text, [(0, len(text) // 2), (len(text) // 2, len(text))], limit=10)
    assert 10 < len(claims) <= 2600
