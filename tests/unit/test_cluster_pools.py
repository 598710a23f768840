"""Node pools by GPU type: ``ClusterSpec`` from ``aws:6x4,rtx:3x8`` strings and the published presets."""

from __future__ import annotations

import pytest

from assay.scheduler.pools import CLUSTER_PRESETS, GPU_TYPES, ClusterSpec


def test_parse_pools_in_order_with_node_types():
    c = ClusterSpec.parse("aws:6x4,rtx:3x8,dgx-ext:2x8")
    assert c.total == 64 and c.types == ("aws", "rtx", "dgx-ext") and c.heterogeneous
    assert c.capacity == (4,) * 6 + (8,) * 5
    assert c.node_types[:6] == ("aws",) * 6 and c.node_types[-1] == "dgx-ext"
    assert c.gpus_of("rtx") == 24 and c.gpus_of("quad") == 0
    assert str(c) == "aws:6x4,rtx:3x8,dgx-ext:2x8"


def test_a_known_type_may_omit_its_node_shape():
    assert ClusterSpec.parse("rtx:2").capacity == (8, 8)
    assert ClusterSpec.parse(" AWS:1 ").capacity == (GPU_TYPES["aws"].gpus_per_node,)
    with pytest.raises(ValueError, match="GPUs per node"):
        ClusterSpec.parse("mystery:2")


@pytest.mark.parametrize("text", ["", "aws", "aws:0x4", "aws:2x0", "aws:two"])
def test_malformed_specs_say_the_grammar(text):
    with pytest.raises(ValueError):
        ClusterSpec.parse(text)


def test_presets_of_the_published_clusters():
    assert ClusterSpec.parse("sia-64").total == 64 and CLUSTER_PRESETS["sia-64"].heterogeneous
    assert not ClusterSpec.parse("sia-64-homogeneous").heterogeneous
    phoebe = ClusterSpec.parse("phoebe-44")
    assert phoebe.total == 44 and phoebe.types == ("rtx", "dgx-ext", "quad")


def test_uniform_matches_the_old_gpus_and_gpus_per_node():
    assert ClusterSpec.uniform(10, 4).capacity == (4, 4, 2)
    assert ClusterSpec.uniform(64, 4).capacity == (4,) * 16
    assert ClusterSpec.uniform(3, 4).capacity == (3,)
    assert not ClusterSpec.uniform(10, 4).heterogeneous


def test_types_carry_memory_and_peak_for_the_planner():
    assert GPU_TYPES["dgx-ext"].memory_gb == 40.0
    assert GPU_TYPES["dgx-ext"].peak_flops > GPU_TYPES["rtx"].peak_flops > GPU_TYPES["aws"].peak_flops


@pytest.mark.parametrize("short", ["aws", "rtx", "quad", "dgx-ext"])
def test_each_type_has_a_planner_preset_with_the_same_memory_and_peak(short):
    from assay.scheduler.cluster import get_cluster

    preset, info = get_cluster(short), GPU_TYPES[short]
    assert (preset.device_memory_gb, preset.peak_flops) == (info.memory_gb, info.peak_flops)
    assert preset.devices_per_node == info.gpus_per_node
