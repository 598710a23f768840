"""A stall's message asks Ray's state API for the running stages only where the cluster runs a dashboard:
asked on a cluster without one, the state API looks for it for 40 s before the message can be printed.
``ensure_ray`` notes what ``ray.init`` returned; the state API is stood in for here, Ray is not started."""

from __future__ import annotations

import types

import pytest
import ray
import ray.util.state

from assay.ray_session import _data

GCS = "10.0.0.9:6379"


@pytest.fixture
def connected(monkeypatch):
    """This process 'connected' to the cluster at GCS; what the state API was asked, recorded."""
    asked: list[dict] = []

    def list_tasks(**kwargs):
        asked.append(kwargs)
        return [{"name": "MapBatches(stuck_reader)"}]

    def list_actors(**kwargs):
        asked.append(kwargs)
        return [{"class_name": "MapWorker(MapBatches(tagger))"}]

    monkeypatch.setattr(ray, "is_initialized", lambda: True)
    monkeypatch.setattr(ray, "get_runtime_context", lambda: types.SimpleNamespace(gcs_address=GCS))
    monkeypatch.setattr(ray.util.state, "list_tasks", list_tasks)
    monkeypatch.setattr(ray.util.state, "list_actors", list_actors)
    monkeypatch.setattr(_data, "_dashboards", {})
    return asked


def test_a_cluster_started_without_a_dashboard_is_not_asked(connected):
    _data.note_dashboard(GCS, types.SimpleNamespace(dashboard_url=""))
    assert _data.running_stages() == []
    assert connected == []


def test_a_cluster_with_a_dashboard_is_asked_at_its_address(connected):
    _data.note_dashboard(GCS, types.SimpleNamespace(dashboard_url="127.0.0.1:8265"))
    assert _data.running_stages() == ["MapBatches(stuck_reader): 1 task(s) running",
                                      "MapWorker(MapBatches(tagger)): 1 actor(s) alive"]
    assert [a["address"] for a in connected] == ["http://127.0.0.1:8265"] * 2


def test_a_connection_made_elsewhere_lets_the_state_api_find_the_dashboard(connected):
    _data.note_dashboard("another:1", types.SimpleNamespace(dashboard_url=""))  # some other cluster
    assert _data.running_stages()
    assert [a["address"] for a in connected] == [None, None]
