"""The cluster model: presets, files, Ray resource dicts, hardware strings from logs."""

from __future__ import annotations

import json

import pytest

from assay.scheduler.cluster import Cluster, find_cluster, get_cluster, preset_names

GB = 1e9


def test_presets_have_the_documented_hardware_numbers():
    a100 = get_cluster("a100-80g")
    assert (a100.devices_per_node, a100.device_memory_gb) == (8, 80.0)
    assert a100.peak_flops == pytest.approx(312e12)
    assert a100.intra_bw == pytest.approx(300 * GB)  # NVLink 3: 600 GB/s total, 300 per direction
    assert a100.inter_bw == pytest.approx(25 * GB)  # one HDR 200 Gb/s NIC per GPU
    assert get_cluster("a100-40g").device_memory_gb == 40.0
    assert get_cluster("h100-80g").peak_flops > 3 * a100.peak_flops
    assert get_cluster("v100-32g").intra_bw < a100.intra_bw
    assert set(preset_names()) >= {"a100-80g", "a100-40g", "h100-80g", "v100-32g", "cpu"}


def test_cpu_preset_describes_this_machine():
    cpu = get_cluster("cpu")
    assert cpu.device_kind == "cpu"
    assert cpu.devices_per_node >= 1
    assert 0 < cpu.device_memory_gb * cpu.devices_per_node < 1e5


def test_unknown_preset_lists_the_valid_ones():
    with pytest.raises(KeyError, match="a100-80g"):
        get_cluster("tpu-v9")


def test_aliases_and_log_spellings_resolve():
    assert get_cluster("A100").name == "a100-80g"
    assert find_cluster("NVIDIA A100-SXM4-80GB").name == "a100-80g"
    assert find_cluster("NVIDIA A100-SXM4-40GB").name == "a100-40g"
    assert find_cluster("8xH100").name == "h100-80g"
    assert find_cluster("Tesla V100-SXM2-32GB").name == "v100-32g"
    assert find_cluster("cpu").name == "cpu"
    assert find_cluster("gloo").name == "cpu"
    assert find_cluster("quantum abacus") is None
    assert find_cluster(None) is None


def test_from_file_yaml_with_preset_and_override(tmp_path):
    path = tmp_path / "cluster.yaml"
    path.write_text("preset: a100-80g\nnum_nodes: 4\ninter_bw: 12.5e9\n")
    cluster = Cluster.from_file(path)
    assert cluster.name == "a100-80g" and cluster.num_nodes == 4
    assert cluster.total_devices == 32
    assert cluster.inter_bw == pytest.approx(12.5e9)


def test_from_file_json_with_every_field(tmp_path):
    fields = get_cluster("v100-32g").to_dict() | {"name": "lab", "num_nodes": 2}
    path = tmp_path / "lab.json"
    path.write_text(json.dumps(fields))
    cluster = Cluster.from_file(path)
    assert cluster.name == "lab" and cluster.total_devices == 16


def test_from_file_rejects_unknown_and_missing_fields(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("preset: a100-80g\nflux_capacitors: 3\n")
    with pytest.raises(ValueError, match="flux_capacitors"):
        Cluster.from_file(bad)
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps({"name": "x", "device_kind": "gpu"}))
    with pytest.raises(ValueError, match="lacks"):
        Cluster.from_file(partial)


def test_from_ray_cluster_resources_with_gpus():
    resources = {"CPU": 256.0, "GPU": 16.0, "memory": 2e12, "accelerator_type:A100": 2.0,
                 "node:10.0.0.1": 1.0, "node:10.0.0.2": 1.0, "node:__internal_head__": 1.0}
    cluster = Cluster.from_ray_resources(resources)
    assert cluster.name == "a100-80g"
    assert (cluster.num_nodes, cluster.devices_per_node) == (2, 8)


def test_from_ray_nodes_list_counts_live_nodes_only():
    nodes = [
        {"Alive": True, "Resources": {"CPU": 96.0, "GPU": 8.0, "accelerator_type:H100": 1.0}},
        {"Alive": True, "Resources": {"CPU": 96.0, "GPU": 8.0, "accelerator_type:H100": 1.0}},
        {"Alive": False, "Resources": {"CPU": 96.0, "GPU": 8.0}},
    ]
    cluster = Cluster.from_ray_resources(nodes)
    assert cluster.name == "h100-80g" and cluster.total_devices == 16


def test_from_ray_resources_without_gpus_is_a_cpu_cluster():
    cluster = Cluster.from_ray_resources({"CPU": 2.0, "memory": 8e9, "node:127.0.0.1": 1.0})
    assert cluster.device_kind == "cpu"
    assert cluster.devices_per_node == 2
    assert cluster.device_memory_gb == pytest.approx(4.0)
    with pytest.raises(ValueError):
        Cluster.from_ray_resources({"memory": 1e9})


def test_cpu_slots_beyond_the_cores_share_one_node_and_its_memory():
    cpu = get_cluster("cpu")
    slots = cpu.devices_per_node * 4
    seen = cpu.for_workers(slots)
    assert seen.devices_per_node == slots and seen.num_nodes == 1
    assert seen.device_memory_gb * slots == pytest.approx(cpu.device_memory_gb * cpu.devices_per_node)
    gpu = get_cluster("a100-80g")
    assert gpu.for_workers(64) is gpu  # GPU workers are real devices on more nodes


def test_invalid_cluster_values_are_refused():
    with pytest.raises(ValueError, match="device_kind"):
        Cluster.from_dict({"preset": "a100-80g", "device_kind": "tpu"})
    with pytest.raises(ValueError, match="num_nodes"):
        get_cluster("a100-80g", num_nodes=0)
